// Generic rendering of what the package returns: views, moves and events. Nothing here
// knows any game; it only lays out the JSON the engine gives.
import type { DecisionView, EntityView, GameEvent, GameView, Json, Move, PlayerView, QueueItemView, ZoneView } from 'rulestack';

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

function props(properties: { [k: string]: Json } | undefined, cls = 'props'): HTMLElement | null {
  const entries = Object.entries(properties ?? {});
  if (entries.length === 0) return null;
  const box = h('div', { class: cls });
  for (const [k, v] of entries) {
    box.append(
      h('div', { class: `prop${v === null ? ' null' : ''}`, 'data-prop': k }, h('span', { class: 'k' }, k), h('span', { class: 'v' }, fmtValue(v))),
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

/** A readable label for a move: "Bolt · Bolt#3", "Mark → NW", "Pass", "Accept EnPassant → WP". */
export function moveLabel(move: Move, view: GameView | null): string {
  const m = move; // every field of every kind of move can be read (absent = undefined)
  const parts: string[] = [];
  const tail = (): void => {
    if (Array.isArray(m.targets) && m.targets.length > 0) parts.push(`→ ${m.targets.join(', ')}`);
    if (typeof m.mode === 'number') parts.push(`mode ${m.mode}`);
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
  if (typeof m.source === 'string') parts.push(`· ${m.source}`);
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

// ------------------------------------------------------------------ board

function zoneTitle(id: string, zone: ZoneView): string {
  const owner = zone.owner;
  if (owner !== null && owner !== undefined && id.endsWith(`:${owner}`)) return id.slice(0, -owner.length - 1);
  return id;
}

function entityCard(e: EntityView): HTMLElement {
  const card = h(
    'div',
    { class: 'card', 'data-entity': e.id, title: `${e.id}${e.owner != null ? ` · owner ${e.owner}` : ''}${e.controller != null && e.controller !== e.owner ? ` · controller ${e.controller}` : ''}` },
    h('div', { class: 'card-head' }, h('span', { class: 'tpl' }, e.template ?? e.type ?? 'entity'), e.type && e.template ? h('span', { class: 'type' }, e.type) : null),
    h('div', { class: 'card-id' }, e.id),
    props(e.properties),
    extras(e, ['id', 'template', 'type', 'owner', 'controller', 'properties']),
  );
  return card;
}

function zoneBox(id: string, zone: ZoneView): HTMLElement {
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
    for (const e of zone.entities!) body.append(entityCard(e));
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

function playerPanel(p: PlayerView, view: GameView, name: PlayerName, zones: Array<[string, ZoneView]>): HTMLElement {
  const badges = h('span', { class: 'badges' });
  if (view.active === p.id) badges.append(badge('active', 'b-active'));
  if (view.priority === p.id) badges.append(badge('priority', 'b-priority'));
  if (view.toAct.includes(p.id)) badges.append(badge('to act', 'b-toact'));
  if (view.result && 'winner' in view.result && view.result.winner === p.id) badges.append(badge('winner', 'b-winner'));
  const panel = h(
    'section',
    { class: `player${view.toAct.includes(p.id) ? ' acting' : ''}`, 'data-player': p.id },
    h('h3', null, name(p.id), badges),
    props(p.properties),
    extras(p, ['id', 'properties']),
  );
  if (zones.length) {
    const zs = h('div', { class: 'zones' });
    for (const [id, z] of zones) zs.append(zoneBox(id, z));
    panel.append(zs);
  }
  return panel;
}

function queuePanel(queue: QueueItemView[], name: PlayerName): HTMLElement {
  const panel = h('section', { class: 'queue', id: 'queue' }, h('h3', null, 'Queue ', h('span', { class: 'count' }, String(queue.length)), h('span', { class: 'hint' }, 'top first')));
  if (queue.length === 0) {
    panel.append(h('div', { class: 'empty' }, 'empty'));
    return panel;
  }
  const ol = h('ol', { class: 'queue-items' });
  queue.forEach((q, i) => {
    const bits: string[] = [];
    if (q.source) bits.push(`source ${q.source}`);
    if (q.targets && q.targets.length) bits.push(`→ ${q.targets.join(', ')}`);
    if (q.mode != null) bits.push(`mode ${q.mode}`);
    if (q.x != null) bits.push(`X=${q.x}`);
    ol.append(
      h(
        'li',
        { class: i === 0 ? 'top' : undefined, 'data-entity': q.source ?? undefined },
        h('span', { class: 'q-action' }, q.action),
        h('span', { class: 'q-player' }, name(q.player)),
        h('span', { class: 'q-bits' }, bits.join(' · ')),
        h('span', { class: 'q-id' }, q.id),
        extras(q, ['id', 'action', 'player', 'source', 'targets', 'mode', 'x', 'kind']),
      ),
    );
  });
  panel.append(ol);
  return panel;
}

function decisionsPanel(decisions: DecisionView[], name: PlayerName): HTMLElement | null {
  if (decisions.length === 0) return null;
  const panel = h('section', { class: 'decisions', id: 'decisions' }, h('h3', null, 'Pending decisions'));
  const ul = h('ul');
  for (const d of decisions) {
    ul.append(
      h(
        'li',
        null,
        h('strong', null, d.name ?? d.kind ?? d.id),
        ` for ${name(d.player)}`,
        d.optional ? h('span', { class: 'hint' }, ' (optional)') : null,
        extras(d, ['name', 'player', 'optional']),
      ),
    );
  }
  panel.append(ul);
  return panel;
}

/** The whole board: players with their zones, shared zones, the queue, decisions. */
export function renderBoard(view: GameView, name: PlayerName): HTMLElement {
  const root = h('div', { class: 'board-inner' });
  const zones = Object.entries(view.zones);
  const byOwner = new Map<string, Array<[string, ZoneView]>>();
  const shared: Array<[string, ZoneView]> = [];
  const ids = new Set(view.players.map((p) => p.id));
  for (const [id, z] of zones) {
    if (z.owner != null && ids.has(z.owner)) {
      const list = byOwner.get(z.owner) ?? [];
      list.push([id, z]);
      byOwner.set(z.owner, list);
    } else {
      shared.push([id, z]);
    }
  }
  const players = h('div', { class: 'players' });
  for (const p of view.players) players.append(playerPanel(p, view, name, byOwner.get(p.id) ?? []));
  root.append(players);

  const middle = h('div', { class: 'middle' });
  middle.append(queuePanel(view.queue, name));
  const dec = decisionsPanel(view.decisions ?? [], name);
  if (dec) middle.append(dec);
  root.append(middle);

  if (shared.length) {
    const sz = h('section', { class: 'shared' }, h('h3', null, 'Shared zones'));
    const zs = h('div', { class: 'zones' });
    for (const [id, z] of shared) zs.append(zoneBox(id, z));
    sz.append(zs);
    root.append(sz);
  }
  const more = extras(view, ['game', 'players', 'toAct', 'phase', 'turn', 'active', 'priority', 'queue', 'zones', 'decisions', 'result']);
  if (more) root.append(h('section', { class: 'view-extra' }, h('h3', null, 'Other view fields'), more));
  return root;
}

// ------------------------------------------------------------------ events

export function renderEvent(ev: GameEvent): HTMLElement {
  const before = ev.when === 'before';
  const li = h('li', { class: `ev${before ? ' before' : ''}` });
  li.append(h('span', { class: 'ev-type' }, before ? `before ${ev.type}` : ev.type));
  for (const [k, v] of Object.entries(ev)) {
    if (k === 'type' || k === 'when') continue;
    li.append(' ', h('span', { class: 'ev-field' }, h('span', { class: 'k' }, k), '=', fmtValue(v)));
  }
  return li;
}
