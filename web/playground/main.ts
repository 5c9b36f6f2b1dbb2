// The rulestack playground: edit a definition, load it, play it hot-seat or against a bot.
// It uses the npm package exactly as a user would (import from 'rulestack'); every rule is
// the engine's: the page only shows views, lists legal moves and applies the chosen one.
import { loadEngine, DefinitionError, IllegalMoveError } from 'rulestack';
import type { BotOptions, DefinitionIssue, Game, GameEvent, GameView, Move, Rulestack } from 'rulestack';
import type { BotRequest, BotResponse } from './bot-worker.js';
import { Editor } from './editor.js';
import { examples } from './examples.js';
import { h, moveEntities, moveLabel, renderBoard, renderEvent, renderSummary, resultText } from './render.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

const params = new URLSearchParams(location.search);
/** How long the bot waits before it moves (ms); `?botDelay=0` for quick tests. */
const BOT_DELAY = Math.max(0, Number(params.get('botDelay') ?? 450) || 0);
const DEFAULT_GAME = 'tictactoe.yaml';

type Mode = 'hotseat' | 'bot';

interface HistoryEntry {
  player: string;
  label: string;
  events: GameEvent[];
}

const ui = {
  status: $('status'),
  version: $('version'),
  hash: $('hash'),
  picker: $<HTMLSelectElement>('game-picker'),
  seed: $<HTMLInputElement>('seed'),
  load: $<HTMLButtonElement>('load'),
  errorsBox: $('errors-box'),
  errorsTitle: $('errors-title'),
  errors: $('errors'),
  mode: $<HTMLSelectElement>('mode'),
  botKind: $<HTMLSelectElement>('bot-kind'),
  botKindLabel: $('bot-kind-label'),
  botIterations: $<HTMLInputElement>('bot-iterations'),
  viewer: $<HTMLSelectElement>('viewer'),
  undo: $<HTMLButtonElement>('undo'),
  message: $('message'),
  summary: $('summary'),
  board: $('board'),
  moves: $('moves'),
  log: $('log'),
};

const editor = new Editor($<HTMLTextAreaElement>('editor'), $('gutter'), $('cursor-pos'));

let rs: Rulestack;
let game: Game | null = null;
/** Successive bot choices use successive seeds (as one Bot does), so the bot varies its play. */
let botCalls = 0;
/** The bot request being waited for (a newer request, an undo or a load makes it stale). */
let pendingBot = 0;
let nextBotId = 1;
let history: HistoryEntry[] = [];
let setupEvents: GameEvent[] = [];
let botTimer: ReturnType<typeof setTimeout> | undefined;
/** What the editor held for each example, so switching games keeps edits. */
const drafts = new Map<string, string>();
let currentFile = DEFAULT_GAME;

// ------------------------------------------------------------------ helpers

function mode(): Mode {
  return ui.mode.value === 'bot' ? 'bot' : 'hotseat';
}

/** In vs-bot mode the human is the first player; every other player is the bot. */
function humanId(view: GameView): string {
  return view.players[0]?.id ?? '0';
}

function isBot(id: string, view: GameView): boolean {
  return mode() === 'bot' && id !== humanId(view);
}

function playerName(view: GameView) {
  return (id: string): string => {
    const base = /^\d+$/.test(id) ? `Player ${id}` : id;
    if (mode() !== 'bot') return base;
    return isBot(id, view) ? `${base} (bot)` : `${base} (you)`;
  };
}

function showMessage(text: string, kind: 'error' | 'info' = 'error'): void {
  ui.message.textContent = text;
  ui.message.className = `message ${kind}`;
  ui.message.hidden = false;
}

function clearMessage(): void {
  ui.message.hidden = true;
  ui.message.textContent = '';
}

function stopBot(): void {
  if (botTimer !== undefined) clearTimeout(botTimer);
  botTimer = undefined;
  pendingBot = 0;
}

function newBot(): void {
  botCalls = 0;
}

function botOptions(): BotOptions {
  const kind = ui.botKind.value === 'mcts' ? 'mcts' : 'random';
  const opts: BotOptions = { kind, seed: (Math.trunc(Number(ui.seed.value)) || 0) + botCalls++ };
  const it = Math.trunc(Number(ui.botIterations.value));
  if (kind === 'mcts' && ui.botIterations.value !== '' && it > 0) opts.iterations = it;
  return opts;
}

// The bot thinks in a Web Worker (bot-worker.ts); if workers fail, on the main thread.
let worker: Worker | null = null;
let workerFailed = false;
const waiting = new Map<number, { resolve: (m: Move | null) => void; reject: (e: Error) => void }>();

function botWorker(): Worker | null {
  if (workerFailed || typeof Worker !== 'function') return null;
  if (worker) return worker;
  try {
    worker = new Worker(new URL('./bot-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    workerFailed = true;
    return null;
  }
  worker.addEventListener('message', (e: MessageEvent<BotResponse>) => {
    const w = waiting.get(e.data.id);
    if (!w) return;
    waiting.delete(e.data.id);
    if ('error' in e.data) w.reject(new Error(e.data.error));
    else w.resolve(e.data.move);
  });
  worker.addEventListener('error', (e) => {
    console.warn('rulestack playground: the bot worker failed; the bot now runs on the page', e.message);
    workerFailed = true;
    worker?.terminate();
    worker = null;
    for (const w of waiting.values()) w.reject(new Error('worker failed'));
    waiting.clear();
  });
  return worker;
}

async function chooseMove(g: Game, player: string, options: BotOptions): Promise<Move | null> {
  const w = botWorker();
  if (w) {
    const id = nextBotId++;
    const req: BotRequest = { id, definition: g.definitionJson, snapshot: g.snapshot(), player, options };
    try {
      return await new Promise<Move | null>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        w.postMessage(req);
      });
    } catch (e) {
      if (!workerFailed) throw e; // a bot error, not a worker failure
    }
  }
  return rs.bot(g, options).choose(player);
}

// ------------------------------------------------------------------ definition errors

function showErrors(issues: DefinitionIssue[], title = 'Definition errors'): void {
  ui.errors.replaceChildren();
  if (issues.length === 0) {
    ui.errorsBox.hidden = true;
    editor.setErrorLines([]);
    return;
  }
  ui.errorsTitle.textContent = `${title} (${issues.length})`;
  for (const e of issues) {
    const where = e.line !== undefined ? `${e.line}:${e.column ?? 1}` : '';
    const li = h(
      'li',
      { class: `issue${where ? ' has-pos' : ''}`, tabindex: where ? '0' : undefined, 'data-line': e.line !== undefined ? String(e.line) : undefined },
      where ? h('span', { class: 'pos' }, where) : null,
      h('code', { class: 'path' }, e.path === '' ? '/' : e.path),
      h('span', { class: 'msg' }, e.message),
    );
    if (e.line !== undefined) {
      const go = () => editor.goTo(e.line!, e.column ?? 1);
      li.addEventListener('click', go);
      li.addEventListener('keydown', (ev) => {
        if (ev.key === 'Enter' || ev.key === ' ') {
          ev.preventDefault();
          go();
        }
      });
    }
    ui.errors.append(li);
  }
  ui.errorsBox.hidden = false;
  editor.setErrorLines(issues.flatMap((e) => (e.line !== undefined ? [e.line] : [])));
}

// ------------------------------------------------------------------ game lifecycle

function load(): void {
  stopBot();
  clearMessage();
  const seed = Math.trunc(Number(ui.seed.value));
  if (!Number.isFinite(seed) || seed < 0) {
    showErrors([{ path: '', message: `the seed must be a non-negative integer (got "${ui.seed.value}")` }], 'Cannot start');
    return;
  }
  let next: Game;
  try {
    next = rs.createGame(editor.value, { seed });
  } catch (e) {
    if (e instanceof DefinitionError) {
      showErrors(e.errors);
    } else {
      showErrors([{ path: '', message: e instanceof Error ? e.message : String(e) }], 'Cannot start');
    }
    return;
  }
  showErrors([]);
  game?.dispose();
  game = next;
  newBot();
  history = [];
  setupEvents = game.log(null);  // as a spectator: the hands dealt stay hidden
  render();
  scheduleBot();
}

function play(player: string, move: Move): void {
  if (!game) return;
  clearMessage();
  const view = game.view(player);
  let events: GameEvent[];
  try {
    events = game.apply(player, move);
  } catch (e) {
    if (e instanceof IllegalMoveError) {
      showMessage(`Illegal move (${e.reason}): ${e.message}`);
    } else {
      showMessage(`Engine error: ${e instanceof Error ? e.message : String(e)}`);
    }
    render();
    return;
  }
  history.push({ player, label: moveLabel(move, view), events });
  render();
  scheduleBot();
}

function undo(): void {
  if (!game) return;
  stopBot();
  clearMessage();
  // Against the bot, go back to the human's last decision (undoing the bot's replies too).
  do {
    if (!game.undo()) break;
    history.pop();
  } while (mode() === 'bot' && history.length > 0 && botToAct(game.view()) !== null);
  render();
  scheduleBot();
}

/** The bot player who is to act now, if any. */
function botToAct(view: GameView): string | null {
  if (mode() !== 'bot' || view.result) return null;
  return view.toAct.find((id) => isBot(id, view)) ?? null;
}

function scheduleBot(): void {
  stopBot();
  if (!game) return;
  const who = botToAct(game.view());
  if (who === null) return;
  ui.moves.querySelector('.thinking')?.classList.add('on');
  botTimer = setTimeout(() => {
    botTimer = undefined;
    const g = game;
    if (!g) return;
    const ticket = nextBotId++;
    pendingBot = ticket;
    const hash = g.stateHash();
    const started = performance.now();
    chooseMove(g, who, botOptions()).then(
      (move) => {
        // ignore an answer for a game or a state that is gone
        if (pendingBot !== ticket || game !== g || g.disposed || g.stateHash() !== hash) return;
        pendingBot = 0;
        if (move === null) {
          showMessage(`The bot (${who}) has no move.`, 'info');
          return;
        }
        // a fast bot still waits BOT_DELAY in all, so its moves can be followed
        const rest = Math.max(0, BOT_DELAY - (performance.now() - started));
        if (rest > 0) {
          botTimer = setTimeout(() => {
            botTimer = undefined;
            if (game === g && !g.disposed && g.stateHash() === hash) play(who, move);
          }, rest);
        } else play(who, move);
      },
      (e: unknown) => {
        if (pendingBot !== ticket) return;
        pendingBot = 0;
        showMessage(`Bot error: ${e instanceof Error ? e.message : String(e)}`);
      },
    );
  }, Math.min(BOT_DELAY, 150));
}

// ------------------------------------------------------------------ rendering

function viewerOptions(view: GameView): void {
  const want = ['auto', 'spectator', ...view.players.map((p) => `p:${p.id}`)];
  const have = [...ui.viewer.options].map((o) => o.value);
  const autoText = mode() === 'bot' ? 'auto (you)' : 'auto (player to act)';
  if (want.join() !== have.join()) {
    const current = ui.viewer.value;
    ui.viewer.replaceChildren(
      ...want.map((v) =>
        h('option', { value: v }, v === 'auto' ? autoText : v === 'spectator' ? 'spectator' : `player ${v.slice(2)}`),
      ),
    );
    ui.viewer.value = want.includes(current) ? current : 'auto';
  }
  ui.viewer.options[0]!.textContent = autoText;
}

/** The view to show and a label for it. Only views the API gives: view(player) or view(). */
function currentView(g: Game): { view: GameView; label: string } {
  const spectator = g.view();
  const choice = ui.viewer.value || 'auto';
  let who: string | null = null;
  if (choice.startsWith('p:')) who = choice.slice(2);
  else if (choice === 'auto') {
    who = mode() === 'bot' ? humanId(spectator) : (spectator.toAct[0] ?? null);
    // after the game, keep the last player's perspective
    if (who === null && history.length) who = history[history.length - 1]!.player;
  }
  if (who === null) return { view: spectator, label: 'spectator' };
  return { view: g.view(who), label: playerName(spectator)(who) };
}

function render(): void {
  if (!game) {
    ui.summary.replaceChildren(h('p', { class: 'hint' }, 'Load a definition to start a game.'));
    ui.board.replaceChildren();
    ui.moves.replaceChildren();
    ui.log.replaceChildren();
    ui.hash.textContent = '–';
    ui.undo.disabled = true;
    return;
  }
  const spectator = game.view();
  viewerOptions(spectator);
  const { view, label } = currentView(game);
  const name = playerName(spectator);

  ui.hash.textContent = game.stateHash();
  ui.summary.replaceChildren(renderSummary(view, name, label));
  ui.board.replaceChildren(renderBoard(view, name));
  renderMoves(spectator, name);
  renderLog(name);
  ui.undo.disabled = history.length === 0;
  ui.botKindLabel.classList.toggle('dim', mode() !== 'bot');
  ui.botIterations.hidden = ui.botKind.value !== 'mcts';
}

function renderMoves(view: GameView, name: (id: string) => string): void {
  const g = game!;
  ui.moves.replaceChildren();
  if (view.result) {
    ui.moves.append(h('p', { class: 'over' }, `Game over: ${resultText(view.result, name)}.`));
    return;
  }
  if (view.toAct.length === 0) {
    ui.moves.append(h('p', { class: 'hint' }, 'No player may act.'));
    return;
  }
  for (const player of view.toAct) {
    const group = h('div', { class: 'move-group', 'data-player': player }, h('h4', null, name(player)));
    if (isBot(player, view)) {
      group.append(h('p', { class: 'thinking on' }, 'the bot is thinking…'));
      ui.moves.append(group);
      continue;
    }
    const moves = g.legalMoves(player);
    if (moves.length === 0) group.append(h('p', { class: 'hint' }, 'no legal move'));
    const list = h('div', { class: 'move-list' });
    for (const move of moves) {
      const m = move;
      const kind = m.action === 'pass' ? 'pass' : typeof m.decision === 'string' ? (m.accept === false ? 'decline' : 'decision') : 'action';
      const btn = h('button', { type: 'button', class: `move ${kind}`, 'data-player': player, 'data-move': JSON.stringify(move) }, moveLabel(move, view)) as HTMLButtonElement;
      btn.addEventListener('click', () => play(player, move));
      const ids = moveEntities(move);
      if (ids.length) {
        btn.addEventListener('mouseenter', () => highlight(ids, true));
        btn.addEventListener('mouseleave', () => highlight(ids, false));
      }
      list.append(btn);
    }
    group.append(list);
    ui.moves.append(group);
  }
}

function highlight(ids: string[], on: boolean): void {
  for (const id of ids) {
    for (const el of ui.board.querySelectorAll(`[data-entity="${CSS.escape(id)}"]`)) el.classList.toggle('hl', on);
  }
}

function renderLog(name: (id: string) => string): void {
  const groups: HTMLElement[] = [];
  history.forEach((entry, i) => {
    const ol = h('ol', { class: 'events' });
    for (const ev of entry.events) ol.append(renderEvent(ev));
    groups.push(
      h(
        'details',
        { class: 'log-group', open: i >= history.length - 3 ? '' : undefined },
        h('summary', null, h('span', { class: 'n' }, `#${i + 1}`), ` ${name(entry.player)}: `, h('strong', null, entry.label), h('span', { class: 'hint' }, ` ${entry.events.length} events`)),
        ol,
      ),
    );
  });
  groups.reverse(); // newest first, the setup last
  if (setupEvents.length) {
    const ol = h('ol', { class: 'events' });
    for (const ev of setupEvents) ol.append(renderEvent(ev));
    groups.push(h('details', { class: 'log-group' }, h('summary', null, h('span', { class: 'n' }, '#0'), ' setup', h('span', { class: 'hint' }, ` ${setupEvents.length} events`)), ol));
  }
  ui.log.replaceChildren(...groups);
  if (groups.length === 0) ui.log.append(h('p', { class: 'hint' }, 'No events yet.'));
}

// ------------------------------------------------------------------ wiring

function pickExample(file: string): void {
  drafts.set(currentFile, editor.value);
  currentFile = file;
  const ex = examples.find((e) => e.file === file);
  editor.value = drafts.get(file) ?? ex?.text ?? '';
}

function revert(): void {
  const ex = examples.find((e) => e.file === currentFile);
  if (!ex) return;
  drafts.delete(currentFile);
  editor.value = ex.text;
  load();
}

function wire(): void {
  for (const ex of examples) ui.picker.append(h('option', { value: ex.file }, `${ex.name} — ${ex.file}`));
  ui.picker.value = DEFAULT_GAME;
  ui.picker.addEventListener('change', () => {
    pickExample(ui.picker.value);
    load();
  });
  ui.load.addEventListener('click', load);
  $('revert').addEventListener('click', revert);
  editor.textarea.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      load();
    }
  });
  ui.seed.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') load();
  });
  ui.undo.addEventListener('click', undo);
  ui.mode.addEventListener('change', () => {
    clearMessage();
    render();
    scheduleBot();
  });
  ui.botKind.addEventListener('change', () => {
    newBot();
    render();
    scheduleBot();
  });
  ui.viewer.addEventListener('change', render);
  const toggle = $<HTMLButtonElement>('toggle-editor');
  toggle.addEventListener('click', () => {
    const hidden = $('layout').classList.toggle('no-editor');
    toggle.textContent = hidden ? 'Show editor' : 'Hide editor';
    toggle.setAttribute('aria-pressed', String(!hidden));
  });
}

async function main(): Promise<void> {
  wire();
  const ex = examples.find((e) => e.file === DEFAULT_GAME) ?? examples[0];
  if (ex) {
    currentFile = ex.file;
    ui.picker.value = ex.file;
    editor.value = ex.text;
  }
  rs = await loadEngine();
  ui.version.textContent = rs.version();
  load();
  ui.status.textContent = 'ready';
}

main().catch((err) => {
  console.error(err);
  ui.status.textContent = `error: ${err instanceof Error ? err.message : String(err)}`;
});
