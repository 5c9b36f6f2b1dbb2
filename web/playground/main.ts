// The rulestack playground: edit a definition, load it, play it hot-seat or against a bot.
// It uses the npm package exactly as a user would (import from 'rulestack'); every rule is
// the engine's: the page only shows views, lists legal moves and applies the chosen one.
// Hidden information holds on the page too: it shows one player's view (or the spectator's)
// and that reader's log, never another player's cards unless "debug: show every view" is on.
import { loadEngine, DefinitionError, IllegalMoveError } from 'rulestack';
import type { BotOptions, Game, GameEvent, GameView, Move, ResolutionStep, Rulestack, Seed } from 'rulestack';
import type { BotRequest, BotResponse } from './bot-worker.js';
import type { Editor } from './editor.js';
import { checkFormat } from './editor/check-format.js';
import { definitionName, exampleOf, examples } from './examples.js';
import type { PlaygroundHost } from './host.js';
import { Keep } from './keep.js';
import { registerOffline } from './pwa.js';
import { gameErrorText, h, moveEntities, moveErrorText, moveLabel, moveSteps, renderBoard, renderEvents, renderPrompt, renderSummary, resultText, stepsText, useDefinition } from './render.js';
import { announce, settleFocus } from './a11y.js';
import { initSimulate, type SimulatePanel } from './simulate.js';
import { initOnline } from './online.js';
import { ResolutionPanel } from './steps.js';

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

const params = new URLSearchParams(location.search);
/** How long the bot waits before it moves (ms); `?botDelay=0` for quick tests. */
const BOT_DELAY = Math.max(0, Number(params.get('botDelay') ?? 450) || 0);
const DEFAULT_GAME = 'tictactoe.yaml';

type Mode = 'hotseat' | 'bot';

interface HistoryEntry {
  player: string;
  /** The move as it was applied (Redo applies it again). */
  move: Move;
  /** Whether the move was a pass (its own Pass event is not an automatic one). */
  passed: boolean;
  /** The move as each reader may read it: by player id, '' for the spectator. */
  labels: Map<string, string>;
  /** How many events it caused: its slice of game.log(reader). */
  eventCount: number;
  /** What the resolution machine ran for it (game.steps()), if it was traced (debug on). */
  steps?: ResolutionStep[];
}

/** The name a move's log line gives a card the reader never saw. */
const HIDDEN_CARD = 'a hidden card';

const ui = {
  status: $('status'),
  version: $('version'),
  hash: $('hash'),
  picker: $<HTMLSelectElement>('game-picker'),
  seed: $<HTMLInputElement>('seed'),
  seedUsed: $('seed-used'),
  load: $<HTMLButtonElement>('load'),
  errorsBox: $('errors-box'),
  errorsTitle: $('errors-title'),
  errors: $('errors'),
  mode: $<HTMLSelectElement>('mode'),
  botStrength: $<HTMLSelectElement>('bot-strength'),
  botStrengthLabel: $('bot-strength-label'),
  viewer: $<HTMLSelectElement>('viewer'),
  debugViews: $<HTMLInputElement>('debug-views'),
  handover: $('handover'),
  handoverTitle: $('handover-title'),
  handoverText: $('handover-text'),
  handoverConfirm: $<HTMLButtonElement>('handover-confirm'),
  columns: $('game-columns'),
  logReader: $('log-reader'),
  undo: $<HTMLButtonElement>('undo'),
  redo: $<HTMLButtonElement>('redo'),
  message: $('message'),
  summary: $('summary'),
  board: $('board'),
  moves: $('moves'),
  log: $('log'),
};
const resolution = new ResolutionPanel($('resolution'));

/** The editor (CodeMirror, a chunk of its own: main() loads it alongside the engine, so the page's first script is small). */
let editor: Editor;

async function newEditor(): Promise<Editor> {
  const { Editor } = await import('./editor.js');
  return new Editor($('editor-box'), $('cursor-pos'), { box: ui.errorsBox, title: ui.errorsTitle, list: ui.errors }, {
    onRun: () => load(),
    onChange: () => keep.saveSoon(), // the text is kept as it is typed (keep.ts)
  });
}

let rs: Rulestack;
let game: Game | null = null;
/** The text the game was loaded from (the editor may hold another since). */
let loadedText = '';
/** Successive bot choices use successive seeds (as one Bot does), so the bot varies its play. */
let botCalls = 0;
/** The bot request being waited for (a newer request, an undo, a load or Stop makes it stale). */
let pendingBot = 0;
/** Stop was pressed: the bot's seat waits (no search) until "Bot, move", Undo, a load or a change of mode. */
let botStopped = false;
let nextBotId = 1;
let history: HistoryEntry[] = [];
/** What Undo took back, each Undo's moves in the order they were played: Redo applies the last again; any other move forgets them. */
let redoable: Array<Array<{ player: string; move: Move }>> = [];
/** How many events the setup made (the first slice of every reader's log). */
let setupCount = 0;
/** Where this game's bot seeds start: from the game's seed, so a replayed game replays the bot. */
let botSeedBase = 0;
/** Whether the rules hide something between players (a zone only its owner sees, face-down cards). */
let secretRules = false;
/** Hot-seat: the player who has the device, whose view is shown; null: nobody known (a game brought back by a reload). */
let holder: string | null = null;
/** Hot-seat: a player to act whom the device was asked for by hand (two players may act at once). */
let handoverAsked: string | null = null;
/** The player the hand-over screen is up for, so its button takes the focus once, not at every render. */
let handoverUp: string | null = null;
let botTimer: ReturnType<typeof setTimeout> | undefined;
/** What the editor held for each example, so switching games keeps edits. */
const drafts = new Map<string, string>();
let currentFile = DEFAULT_GAME;
/** The picker's value for a definition that is no example unchanged (a share link's, an imported game's). */
const CUSTOM = '';
/** That definition as it was opened: what its Revert goes back to; null while there is none. */
let customText: string | null = null;
/** The Simulate panel, told of each game loaded (its results may be of another definition). */
let simulate: SimulatePanel | null = null;

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

/** "Player 0" for a numeric id, else the id itself. */
function baseName(id: string): string {
  return /^\d+$/.test(id) ? `Player ${id}` : id;
}

function playerName(view: GameView) {
  return (id: string): string => {
    const base = baseName(id);
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

/** Forgets the bot's move in progress: its wait, its answer, and its search (endBotSearch). */
function stopBot(): void {
  if (botTimer !== undefined) clearTimeout(botTimer);
  botTimer = undefined;
  pendingBot = 0;
  endBotSearch();
}

function newBot(): void {
  botCalls = 0;
}

/** A level is MCTS with the engine's budget for it; "Random (weakest)" is the random bot. */
function botOptions(): BotOptions {
  const seed = botSeedBase + botCalls++;
  const strength = ui.botStrength.value;
  if (strength === 'easy' || strength === 'normal' || strength === 'hard') return { level: strength, seed };
  return { kind: 'random', seed };
}

/** The seed box: empty is a fresh random seed (undefined); an integer exact as a number is that number; anything else is the text. */
function parseSeed(text: string): Seed | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  if (/^-?\d+$/.test(t) && Number.isSafeInteger(Number(t))) return Number(t);
  return t;
}

/** 32 bits of the game's seed (which may be text; a bot seed is an integer): the same game, the same bot. */
function botSeedFrom(seed: Seed | null): number {
  if (typeof seed === 'number') return ((seed % 2 ** 32) + 2 ** 32) % 2 ** 32;
  if (typeof seed === 'bigint') return Number(BigInt.asUintN(32, seed));
  let x = 0x811c9dc5; // FNV-1a of the text
  for (const c of seed ?? '') x = Math.imul(x ^ c.codePointAt(0)!, 0x01000193) >>> 0;
  return x;
}

// ------------------------------------------------------------------ hidden information

/** Whether the definition hides something from some players: a zone only its owner sees, or a face-down template. */
function rulesHideCards(definitionJson: string): boolean {
  try {
    const d = JSON.parse(definitionJson) as { zones?: Array<{ visibility?: unknown }>; entities?: Array<{ face_down?: unknown }> };
    return (d.zones ?? []).some((z) => z?.visibility === 'owner') || (d.entities ?? []).some((e) => e?.face_down === true);
  } catch {
    return false;
  }
}

/** Whether showing b's view where a's was shown (null: the spectator's) would show someone a zone or card the other may not see. */
function hiddenBetween(g: Game, a: string | null, b: string): boolean {
  const zones = (p: string | null) => JSON.stringify((p === null ? g.view() : g.view(p)).zones);
  return secretRules || zones(a) !== zones(b);
}

/** Hot-seat: the player who should have the device now (the one asked for, else the holder while they act, else the first to act). */
function nextHolder(view: GameView): string | null {
  if (view.result || view.toAct.length === 0) return holder;
  if (handoverAsked !== null && view.toAct.includes(handoverAsked)) return handoverAsked;
  if (holder !== null && view.toAct.includes(holder)) return holder;
  return view.toAct[0]!;
}

/**
 * Hot-seat: the player the device must be handed to, behind a screen, before anything more
 * is shown; or null. Where nothing is hidden between the two, the view simply follows the
 * player to act (tic-tac-toe never shows the screen). With no holder known (a reload), the
 * one looking may be anyone: only what the spectator sees is shown without the screen.
 */
function pendingHandover(g: Game, view: GameView): string | null {
  if (mode() !== 'hotseat') return null;
  const next = nextHolder(view);
  if (next === null || next === holder) return null;
  if (hiddenBetween(g, holder, next)) return next;
  holder = next;
  handoverAsked = null;
  return null;
}

/** Entity, zone, player and queue ids this view shows its reader. */
function visibleIds(view: GameView): Set<string> {
  const ids = new Set<string>(view.players.map((p) => p.id));
  for (const [id, z] of Object.entries(view.zones)) {
    ids.add(id);
    for (const e of z.entities ?? []) ids.add(e.id);
  }
  for (const q of view.queue) {
    ids.add(q.id);
    if (q.source) ids.add(q.source);
    for (const t of q.targets ?? []) ids.add(t);
  }
  return ids;
}

/** The move with every id the reader saw neither before nor after it (a card into a hidden hand) unnamed. */
function unnamed(move: Move, seen: Set<string>): Move {
  const m = { ...move } as Record<string, unknown>;
  const hide = (id: unknown) => (typeof id === 'string' && !seen.has(id) ? HIDDEN_CARD : id);
  if (m.source !== undefined) m.source = hide(m.source);
  if (Array.isArray(m.targets)) m.targets = m.targets.map(hide);
  return m as unknown as Move;
}

/** Every reader's view (by player id, '' for the spectator). */
function viewsByReader(g: Game): Map<string, GameView> {
  const spectator = g.view();
  return new Map([['', spectator], ...spectator.players.map((p): [string, GameView] => [p.id, g.view(p.id)])]);
}

/** The log line of a move for each reader: the mover's own words, the others' without what they did not see. */
function moveLabels(g: Game, player: string, move: Move, before: Map<string, GameView>): Map<string, string> {
  const labels = new Map<string, string>();
  for (const [reader, view] of before) {
    if (reader === player) {
      labels.set(reader, moveLabel(move, view));
      continue;
    }
    const after = reader === '' ? g.view() : g.view(reader);
    labels.set(reader, moveLabel(unnamed(move, new Set([...visibleIds(view), ...visibleIds(after)])), view));
  }
  return labels;
}

// The bot thinks in a Web Worker (bot-worker.ts); if workers fail, on the main thread.
let worker: Worker | null = null;
let workerFailed = false;
const waiting = new Map<number, { resolve: (m: Move | null) => void; reject: (e: Error) => void }>();

function botWorker(): Worker | null {
  if (workerFailed || typeof Worker !== 'function') return null;
  if (worker) return worker;
  let made: Worker;
  try {
    made = worker = new Worker(new URL('./bot-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    workerFailed = true;
    return null;
  }
  // (an answer is taken only for a request still waited for: ids are never reused, and a dropped worker's requests are forgotten)
  made.addEventListener('message', (e: MessageEvent<BotResponse>) => {
    const w = waiting.get(e.data.id);
    if (!w) return;
    waiting.delete(e.data.id);
    if ('error' in e.data) w.reject(new Error(e.data.error));
    else w.resolve(e.data.move);
  });
  made.addEventListener('error', (e) => {
    if (worker !== made) return; // a worker already dropped
    console.warn('rulestack playground: the bot worker failed; the bot now runs on the page', e.message);
    workerFailed = true;
    dropWorker('worker failed');
  });
  return made;
}

/** Ends the worker and fails the requests it had; the next request makes a fresh one (unless workers failed). */
function dropWorker(why: string): void {
  worker?.terminate();
  worker = null;
  for (const w of waiting.values()) w.reject(new Error(why));
  waiting.clear();
}

/**
 * Ends a search the worker is running (a search cannot be interrupted otherwise): for Stop,
 * and for a request gone stale (an undo, a load), so the next one does not wait behind it.
 * A worker with nothing to do is kept, its engine loaded. (On the page, a search holds the
 * thread: it ends before anything can stop it, and its answer is then ignored.)
 */
function endBotSearch(): void {
  if (worker && waiting.size > 0) dropWorker('stopped');
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

// ------------------------------------------------------------------ game lifecycle

/** Loads the editor's text with the seed given, else the Seed box's; the new game, or null (the errors are shown). */
function load(given?: Seed): Game | null {
  stopBot();
  clearMessage();
  const seed = given ?? parseSeed(ui.seed.value);
  const text = editor.value;
  let next: Game;
  try {
    // without a seed the package draws a fresh one (game.seed), so nobody knows the deal beforehand
    next = rs.createGame(text, seed === undefined ? {} : { seed });
  } catch (e) {
    // the editor underlines and lists them, placed as its live check places them (JSON text too)
    if (e instanceof DefinitionError) {
      const found = rs.check(text, { format: checkFormat(text) });
      editor.report(found.errors.length > 0 ? found : { errors: e.errors, warnings: [] });
    } else editor.report({ errors: [{ path: '', message: e instanceof Error ? e.message : String(e) }], warnings: [] }, 'Cannot start');
    return null;
  }
  return begin(next, text);
}

/** Puts a game just created from this text (the editor's, but for a simulated game) on the page, in place of the one there. */
function begin(next: Game, text: string): Game {
  stopBot();
  clearMessage();
  announce(''); // what it said was a move of the previous game
  // (a game of another text, a simulated one, leaves the editor's own issues shown)
  if (text === editor.value) editor.report(rs.check(text, { format: checkFormat(text) }));
  game?.dispose();
  game = next;
  loadedText = text;
  game.setTrace(ui.debugViews.checked); // steps name hidden cards: traced only under debug
  useDefinition(game.definitionJson);
  showSeed(game.seed);
  secretRules = rulesHideCards(game.definitionJson);
  // whoever loads the game is taken to be its first player to act
  const start = game.view();
  holder = start.toAct[0] ?? start.players[0]?.id ?? null;
  handoverAsked = null;
  botSeedBase = botSeedFrom(game.seed);
  newBot();
  botStopped = false;
  history = [];
  redoable = [];
  setupCount = game.log(null).length;
  keep.gameLoaded(game, text);
  simulate?.definitionChanged();
  render();
  scheduleBot();
  return game;
}

/** The seed this game was dealt from, to replay it: typed back into Seed it gives the same game. */
function showSeed(seed: Seed | null): void {
  const text = seed === null ? '' : String(seed);
  ui.seedUsed.textContent = seed === null ? '' : `seed ${text}`;
  ui.seedUsed.dataset.seed = text;
}

/** Applies a move and records it (no rendering); null, or the message shown of why the engine refused it. */
function applyMove(g: Game, player: string, move: Move): string | null {
  const before = viewsByReader(g);
  let events: GameEvent[];
  try {
    events = g.apply(player, move);
  } catch (e) {
    const refused = e instanceof IllegalMoveError ? moveErrorText(e.reason, e.message) : { text: `Engine error: ${e instanceof Error ? e.message : String(e)}`, gameError: false };
    showMessage(refused.text);
    ui.message.classList.toggle('game-error', refused.gameError);
    return refused.text;
  }
  history.push({ player, move, passed: move.action === 'pass', labels: moveLabels(g, player, move, before), eventCount: events.length, steps: ui.debugViews.checked ? g.steps() : undefined });
  return null;
}

/** Applies the move as its button does; null, or the message shown of why it was refused. */
function play(player: string, move: Move): string | null {
  if (!game) return 'no game is loaded';
  clearMessage();
  const refused = applyMove(game, player, move);
  if (refused === null) redoable = []; // another move: what Undo took back is no longer ahead
  render();
  if (refused === null) {
    const entry = history[history.length - 1]!;
    const events = lastEvents(entry);
    announceMove(entry, events);
    showGameError(events);
  }
  settleFocus(ui.moves);
  scheduleBot();
  return refused;
}

/** The events of the last move (entry, the last of the history), as the spectator reads them. */
function lastEvents(entry: HistoryEntry): GameEvent[] {
  return entry.eventCount > 0 ? game!.log(null).slice(-entry.eventCount) : [];
}

/** A queue item that failed as it resolved (the move stands, the item was cancelled): said as an error. */
function showGameError(events: GameEvent[]): void {
  const failed = gameErrorText(events);
  if (failed !== null) {
    showMessage(failed);
    ui.message.classList.add('game-error');
  }
}

/** Tells a screen reader (and the line above the moves) what was just played, in public words. */
function announceMove(entry: HistoryEntry, events: GameEvent[]): void {
  const spectator = game!.view();
  const name = playerName(spectator);
  // the words of the one whose view is shown against the bot; the spectator's in hot-seat (the next player reads it)
  const label = entry.labels.get(mode() === 'bot' ? humanId(spectator) : '') ?? '';
  const steps = stepsText(moveSteps(events, entry.player, entry.passed));
  const result = spectator.result ? ` Game over: ${resultText(spectator.result, name)}.` : '';
  announce(`${name(entry.player)}: ${label}${steps ? ` (${steps})` : ''}.${result}`);
}

/** Says what Undo took back ('Undone') or Redo played again ('Redone'), in announceMove's words. */
function announceEntries(what: 'Undone' | 'Redone', entries: HistoryEntry[]): void {
  if (entries.length === 0) return;
  const spectator = game!.view();
  const name = playerName(spectator);
  const reader = mode() === 'bot' ? humanId(spectator) : '';
  const result = spectator.result ? ` Game over: ${resultText(spectator.result, name)}.` : '';
  announce(`${what}: ${entries.map((e) => `${name(e.player)}: ${e.labels.get(reader) ?? ''}`).join('; ')}.${result}`);
}

/** A game of this text and seed when the text reads as that definition (JSON text), else null. */
function gameOf(text: string, definitionJson: string, seed: number): Game | null {
  try {
    const g = rs.createGame(text, { seed });
    if (g.definitionJson === definitionJson) return g;
    g.dispose();
  } catch {
    // the text does not load: not that definition
  }
  return null;
}

/**
 * Opens a game the Simulate panel played: that seed, those moves, replayed from the start
 * (hot-seat, so no bot moves on), of the definition simulated (definitionJson, loaded from
 * `text`). The editor's text is used when it still reads as that definition; else the game
 * is of `text`, and the editor keeps what it holds (edits not loaded are not lost). Null, or
 * why it cannot (the page is then left as it was).
 */
function openGame(definitionJson: string, text: string, seed: number, moves: Array<{ player: string; move: Move }>): string | null {
  const fromEditor = gameOf(editor.value, definitionJson, seed);
  const g = fromEditor ?? gameOf(text, definitionJson, seed);
  // checked before anything changes: a refused Open must not cost the game in progress
  if (!g) return 'the definition simulated does not load.';
  ui.mode.value = 'hotseat';
  ui.seed.value = String(seed);
  begin(g, fromEditor ? editor.value : text);
  for (const { player, move } of moves) if (applyMove(g, player, move) !== null) break;
  holder = g.view().toAct[0] ?? holder;
  render();
  const which = fromEditor ? '' : ', of the definition simulated (the editor’s text, another, is not loaded)';
  showMessage(`Opened simulated game, seed ${seed}: ${moves.length} moves${which}. Undo steps back through it.`, 'info');
  ui.moves.focus(); // from the Simulate panel to the game (scrolled into view), then to its first move if any
  settleFocus(ui.moves);
  return null;
}

function undo(): void {
  if (!game) return;
  stopBot();
  botStopped = false; // the position the bot was stopped in is taken back: it is asked anew where it acts
  clearMessage();
  const undone: HistoryEntry[] = [];
  // Against the bot, go back to the human's last decision (undoing the bot's replies too).
  do {
    if (!game.undo()) break;
    undone.push(history.pop()!);
  } while (mode() === 'bot' && history.length > 0 && botToAct(game.view()) !== null);
  if (undone.length > 0) redoable.push([...undone].reverse());
  announceEntries('Undone', undone);
  render();
  settleFocus(ui.moves);
  scheduleBot();
}

/** Applies again what the last Undo took back (against the bot, its replies too: the same moves, not a new search). */
function redo(): void {
  const moves = redoable.pop();
  if (!game || !moves) return;
  stopBot();
  botStopped = false;
  clearMessage();
  const redone: HistoryEntry[] = [];
  for (const { player, move } of moves) {
    if (applyMove(game, player, move) !== null) {
      redoable = []; // (cannot happen: the same state, the same move; the message says why)
      break;
    }
    redone.push(history[history.length - 1]!);
  }
  render();
  announceEntries('Redone', redone);
  if (redone.length > 0) showGameError(lastEvents(redone[redone.length - 1]!));
  settleFocus(ui.moves);
  scheduleBot();
}

/** The bot player who is to act now, if any. */
function botToAct(view: GameView): string | null {
  if (mode() !== 'bot' || view.result) return null;
  return view.toAct.find((id) => isBot(id, view)) ?? null;
}

function scheduleBot(): void {
  stopBot();
  if (!game || botStopped) return;
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
        // as after Stop: the seat waits for "Bot, move" (no Stop left for a search that ended)
        botStopped = true;
        keep.saveSoon();
        render();
        showMessage(`Bot error: ${(e instanceof Error ? e.message : String(e)).replace(/\.$/, '')}. “Bot, move” asks it again; Undo takes back your move.`);
        announce(`Bot error: ${playerName(g.view())(who)} did not move.`);
        settleFocus(ui.moves);
      },
    );
  }, Math.min(BOT_DELAY, 150));
}

/** The bot's level as the Bot strength menu names it ("Hard", "Random (weakest)"). */
function botStrengthName(): string {
  return ui.botStrength.selectedOptions[0]?.textContent ?? '';
}

/**
 * Stop (its button beside "the bot is thinking…", or Escape): the bot's search ends and its
 * answer, should one still come, is never played. The game is as it was before the bot was
 * asked; the bot's seat waits until "Bot, move" asks it again (or Undo, a load, a change of mode).
 */
function stopBotMove(): void {
  if (!game) return;
  const who = botToAct(game.view());
  if (who === null) return;
  stopBot();
  botStopped = true;
  keep.saveSoon(); // kept: a reload leaves the seat waiting too
  render();
  showMessage(`Stopped: the bot (${botStrengthName()}) did not move. “Bot, move” asks it again; Undo takes back your move.`, 'info');
  announce(`Stopped: ${playerName(game.view())(who)} did not move.`);
  settleFocus(ui.moves);
}

/** "Bot, move": the stopped bot is asked again (at the strength the menu now gives). */
function resumeBot(): void {
  botStopped = false;
  keep.saveSoon();
  clearMessage();
  render();
  settleFocus(ui.moves);
  scheduleBot();
}

// ------------------------------------------------------------------ rendering

/**
 * The View menu: "auto" (in hot-seat the player who has the device, who follows the player to
 * act after each hand-over; against the bot, you) and the spectator. Another player's view
 * shows their cards, so it is offered only under "debug: show every view".
 */
function viewerOptions(view: GameView, name: (id: string) => string): void {
  const autoText = mode() === 'bot' ? `you (${baseName(humanId(view))})` : secretRules ? 'the player to act (after the hand-over)' : 'the player to act';
  const plain: Array<[string, string]> = [
    ['auto', autoText],
    ['spectator', 'spectator (public cards only)'],
  ];
  const debug: Array<[string, string]> = ui.debugViews.checked ? view.players.map((p) => [`p:${p.id}`, `view of ${name(p.id)}`]) : [];
  const want = JSON.stringify([plain, debug]);
  if (ui.viewer.dataset.options === want) return;
  const current = ui.viewer.value;
  const option = ([value, text]: [string, string]) => h('option', { value }, text);
  ui.viewer.replaceChildren(...plain.map(option));
  if (debug.length) ui.viewer.append(h('optgroup', { label: 'debug: another player’s view' }, ...debug.map(option)));
  ui.viewer.dataset.options = want;
  ui.viewer.value = [...plain, ...debug].some(([v]) => v === current) ? current : 'auto';
}

/** The view to show, a label for it, and whose it is (null: the spectator). Only views the API gives: view(player) or view(). */
function currentView(g: Game, spectator: GameView): { view: GameView; label: string; reader: string | null } {
  const choice = ui.viewer.value || 'auto';
  let reader: string | null = null;
  if (choice.startsWith('p:') && ui.debugViews.checked) reader = choice.slice(2);
  else if (choice === 'auto') reader = mode() === 'bot' ? humanId(spectator) : holder;
  if (reader === null) return { view: spectator, label: 'spectator', reader };
  const label = playerName(spectator)(reader) + (choice === 'auto' ? '' : ' (debug)');
  return { view: g.view(reader), label, reader };
}

function render(): void {
  if (!game) {
    ui.summary.replaceChildren(h('p', { class: 'hint' }, 'Load a definition to start a game.'));
    ui.board.replaceChildren();
    ui.moves.replaceChildren();
    ui.log.replaceChildren();
    ui.hash.textContent = '–';
    ui.undo.disabled = ui.redo.disabled = true;
    return;
  }
  const spectator = game.view();
  const name = playerName(spectator);
  viewerOptions(spectator, name);
  ui.hash.textContent = game.stateHash();
  ui.undo.disabled = history.length === 0; // undo stays: the one who just moved may take it back
  ui.redo.disabled = redoable.length === 0;
  ui.botStrengthLabel.classList.toggle('dim', mode() !== 'bot');

  const to = pendingHandover(game, spectator);
  if (to !== null) {
    renderHandover(to, spectator, name);
    return;
  }
  closeHandover();
  const { view, label, reader } = currentView(game, spectator);
  ui.summary.replaceChildren(renderSummary(view, name, label));
  ui.board.replaceChildren(renderBoard(view, name, reader ?? ''));
  renderMoves(spectator, name);
  renderLog(name, reader);
  renderResolution(name);
}

/** The Resolution panel (debug only): the steps of the last move. */
function renderResolution(name: (id: string) => string): void {
  const last = history[history.length - 1];
  const n = history.length;
  resolution.show(ui.debugViews.checked, last ? { title: `#${n} ${name(last.player)}: ${last.labels.get(last.player) ?? '?'}`, steps: last.steps, events: () => game!.log() } : null);
}

/**
 * Hot-seat with hidden cards: the next player's view must not appear before the one who
 * just played, nor theirs after. The board, the moves and the log leave the page (not only
 * the screen) until the next player says they have the device.
 */
function renderHandover(to: string, spectator: GameView, name: (id: string) => string): void {
  ui.summary.replaceChildren(renderSummary(spectator, name, 'nobody (hand-over)'));
  ui.board.replaceChildren();
  ui.moves.replaceChildren();
  ui.log.replaceChildren();
  ui.columns.hidden = true;
  ui.handoverTitle.textContent = `Pass the device to ${name(to)}`;
  ui.handoverText.textContent =
    `${name(to)} is to act. Every hand stays hidden until ${name(to)} has the device` + (holder !== null ? `: ${name(holder)}, look away.` : '.');
  ui.handoverConfirm.textContent = `I am ${name(to)} — show my cards`;
  ui.handover.dataset.player = to;
  ui.handover.hidden = false;
  if (handoverUp !== to) {
    handoverUp = to;
    ui.handoverConfirm.focus();
  }
}

function closeHandover(): void {
  ui.handover.hidden = true;
  ui.columns.hidden = false;
  handoverUp = null;
}

/** The next player has the device: show their view, and put the focus on their moves. */
function confirmHandover(): void {
  const to = ui.handover.dataset.player;
  if (!game || ui.handover.hidden || to === undefined) return;
  holder = to;
  handoverAsked = null;
  render();
  (ui.moves.querySelector<HTMLElement>('button.move') ?? ui.moves).focus();
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
  const prompt = renderPrompt(view, name);
  if (prompt) ui.moves.append(prompt);
  for (const player of view.toAct) {
    const group = h('div', { class: 'move-group', 'data-player': player }, h('h3', null, name(player)));
    ui.moves.append(group);
    if (isBot(player, view)) {
      group.append(botLine());
      continue;
    }
    // hot-seat: another player's moves name their cards, so they wait for the device
    if (mode() === 'hotseat' && holder !== null && player !== holder && hiddenBetween(g, holder, player)) {
      const ask = h('button', { type: 'button', class: 'handover-ask' }, `Pass the device to ${name(player)}`);
      ask.addEventListener('click', () => {
        handoverAsked = player;
        render();
      });
      group.append(h('p', { class: 'hint' }, `${name(player)} may act too, with the device.`), ask);
      continue;
    }
    const own = g.view(player); // the mover's own view names their cards and decisions
    const moves = g.legalMoves(player);
    if (moves.length === 0) group.append(h('p', { class: 'hint' }, 'no legal move'));
    const list = h('div', { class: 'move-list' });
    for (const move of moves) {
      const m = move;
      const kind = m.action === 'pass' ? 'pass' : typeof m.decision === 'string' ? (m.accept === false ? 'decline' : 'decision') : 'action';
      const btn = h('button', { type: 'button', class: `move ${kind}`, 'data-player': player, 'data-move': JSON.stringify(move) }, moveLabel(move, own)) as HTMLButtonElement;
      btn.addEventListener('click', () => play(player, move));
      const ids = moveEntities(move);
      if (ids.length) {
        for (const on of ['mouseenter', 'focus']) btn.addEventListener(on, () => highlight(ids, true));
        for (const off of ['mouseleave', 'blur']) btn.addEventListener(off, () => highlight(ids, false));
      }
      list.append(btn);
    }
    group.append(list);
  }
}

/** The bot's line in its move group: thinking, with Stop; or stopped, with "Bot, move". */
function botLine(): HTMLElement {
  const strength = botStrengthName();
  const button = (cls: string, text: string, title: string, onClick: () => void, attrs: Record<string, string> = {}) => {
    const b = h('button', { type: 'button', class: cls, title, ...attrs }, text);
    b.addEventListener('click', onClick);
    return b;
  };
  if (botStopped) {
    return h(
      'div',
      { class: 'bot-line' },
      h('p', { class: 'bot-stopped' }, `stopped: the bot (${strength}) waits until you ask it to move`),
      button('bot-go', 'Bot, move', 'Ask the bot to choose its move again (at the strength the menu gives)', resumeBot),
    );
  }
  return h(
    'div',
    { class: 'bot-line' },
    h('p', { class: 'thinking on' }, `the bot (${strength}) is thinking…`),
    button('bot-stop', 'Stop', 'End the bot’s search: it makes no move, and waits until you ask it again (Esc)', stopBotMove, { 'aria-label': 'Stop the bot', 'aria-keyshortcuts': 'Escape' }),
  );
}

function highlight(ids: string[], on: boolean): void {
  for (const id of ids) {
    for (const el of ui.board.querySelectorAll(`[data-entity="${CSS.escape(id)}"]`)) el.classList.toggle('hl', on);
  }
}

/**
 * The event log as the reader of the view shown may read it (game.log(reader)): a card
 * another player drew is not named. apply() gives the mover's events, which would name it.
 */
function renderLog(name: (id: string) => string, reader: string | null): void {
  const all = game!.log(reader);
  const key = reader ?? '';
  ui.logReader.textContent = `as ${reader === null ? 'the spectator' : name(reader)} sees it, newest first`;
  const groups: HTMLElement[] = [];
  let at = setupCount;
  history.forEach((entry, i) => {
    const events = all.slice(at, at + entry.eventCount);
    at += entry.eventCount;
    const steps = stepsText(moveSteps(events, entry.player, entry.passed));
    groups.push(
      h(
        'details',
        { class: 'log-group', open: i >= history.length - 3 ? '' : undefined },
        h(
          'summary',
          null,
          h('span', { class: 'n' }, `#${i + 1}`),
          ` ${name(entry.player)}: `,
          h('strong', null, entry.labels.get(key) ?? '?'),
          steps ? h('span', { class: 'steps' }, ` — ${steps}`) : null,
          h('span', { class: 'hint' }, ` ${events.length} events`),
        ),
        renderEvents(events, entry.player, entry.passed, name),
      ),
    );
  });
  groups.reverse(); // newest first, the setup last
  if (setupCount > 0) {
    groups.push(h('details', { class: 'log-group' }, h('summary', null, h('span', { class: 'n' }, '#0'), ' setup', h('span', { class: 'hint' }, ` ${setupCount} events`)), renderEvents(all.slice(0, setupCount), null, false, name)));
  }
  ui.log.replaceChildren(...groups);
  if (groups.length === 0) ui.log.append(h('p', { class: 'hint' }, 'No events yet.'));
}

// ------------------------------------------------------------------ wiring

/** The text a picker entry opens with, and Revert goes back to: the example's, or the custom definition as it was opened. */
function originalText(file: string): string | null {
  return file === CUSTOM ? customText : (examples.find((e) => e.file === file)?.text ?? null);
}

function pickExample(file: string): void {
  drafts.set(currentFile, editor.value);
  currentFile = file;
  editor.value = drafts.get(file) ?? originalText(file) ?? '';
  showRevert();
}

function revert(): void {
  const text = originalText(currentFile);
  if (text === null) return;
  drafts.delete(currentFile);
  editor.value = text;
  load();
}

/** Revert's tooltip says what it goes back to. */
function showRevert(): void {
  $('revert').title = currentFile === CUSTOM ? 'Discard your edits and load the definition as it was opened (share link or game file)' : 'Discard your edits of this example and load it again';
}

/** Selects a picker entry (an example's, or the custom one once there is one) without loading its text; false when there is no such entry. */
function selectFile(file: string): boolean {
  if (originalText(file) === null) return false;
  currentFile = file;
  ui.picker.value = file;
  showRevert();
  return true;
}

/**
 * A definition from elsewhere (a share link, a game file, the page's kept state) goes in the
 * editor: the picker names the example it is unchanged, else it is the custom entry, which
 * Revert brings back as it came (an example's text would lose it). The example's file, or null.
 */
function adopt(text: string): string | null {
  drafts.set(currentFile, editor.value); // the entry left keeps its edits
  const ex = exampleOf(text);
  if (ex) {
    selectFile(ex.file);
    return ex.file;
  }
  customText = text;
  drafts.delete(CUSTOM);
  let option = ui.picker.querySelector<HTMLOptionElement>('option[data-custom]');
  if (!option) ui.picker.append((option = h('option', { value: CUSTOM, 'data-custom': '' }) as HTMLOptionElement));
  option.textContent = `${definitionName(text) ?? 'Untitled'} — custom definition (shared or imported)`;
  selectFile(CUSTOM);
  return null;
}

function wire(): void {
  for (const ex of examples) ui.picker.append(h('option', { value: ex.file }, `${ex.name} — ${ex.file}`));
  ui.picker.value = DEFAULT_GAME;
  ui.picker.addEventListener('change', () => {
    pickExample(ui.picker.value);
    load();
  });
  ui.load.addEventListener('click', () => load());
  $('revert').addEventListener('click', revert);
  ui.seed.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') load();
  });
  ui.undo.addEventListener('click', undo);
  ui.redo.addEventListener('click', redo);
  ui.mode.addEventListener('change', () => {
    clearMessage();
    botStopped = false;
    // against the bot the human's view was shown: the device is theirs
    if (mode() === 'hotseat' && game) holder = humanId(game.view());
    handoverAsked = null;
    render();
    scheduleBot();
  });
  ui.botStrength.addEventListener('change', () => {
    newBot();
    render();
    scheduleBot();
  });
  ui.viewer.addEventListener('change', render);
  ui.debugViews.addEventListener('change', () => {
    game?.setTrace(ui.debugViews.checked);
    render();
  });
  ui.handoverConfirm.addEventListener('click', confirmHandover);
  // Escape stops the bot from anywhere on the page but the editor (where Escape then Tab leaves it)
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented || (e.target instanceof Element && e.target.closest('#editor-box'))) return;
    const stop = ui.moves.querySelector<HTMLElement>('button.bot-stop');
    if (!stop || stop.offsetParent === null) return; // no bot thinking on the page shown
    e.preventDefault();
    stopBotMove();
  });
  const toggle = $<HTMLButtonElement>('toggle-editor');
  toggle.addEventListener('click', () => {
    const hidden = $('layout').classList.toggle('no-editor');
    toggle.textContent = hidden ? 'Show editor' : 'Hide editor';
    toggle.setAttribute('aria-pressed', String(!hidden));
  });
}

/** What keep.ts (keep, share, export, import) may do on the page. */
const host: PlaygroundHost = {
  game: () => game,
  text: () => editor.value,
  setText: (text) => {
    editor.value = text;
  },
  file: () => currentFile,
  setFile: (file) => void selectFile(file),
  customText: () => customText,
  adopt,
  mode: () => mode(),
  setMode: (m) => {
    ui.mode.value = m === 'bot' ? 'bot' : 'hotseat';
    ui.mode.dispatchEvent(new Event('change'));
  },
  botStrength: () => ui.botStrength.value,
  setBotStrength: (s) => {
    if ([...ui.botStrength.options].some((o) => o.value === s)) ui.botStrength.value = s;
  },
  start: (text, seed) => {
    editor.value = text;
    return load(seed);
  },
  forgetHolder: () => {
    holder = null;
    handoverAsked = null;
    render();
  },
  play,
  botStopped: () => botStopped,
  holdBot: () => {
    if (!game || botToAct(game.view()) === null) return;
    stopBot();
    botStopped = true;
    render();
  },
};
const keep = new Keep(host);

async function main(): Promise<void> {
  registerOffline();
  [rs, editor] = await Promise.all([loadEngine(), newEditor()]);
  wire();
  keep.wire();
  const ex = examples.find((e) => e.file === DEFAULT_GAME) ?? examples[0];
  if (ex) {
    currentFile = ex.file;
    ui.picker.value = ex.file;
    editor.value = ex.text;
  }
  ui.version.textContent = rs.version();
  // a share link, else what the page kept (the game replayed to where it was), else the default
  if (!(await keep.restore())) load();
  simulate = initSimulate({ definition: () => game?.definitionJson ?? null, text: () => (game ? loadedText : null), players: () => game?.players ?? [], open: openGame });
  initOnline({ definition: () => game?.definitionJson ?? null });
  ui.status.textContent = 'ready';
}

main().catch((err) => {
  console.error(err);
  ui.status.textContent = `error: ${err instanceof Error ? err.message : String(err)}`;
});
