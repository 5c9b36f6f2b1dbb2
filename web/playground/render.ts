// Generic rendering of what the package returns: views, moves and events. Nothing here
// knows any game; it lays out the JSON the engine gives, with the names and rules text the
// definition holds (definition-info.ts), so that people can read it.
import type { DecisionView, EntityView, GameEvent, GameView, Json, Move, PlayerView, QueueItemView, ZoneView } from 'rulestack';
import { DefinitionInfo, humanize, templateOfId } from './definition-info.js';

type Attrs = Record<string, string | undefined>;

/** A small element builder. */
export function h(tag: string, attrs: Attrs | null = null, ...children: Array<Node | string | null | undefined | false>): HTMLElement {
  const el = document.createElement(tag);
  if (attrs) {
    for (const [k, v] of Object.entries(attrs)) {
      if (v === undefined) continue;
      if (k === 'class') el.className = v;
      else el.setAttribute(k, v);
    }
  }
  for (const c of children) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c);
  }
  return el;
}

export function fmtValue(v: unknown): string {
  if (v === null || v === undefined) return '–';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

/** How the UI names players: "Player 0", "Player 1 (bot)", … */
export type PlayerName = (id: string) => string;

// ------------------------------------------------------------------ the game being shown

/** The loaded game's definition (its rules text, mode names) and what was last shown to each reader. */
let info = new DefinitionInfo('{}');
/** By reader: the state shown now and the one before it, to mark the values the last move changed. */
const shown = new Map<string, { key: string; now: Map<string, string>; before: Map<string, string> | null }>();

/** A new game: its definition (JSON text, as `game.definitionJson` gives it); forgets what was shown. */
export function useDefinition(definitionJson: string): void {
  info = new DefinitionInfo(definitionJson);
  shown.clear();
}

/** Every property value in a view, by "entity-or-player id/property". */
function valuesOf(view: GameView): Map<string, string> {
  const m = new Map<string, string>();
  for (const p of view.players) for (const [k, v] of Object.entries(p.properties ?? {})) m.set(`${p.id}/${k}`, fmtValue(v));
  for (const z of Object.values(view.zones)) for (const e of z.entities ?? []) for (const [k, v] of Object.entries(e.properties ?? {})) m.set(`${e.id}/${k}`, fmtValue(v));
  return m;
}

/** The values before the last change of this reader's view (null: nothing to compare with). */
function previousValues(view: GameView, reader: string): Map<string, string> | null {
  const key = JSON.stringify(view);
  const entry = shown.get(reader);
  if (entry && entry.key === key) return entry.before; // drawn again, same state: same marks
  const now = valuesOf(view);
  shown.set(reader, { key, now, before: entry ? entry.now : null });
  return entry ? entry.now : null;
}

// ------------------------------------------------------------------ names

/** How a view's ids read: entities by their template's name, queue items by their action and card, players by name. */
export class Names {
  constructor(
    readonly view: GameView | null,
    readonly player: PlayerName = (id) => (/^\d+$/.test(id) ? `Player ${id}` : id),
  ) {}

  #entity(id: string): EntityView | undefined {
    if (!this.view) return undefined;
    for (const z of Object.values(this.view.zones)) for (const e of z.entities ?? []) if (e.id === id) return e;
    return undefined;
  }

  /** The template an id is of, as far as this view tells. */
  templateOf(id: string | null | undefined): string | null {
    if (!id) return null;
    return this.#entity(id)?.template ?? templateOfId(id);
  }

  /** "Ember Raider #3" for "EmberRaider#3"; a plain id ("NW", "B1") as it is; a handle is a hidden card. */
  entity(id: string): string {
    if (id.startsWith('?')) return 'a hidden card';
    const tpl = templateOfId(id);
    return tpl ? `${humanize(tpl)} ${id.slice(tpl.length)}` : id;
  }

  /** Any id a target or a value may hold: a player, a queue item, an entity. */
  any(id: string): string {
    if (this.view?.players.some((p) => p.id === id)) return this.player(id);
    const item = this.view?.queue.find((q) => q.id === id);
    if (item) return `${item.action}${item.source ? ` of ${this.entity(item.source)}` : ''} (on the queue)`;
    if (/^q\d+$/.test(id)) return `a queue item (${id})`;
    return this.entity(id);
  }

  mode(action: string, source: string | null | undefined, index: number): string {
    return info.modeName(action, this.templateOf(source), index);
  }
}

function props(properties: { [k: string]: Json } | undefined, cls = 'props', owner?: string, before?: Map<string, string> | null): HTMLElement | null {
  const entries = Object.entries(properties ?? {});
  if (entries.length === 0) return null;
  const box = h('div', { class: cls });
  for (const [k, v] of entries) {
    const was = owner !== undefined ? before?.get(`${owner}/${k}`) : undefined;
    const changed = was !== undefined && was !== fmtValue(v);
    box.append(
      h(
        'div',
        { class: `prop${v === null ? ' null' : ''}${changed ? ' changed' : ''}`, 'data-prop': k, title: changed ? `was ${was}` : undefined },
        h('span', { class: 'k' }, k),
        h('span', { class: 'v' }, fmtValue(v)),
        changed ? h('span', { class: 'sr-only' }, ` (was ${was})`) : null,
      ),
    );
  }
  return box;
}

/** Any other fields of a view object (the engine may add some). */
function extras(obj: Record<string, unknown>, known: string[]): HTMLElement | null {
  const rest: { [k: string]: Json } = {};
  for (const [k, v] of Object.entries(obj)) if (!known.includes(k)) rest[k] = v as Json;
  return props(rest, 'props extra');
}

// ------------------------------------------------------------------ moves

/** A readable label for a move: "Cast · Bolt #3", "Mark → NW", "Pass", "Cast · Tactical Retreat #1 → Stasis", "Accept Brace". */
export function moveLabel(move: Move, view: GameView | null): string {
  const m = move; // every field of every kind of move can be read (absent = undefined)
  const names = new Names(view);
  const parts: string[] = [];
  const tail = (): void => {
    if (typeof m.mode === 'number' && typeof m.action === 'string') parts.push(`· ${names.mode(m.action, m.source, m.mode)}`);
    if (Array.isArray(m.targets) && m.targets.length > 0) parts.push(`→ ${m.targets.map((t) => names.any(String(t))).join(', ')}`);
    if (typeof m.x === 'number') parts.push(`X=${m.x}`);
    for (const [k, v] of Object.entries(m)) {
      if (!['action', 'source', 'targets', 'mode', 'x', 'decision', 'accept'].includes(k)) parts.push(`${k}=${fmtValue(v)}`);
    }
  };
  if (typeof m.decision === 'string') {
    const d = view?.decisions?.find((x) => x.id === m.decision);
    const what = d ? (d.name ?? d.kind ?? d.id) : m.decision;
    if (m.accept === false) return `Decline ${what}`;
    parts.push(m.accept === true && d?.optional !== false ? `Accept ${what}` : `${what}`);
    tail();
    return parts.join(' ');
  }
  if (m.action === 'pass' && Object.keys(m).length === 1) return 'Pass';
  parts.push(String(m.action));
  if (typeof m.source === 'string') parts.push(`· ${names.entity(m.source)}`);
  tail();
  return parts.join(' ');
}

/** Entity ids a move mentions (its source and targets), for highlighting. */
export function moveEntities(move: Move): string[] {
  const m = move; // every field of every kind of move can be read (absent = undefined)
  const ids: string[] = [];
  if (typeof m.source === 'string') ids.push(m.source);
  if (Array.isArray(m.targets)) for (const t of m.targets) if (typeof t === 'string') ids.push(t);
  return ids;
}

/** What a refused move means to a person: the rules failing while it ran is the game's error, not the player's. */
export function moveErrorText(reason: string, message: string): { text: string; gameError: boolean } {
  if (reason === 'runtime_error') return { text: `Game error: the rules failed while this move ran, so it was not made. ${message}`, gameError: true };
  if (reason === 'loop_limit') return { text: `Game error: this move set off too many steps (a loop in the rules?), so it was not made. ${message}`, gameError: true };
  return { text: `Illegal move (${reason}): ${message}`, gameError: false };
}

// ------------------------------------------------------------------ board

function zoneTitle(id: string, zone: ZoneView): string {
  const owner = zone.owner;
  if (owner !== null && owner !== undefined && id.endsWith(`:${owner}`)) return id.slice(0, -owner.length - 1);
  return id;
}

const CARD_FIELDS = ['id', 'template', 'type', 'owner', 'controller', 'properties', 'tags', 'face_down', 'host', 'text'];

/** A card: its name, type and tags, its rules text, its properties (the ones the last move changed marked). */
function entityCard(e: EntityView, names: Names, before: Map<string, string> | null): HTMLElement {
  const tpl = e.template ?? null;
  const t = info.template(tpl);
  // the rules text: the view's, should the engine give one, else the definition's
  const text = typeof e.text === 'string' ? e.text : t?.text;
  const tags = Array.isArray(e.tags) ? (e.tags as unknown[]).filter((x): x is string => typeof x === 'string') : (t?.tags ?? []);
  const hidden = e.id.startsWith('?');
  const faceDown = e.face_down === true;
  const who = [e.owner != null ? `owner ${names.player(e.owner)}` : '', e.controller != null && e.controller !== e.owner ? `controller ${names.player(e.controller)}` : '']
    .filter(Boolean)
    .join(' · ');
  return h(
    'article',
    {
      class: `card${faceDown ? ' face-down' : ''}${hidden ? ' unknown' : ''}`,
      'data-entity': e.id,
      'data-template': tpl ?? undefined,
      title: `${e.id}${who ? ` · ${who}` : ''}`,
      'aria-label': `${hidden ? 'a face-down card' : names.entity(e.id)}${tpl ? `, ${humanize(tpl)}` : ''}`,
    },
    h(
      'header',
      { class: 'card-head' },
      h('span', { class: 'tpl card-name' }, tpl ? humanize(tpl) : (e.type ?? 'entity')),
      e.type ? h('span', { class: 'type' }, humanize(e.type)) : null,
    ),
    tags.length ? h('div', { class: 'tags' }, ...tags.map((x) => h('span', { class: 'tag' }, x))) : null,
    faceDown ? h('div', { class: 'face-note' }, hidden ? 'face down' : 'face down (you know it)') : null,
    text ? h('p', { class: 'card-text' }, text) : null,
    props(e.properties, 'props', e.id, before),
    e.host != null ? h('div', { class: 'card-host' }, `on ${names.entity(String(e.host))}`) : null,
    h('div', { class: 'card-id' }, e.id),
    extras(e, CARD_FIELDS),
  );
}

function zoneBox(id: string, zone: ZoneView, names: Names, before: Map<string, string> | null): HTMLElement {
  const visible = Array.isArray(zone.entities);
  const box = h(
    'div',
    { class: `zone${visible ? '' : ' hidden-zone'}`, 'data-zone': id },
    h('div', { class: 'zone-head' }, h('span', { class: 'zone-name' }, zoneTitle(id, zone)), h('span', { class: 'count', title: 'count' }, String(zone.count))),
  );
  const body = h('div', { class: 'zone-body' });
  if (!visible) {
    body.append(
      zone.count > 0
        ? h('div', { class: 'facedown', title: 'hidden from this view' }, h('span', null, `${zone.count} face-down`))
        : h('div', { class: 'empty' }, 'empty (hidden)'),
    );
  } else if (zone.entities!.length === 0) {
    body.append(h('div', { class: 'empty' }, 'empty'));
  } else {
    for (const e of zone.entities!) body.append(entityCard(e, names, before));
  }
  box.append(body);
  return box;
}

function badge(text: string, cls: string): HTMLElement {
  return h('span', { class: `badge ${cls}` }, text);
}

export function resultText(result: GameView['result'], name: PlayerName): string {
  if (!result) return '';
  if ('winner' in result) return `${name(result.winner)} wins`;
  if ('draw' in result) return 'Draw';
  return JSON.stringify(result);
}

/** Turn, phase, who acts, the result. */
export function renderSummary(view: GameView, name: PlayerName, viewer: string): HTMLElement {
  const item = (label: string, value: string, id: string) =>
    h('div', { class: 'sum-item' }, h('span', { class: 'sum-label' }, label), h('span', { class: 'sum-value', id }, value));
  const frag = h('div', { class: 'summary-row' });
  if (view.game) frag.append(item('game', String(view.game), 'sum-game'));
  frag.append(
    item('turn', String(view.turn), 'turn'),
    item('phase', view.phase ?? '–', 'phase'),
    item('active', view.active != null ? name(view.active) : '–', 'active'),
    item('priority', view.priority != null ? name(view.priority) : '–', 'priority'),
    item('to act', view.toAct.length ? view.toAct.map(name).join(', ') : '–', 'to-act'),
    item('viewing as', viewer, 'viewing'),
  );
  const res = h('div', { class: `result${view.result ? ' over' : ''}`, id: 'result' }, view.result ? resultText(view.result, name) : 'in progress');
  return h('div', null, frag, res);
}

function playerPanel(p: PlayerView, view: GameView, names: Names, zones: Array<[string, ZoneView]>, before: Map<string, string> | null): HTMLElement {
  const badges = h('span', { class: 'badges' });
  if (view.active === p.id) badges.append(badge('active', 'b-active'));
  if (view.priority === p.id) badges.append(badge('priority', 'b-priority'));
  if (view.toAct.includes(p.id)) badges.append(badge('to act', 'b-toact'));
  if (view.result && 'winner' in view.result && view.result.winner === p.id) badges.append(badge('winner', 'b-winner'));
  const panel = h(
    'section',
    { class: `player${view.toAct.includes(p.id) ? ' acting' : ''}`, 'data-player': p.id, 'aria-label': names.player(p.id) },
    h('h3', null, names.player(p.id), badges),
    props(p.properties, 'props', p.id, before),
    extras(p, ['id', 'properties']),
  );
  if (zones.length) {
    const zs = h('div', { class: 'zones' });
    for (const [id, z] of zones) zs.append(zoneBox(id, z, names, before));
    panel.append(zs);
  }
  return panel;
}

/** The engine's own zone that holds played cards while their item is on the queue: shown in the queue panel. */
const QUEUE_ZONE = 'Queue';

/** The queue, top first: each item as a card — its action, its controller, its card, its mode and targets by name. */
function queuePanel(view: GameView, names: Names, before: Map<string, string> | null): HTMLElement {
  const queue = view.queue;
  const held = view.zones[QUEUE_ZONE]?.entities ?? [];
  const panel = h(
    'section',
    { class: 'queue', id: 'queue', 'aria-label': 'Queue' },
    h('h3', null, 'Queue ', h('span', { class: 'count' }, String(queue.length)), queue.length > 1 ? h('span', { class: 'hint' }, 'top first: it resolves first') : null),
  );
  if (queue.length === 0) {
    panel.append(h('div', { class: 'empty' }, 'empty'));
    return panel;
  }
  const ol = h('ol', { class: 'queue-items' });
  queue.forEach((q, i) => {
    const card = q.source ? held.find((e) => e.id === q.source) : undefined;
    const bits: HTMLElement[] = [];
    if (q.mode != null) bits.push(h('span', { class: 'q-mode' }, `mode: ${names.mode(q.action, q.source, q.mode)}`));
    if (q.targets && q.targets.length) bits.push(h('span', { class: 'q-targets' }, `→ ${q.targets.map((t) => names.any(t)).join(', ')}`));
    if (q.x != null) bits.push(h('span', { class: 'q-x' }, `X = ${q.x}`));
    const kind = typeof q.kind === 'string' && q.kind !== 'action' ? q.kind : null;
    ol.append(
      h(
        'li',
        { class: `q-item${i === 0 ? ' top' : ''}`, 'data-item': q.id, 'data-entity': q.source ?? undefined },
        h(
          'div',
          { class: 'q-head' },
          h('span', { class: 'q-action' }, q.action),
          kind ? h('span', { class: 'q-kind' }, kind) : null,
          q.source && !card ? h('span', { class: 'q-source' }, `of ${names.entity(q.source)}`) : null,
          h('span', { class: 'q-player' }, `controller: ${names.player(q.player)}`),
          i === 0 ? badge('resolves next', 'b-next') : null,
        ),
        bits.length ? h('div', { class: 'q-bits' }, ...bits) : null,
        card ? entityCard(card, names, before) : null,
        h('span', { class: 'q-id' }, q.id),
        extras(q, ['id', 'action', 'player', 'source', 'targets', 'mode', 'x', 'kind']),
      ),
    );
  });
  panel.append(ol);
  // a card in the queue zone that no item names (should not happen): still shown, once
  const loose = held.filter((e) => !queue.some((q) => q.source === e.id));
  if (loose.length) panel.append(h('div', { class: 'zone-body' }, ...loose.map((e) => entityCard(e, names, before))));
  return panel;
}

function decisionWhat(d: DecisionView): string {
  if (d.kind === 'discard') return `discard ${typeof d.count === 'number' ? d.count : ''} card${d.count === 1 ? '' : 's'}`.replace('  ', ' ');
  const name = d.name ?? 'a hidden card’s ' + (d.kind ?? 'decision');
  return d.kind === 'trigger' ? `triggered: ${name}` : d.kind === 'reaction' ? `reaction: ${name}` : name;
}

function decisionsPanel(decisions: DecisionView[], names: Names): HTMLElement | null {
  if (decisions.length === 0) return null;
  const panel = h('section', { class: 'decisions', id: 'decisions' }, h('h3', null, 'Pending decisions'));
  const ul = h('ul');
  for (const d of decisions) {
    ul.append(
      h(
        'li',
        { 'data-decision': d.id },
        h('strong', null, decisionWhat(d)),
        ` for ${names.player(d.player)}`,
        d.optional ? h('span', { class: 'hint' }, ' (optional)') : null,
        extras(d, ['id', 'kind', 'name', 'player', 'optional', 'choices', 'count']),
      ),
    );
  }
  panel.append(ul);
  return panel;
}

/**
 * The pending decision as a prompt, above the moves: who must decide what. The resolution
 * in progress waits for it; a decision of another player says whom the game waits for.
 */
export function renderPrompt(view: GameView, name: PlayerName): HTMLElement | null {
  const d = view.decisions?.[0];
  if (!d || view.result) return null;
  const optional = d.optional ? 'accept or decline' : d.kind === 'discard' ? 'choose the cards' : 'choose';
  return h(
    'div',
    { class: 'prompt', id: 'prompt', role: 'note' },
    h('strong', null, `${name(d.player)} decides: `),
    decisionWhat(d),
    h('span', { class: 'hint' }, ` — ${optional}; the rest of the move waits for it`),
  );
}

/** The whole board: players with their zones, shared zones, the queue, decisions. `reader` keys the marks of changed values. */
export function renderBoard(view: GameView, name: PlayerName, reader = ''): HTMLElement {
  const names = new Names(view, name);
  const before = previousValues(view, reader);
  const root = h('div', { class: 'board-inner' }, h('h2', { class: 'sr-only' }, 'Board'));
  const byOwner = new Map<string, Array<[string, ZoneView]>>();
  const shared: Array<[string, ZoneView]> = [];
  const ids = new Set(view.players.map((p) => p.id));
  for (const [id, z] of Object.entries(view.zones)) {
    if (id === QUEUE_ZONE) continue; // its cards are shown with their items
    if (z.owner != null && ids.has(z.owner)) {
      const list = byOwner.get(z.owner) ?? [];
      list.push([id, z]);
      byOwner.set(z.owner, list);
    } else {
      shared.push([id, z]);
    }
  }
  const players = h('div', { class: 'players' });
  for (const p of view.players) players.append(playerPanel(p, view, names, byOwner.get(p.id) ?? [], before));
  root.append(players);

  const middle = h('div', { class: 'middle' });
  middle.append(queuePanel(view, names, before));
  const dec = decisionsPanel(view.decisions ?? [], names);
  if (dec) middle.append(dec);
  root.append(middle);

  if (shared.length) {
    const sz = h('section', { class: 'shared', 'aria-label': 'Shared zones' }, h('h3', null, 'Shared zones'));
    const zs = h('div', { class: 'zones' });
    for (const [id, z] of shared) zs.append(zoneBox(id, z, names, before));
    sz.append(zs);
    root.append(sz);
  }
  const more = extras(view, ['game', 'players', 'toAct', 'phase', 'turn', 'active', 'priority', 'queue', 'zones', 'decisions', 'result']);
  if (more) root.append(h('section', { class: 'view-extra' }, h('h3', null, 'Other view fields'), more));
  return root;
}

// ------------------------------------------------------------------ events

/** What a move set off, beyond itself: the passes made for players automatically and the items that resolved. */
export interface MoveSteps {
  autoPasses: number;
  resolved: string[];
  cancelled: string[];
}

/** Which Pass events of a move were automatic: every one but the mover's own pass, if the move was one. */
function autoPassIndexes(events: GameEvent[], mover: string, movePassed: boolean): Set<number> {
  const auto = new Set<number>();
  let own = movePassed;
  events.forEach((ev, i) => {
    if (ev.type !== 'Pass' || ev.when === 'before') return;
    if (own && ev.player === mover) own = false;
    else auto.add(i);
  });
  return auto;
}

function itemName(ev: { action?: string; entity?: string }, names: Names): string {
  return `${ev.action ?? 'an item'}${ev.entity ? ` of ${names.entity(ev.entity)}` : ''}`;
}

/**
 * The indexes of the ActionExecuted events of items that resolved because players passed:
 * not an action that executes at once (`queue: false`), which is the move itself.
 */
function resolvedIndexes(events: GameEvent[]): Set<number> {
  const immediate = new Map<string, boolean>(); // item played in this move → no pass since
  const out = new Set<number>();
  events.forEach((ev, i) => {
    if (ev.when === 'before') return;
    if (ev.type === 'Pass') for (const k of immediate.keys()) immediate.set(k, false);
    else if (ev.type === 'ActionPlayed') immediate.set(ev.item, true);
    else if (ev.type === 'ActionExecuted' && !immediate.get(ev.item)) out.add(i);
  });
  return out;
}

export function moveSteps(events: GameEvent[], mover: string, movePassed: boolean): MoveSteps {
  const names = new Names(null);
  const resolved = resolvedIndexes(events);
  const of = (type: string) =>
    events.flatMap((ev, i) => (ev.type === type && ev.when !== 'before' && (type !== 'ActionExecuted' || resolved.has(i)) ? [itemName(ev as { action?: string; entity?: string }, names)] : []));
  return { autoPasses: autoPassIndexes(events, mover, movePassed).size, resolved: of('ActionExecuted'), cancelled: of('ActionCancelled') };
}

/** "2 automatic passes · resolved: Counter of Negate #1 · cancelled: Cast of Bolt #1": what one click did beyond the move itself. */
/**
 * A run-time error the engine got past while a move resolved (a `GameError` event: its item
 * was cancelled, or the game ended in a draw), said as a game error; null when there was none.
 */
export function gameErrorText(events: GameEvent[]): string | null {
  const errors = events.flatMap((ev) => {
    const e = ev as { type: string; message?: string; action?: string; item?: string };
    if (e.type !== 'GameError') return [];
    const what = e.item ? `${e.action ?? 'an item'} failed as it resolved and was cancelled` : 'the rules failed, and the game ended in a draw';
    return [`${what}: ${e.message ?? ''}`];
  });
  return errors.length ? `Game error: ${errors.join('; ')}` : null;
}

export function stepsText(s: MoveSteps): string {
  const bits: string[] = [];
  if (s.autoPasses) bits.push(`${s.autoPasses} automatic pass${s.autoPasses === 1 ? '' : 'es'}`);
  if (s.resolved.length) bits.push(`resolved: ${s.resolved.join(', ')}`);
  if (s.cancelled.length) bits.push(`cancelled: ${s.cancelled.join(', ')}`);
  return bits.join(' · ');
}

/** A move's events, the automatic passes and the resolved items marked. */
export function renderEvents(events: GameEvent[], mover: string | null, movePassed: boolean, name: PlayerName = (id) => id): HTMLElement {
  const auto = mover === null ? new Set<number>() : autoPassIndexes(events, mover, movePassed);
  const resolved = resolvedIndexes(events);
  const names = new Names(null, name);
  const ol = h('ol', { class: 'events' });
  events.forEach((ev, i) => {
    const li = renderEvent(ev);
    if (auto.has(i)) {
      li.classList.add('auto-pass');
      li.append(' ', badge(`automatic pass of ${name(String((ev as { player?: string }).player))}`, 'b-auto'));
    } else if (resolved.has(i)) {
      li.classList.add('resolved');
      li.append(' ', badge(`resolved: ${itemName(ev as { action?: string; entity?: string }, names)}`, 'b-resolved'));
    } else if ((ev as { type: string }).type === 'GameError') {
      li.classList.add('game-error');
      li.append(' ', badge('game error', 'b-cancelled'));
    } else if (ev.type === 'ActionCancelled') {
      li.classList.add('cancelled');
      li.append(' ', badge(`cancelled: ${itemName(ev, names)}`, 'b-cancelled'));
    }
    ol.append(li);
  });
  return ol;
}

export function renderEvent(ev: GameEvent): HTMLElement {
  const before = ev.when === 'before';
  const li = h('li', { class: `ev${before ? ' before' : ''}`, 'data-type': ev.type });
  li.append(h('span', { class: 'ev-type' }, before ? `before ${ev.type}` : ev.type));
  for (const [k, v] of Object.entries(ev)) {
    if (k === 'type' || k === 'when') continue;
    li.append(' ', h('span', { class: 'ev-field' }, h('span', { class: 'k' }, k), '=', fmtValue(v)));
  }
  return li;
}
