// The Simulate panel: N bot-vs-bot games of the loaded game in a worker (simulate-worker.ts:
// the package's simulate, so the figures are `rulestack simulate`'s for the same seed and
// count) spread over one worker a core, a progress bar, then the win counts, the draws and
// the spread of game lengths as charts, and the odd games (longest, shortest, draws,
// failures); each of those opens on the board, move for move, as its run played it. Results
// shown for another definition than the loaded one, or other settings than the panel's, are
// marked stale.
import type { Move, SimulateResult } from 'rulestack';
import { h } from './render.js';
import type { GameOutcome, SimBot } from './simulate-game.js';
import { lengthBins, oddGames, tally, tallyOf, type Tally } from './simulate-stats.js';
import type { SimRequest, SimResponse } from './simulate-worker.js';

export interface SimulateHost {
  /** The loaded game's definition (JSON text), or null when none loaded. */
  definition(): string | null;
  /** The text the loaded game was loaded from (the editor may hold another since), or null. */
  text(): string | null;
  players(): readonly string[];
  /** Shows a game the panel played: its definition (JSON, and the text it was loaded from), seed and moves. Null, or why it cannot (nothing changed then). */
  open(definition: string, text: string, seed: number, moves: Array<{ player: string; move: Move }>): string | null;
}

/** What the page tells the panel. */
export interface SimulatePanel {
  /** A game was loaded: results of another definition are marked stale (of this one, no longer). */
  definitionChanged(): void;
}

const BOTS: Array<[SimBot, string]> = [
  ['random', 'Random'],
  ['easy', 'Easy (MCTS)'],
  ['normal', 'Normal (MCTS)'],
  ['hard', 'Hard (MCTS)'],
];

/** The most moves the engine plays a simulated game for (simulate's maxMoves, and its default). */
const MAX_GAME_MOVES = 100_000;

const playerLabel = (id: string) => (/^\d+$/.test(id) ? `Player ${id}` : id);

/** What a run played its games with: an odd game of it opens with these, whatever the panel says now. */
interface Played {
  def: string;
  /** The text def was loaded from: Open loads it again, whatever the editor holds now. */
  text: string;
  bot: SimBot;
  maxMoves: number;
}

/** One worker a core the browser reports (the package's limit is 1024), at most one a game. */
function workersFor(games: number): number {
  const cores = Math.floor(navigator.hardwareConcurrency);
  return Math.max(1, Math.min(cores >= 1 ? cores : 1, 1024, games));
}

const onWorkers = (n: number) => `on ${n} worker${n === 1 ? '' : 's'}`;

function newWorker(): Worker {
  return new Worker(new URL('./simulate-worker.ts', import.meta.url), { type: 'module' });
}

export function initSimulate(host: SimulateHost): SimulatePanel | null {
  const root = document.getElementById('simulate');
  if (!root) return null;
  const count = h('input', { id: 'sim-count', type: 'number', min: '1', max: '10000', value: '100', inputmode: 'numeric' }) as HTMLInputElement;
  const bot = h('select', { id: 'sim-bot' }, ...BOTS.map(([v, t]) => h('option', { value: v }, t))) as HTMLSelectElement;
  const maxMoves = h('input', { id: 'sim-max-moves', type: 'number', min: '1', max: String(MAX_GAME_MOVES), value: String(MAX_GAME_MOVES), inputmode: 'numeric', title: 'A game still on after this many moves counts as unfinished (bots that never end a game)' }) as HTMLInputElement;
  const seed = h('input', { id: 'sim-seed', type: 'number', min: '0', value: '1', inputmode: 'numeric', title: 'Game i is dealt (and its bots seeded) from this seed + i' }) as HTMLInputElement;
  const run = h('button', { id: 'sim-run', type: 'button', class: 'primary' }, 'Simulate') as HTMLButtonElement;
  const stop = h('button', { id: 'sim-stop', type: 'button', disabled: '' }, 'Stop') as HTMLButtonElement;
  const progress = h('progress', { id: 'sim-progress', max: '1', value: '0', 'aria-label': 'games played' }) as HTMLProgressElement;
  const status = h('span', { id: 'sim-status', role: 'status' }, 'Plays the loaded game bot against bot.');
  const table = h('table', { id: 'sim-table', class: 'sim-table' });
  const winsCanvas = h('canvas', { id: 'sim-wins-chart', role: 'img', 'aria-label': 'Results per player (bar chart; the table gives the numbers)' }) as HTMLCanvasElement;
  const lengthCanvas = h('canvas', { id: 'sim-length-chart', role: 'img', 'aria-label': 'Number of games by length in moves (bar chart)' }) as HTMLCanvasElement;
  const odd = h('ul', { id: 'sim-odd', class: 'sim-odd' });
  // what Open says, kept apart from the run's status (a run started meanwhile would write over it)
  const openStatus = h('p', { id: 'sim-open-status', class: 'sim-open-status', role: 'status', hidden: '' });
  const staleNote = h('p', { id: 'sim-stale', class: 'sim-stale', role: 'status', hidden: '' });
  // drawn when a run ends: hidden while one runs, so no chart or odd game of the run before is shown with its figures
  const atEnd = h(
    'div',
    { id: 'sim-at-end', class: 'sim-at-end', hidden: '' },
    h(
      'div',
      { class: 'sim-charts' },
      h('figure', null, h('figcaption', null, 'Results'), h('div', { class: 'chart-box' }, winsCanvas)),
      h('figure', null, h('figcaption', null, 'Game length (moves)'), h('div', { class: 'chart-box' }, lengthCanvas)),
    ),
    h('h3', null, 'Odd games'),
    odd,
  );
  const results = h(
    'div',
    { id: 'sim-results', class: 'sim-results', hidden: '' },
    staleNote,
    table,
    atEnd,
  );
  root.replaceChildren(
    h('h2', { id: 'sim-title' }, 'Simulate — balance at a glance'),
    h(
      'div',
      { class: 'toolbar' },
      h('label', null, 'Games ', count),
      h('label', null, 'Bot ', bot),
      h('label', null, 'First seed ', seed),
      h('label', null, 'Max moves ', maxMoves),
      run,
      stop,
    ),
    h('div', { class: 'sim-progress' }, progress, status),
    openStatus,
    results,
  );

  let worker: Worker | null = null;
  let runId = 0;
  let outcomes: GameOutcome[] = [];
  let played: Played = { def: '', text: '', bot: 'random', maxMoves: MAX_GAME_MOVES };
  let runGames = 0;
  let runFirst = 0;
  let runPlayers: readonly string[] = [];

  /**
   * The results shown are stale when the loaded definition (its JSON: a reformatted text is the
   * same one) or a setting differs from the run's: said above them, and they are dimmed. Back to
   * the run's definition and settings, they are current again.
   */
  const markStale = () => {
    const now: Array<[string, unknown, unknown]> = [
      ['Games', Number(count.value), runGames],
      ['Bot', bot.value, played.bot],
      ['First seed', Number(seed.value), runFirst],
      ['Max moves', Number(maxMoves.value), played.maxMoves],
    ];
    const changed = now.filter(([, a, b]) => a !== b).map(([name]) => name);
    const why = [host.definition() !== played.def ? 'on an earlier definition, not the one loaded now' : '', changed.length ? `with other settings (${changed.join(', ')})` : ''].filter(Boolean);
    const stale = outcomes.length > 0 && why.length > 0;
    results.classList.toggle('stale', stale);
    staleNote.hidden = !stale;
    const text = stale ? `Stale: these results were played ${why.join(', and ')}. Simulate again to update them.` : '';
    if (staleNote.textContent !== text) staleNote.textContent = text; // (a status: said again only when it changes)
  };

  /**
   * The run ends: with the engine's totals for the whole run (the worker, its engine loaded,
   * is kept for the next run), or (stopped, failed) without (it is ended, and its workers).
   */
  const finish = (text: string, result?: SimulateResult) => {
    if (!result) {
      worker?.terminate();
      worker = null;
    }
    const keyed = document.activeElement === stop;
    run.disabled = false;
    stop.disabled = true;
    if (keyed) run.focus(); // Stop is disabled now: back on Simulate, to run again
    status.textContent = text;
    void draw(true, result);
  };

  const draw = async (charts: boolean, result?: SimulateResult) => {
    // the engine's merged result when the run is whole (what the command line prints), else the games so far
    const t = result ? tallyOf(result, runPlayers) : tally(outcomes, runPlayers);
    renderTable(table, t);
    results.hidden = outcomes.length === 0;
    markStale();
    if (!charts || outcomes.length === 0) return;
    const ran = played;
    renderOdd(odd, outcomes, (o) => openGame(o, ran));
    atEnd.hidden = false;
    const { barChart } = await import('./charts.js');
    barChart(winsCanvas, [...[...t.wins.keys()].map(playerLabel), 'draws', 'unfinished', 'errors'], [...t.wins.values(), t.draws, t.unfinished, t.errors], 'games');
    const bins = lengthBins(outcomes);
    barChart(lengthCanvas, bins.map((b) => (b.from === b.to ? String(b.from) : `${b.from}–${b.to}`)), bins.map((b) => b.count), 'games');
  };

  const sayOpen = (text: string) => {
    openStatus.textContent = text;
    openStatus.hidden = text === '';
  };

  /** Opens a game of a run with that run's definition, bot and most moves (not the panel's settings now). */
  const openGame = (o: GameOutcome, ran: Played) => {
    const s = o.seed;
    const w = newWorker();
    const id = ++runId;
    // (an MCTS game is searched again move by move: as long as simulate took to play it)
    sayOpen(`Opening the game of seed ${s}…`);
    w.addEventListener('message', (e: MessageEvent<SimResponse>) => {
      if (e.data.id !== id) return;
      w.terminate();
      if (e.data.type === 'replayed') {
        const f = e.data.failed;
        const why = host.open(ran.def, ran.text, s, e.data.moves);
        if (why !== null) sayOpen(`Could not open it: ${why}`);
        else sayOpen(f ? `Opened the game of seed ${s}, up to its move that failed in the engine (${playerLabel(f.player)}: ${f.move.action ?? f.move.decision ?? 'a move'}): ${f.message}` : `Opened the game of seed ${s}.`);
      } else if (e.data.type === 'error') sayOpen(`Could not open it: ${e.data.message}`);
    });
    w.postMessage({ type: 'replay', id, definition: ran.def, seed: s, bot: ran.bot, maxMoves: ran.maxMoves, hash: o.hash } satisfies SimRequest);
  };

  run.addEventListener('click', () => {
    const def = host.definition();
    // no rounding: "2.5" games is refused, as the message says, not played as 2
    const games = Number(count.value);
    const first = Number(seed.value);
    const cap = Number(maxMoves.value);
    if (def === null) return void (status.textContent = 'Load a game first.');
    if (!(Number.isInteger(games) && games >= 1 && games <= 10000)) return void (status.textContent = 'Games: a whole number from 1 to 10000.');
    if (!(Number.isInteger(first) && first >= 0 && Number.isSafeInteger(first + games))) return void (status.textContent = 'First seed: a whole number from 0.');
    if (!(Number.isInteger(cap) && cap >= 1 && cap <= MAX_GAME_MOVES)) return void (status.textContent = `Max moves: a whole number from 1 to ${MAX_GAME_MOVES}.`);
    worker ??= newWorker();
    const id = ++runId;
    const workers = workersFor(games);
    const started = performance.now();
    outcomes = [];
    played = { def, text: host.text() ?? def, bot: bot.value as SimBot, maxMoves: cap };
    runGames = games;
    runFirst = first;
    runPlayers = host.players();
    progress.max = games;
    progress.value = 0;
    // the last run's odd games go (their Open was that run's) until this run's are known
    odd.replaceChildren();
    atEnd.hidden = true;
    const keyed = document.activeElement === run;
    run.disabled = true;
    stop.disabled = false;
    if (keyed) stop.focus(); // Simulate is disabled now: Stop is the button to press
    status.textContent = `0 / ${games} games ${onWorkers(workers)}…`;
    void draw(false);
    worker.onmessage = (e: MessageEvent<SimResponse>) => {
      const r = e.data;
      if (r.id !== id) return;
      if (r.type === 'progress') {
        // in seed order: the workers' games end in any order, and the odd games must not depend on it
        outcomes.push(...r.outcomes);
        outcomes.sort((x, y) => x.seed - y.seed);
        progress.value = outcomes.length;
        status.textContent = `${outcomes.length} / ${games} games ${onWorkers(workers)}…`;
        void draw(false);
      } else if (r.type === 'done') {
        const s = (performance.now() - started) / 1000;
        const rate = `${s.toFixed(2)} s, ${Math.round(games / s)} games/s`;
        const capped = cap < MAX_GAME_MOVES ? `, at most ${cap} moves each` : '';
        finish(`${outcomes.length} games played (${BOTS.find(([v]) => v === played.bot)![1]} bots, seeds ${first}–${first + games - 1}${capped}) ${onWorkers(workers)} in ${rate}.`, r.result);
      } else if (r.type === 'error') finish(`Stopped: ${r.message}`);
    };
    worker.onerror = (e) => finish(`Stopped: the simulation worker failed (${e.message}).`);
    worker.postMessage({ type: 'run', id, definition: def, games, bot: played.bot, seed: first, maxMoves: cap, workers } satisfies SimRequest);
  });
  stop.addEventListener('click', () => {
    runId++;
    finish(`Stopped after ${outcomes.length} games.`);
  });
  for (const input of [count, seed, maxMoves]) input.addEventListener('input', markStale);
  bot.addEventListener('change', markStale);
  return { definitionChanged: markStale };
}

function renderTable(table: HTMLElement, t: Tally): void {
  // as `rulestack simulate` prints its rates: a percentage with one decimal
  const pct = (n: number) => (t.games ? `${((100 * n) / t.games).toFixed(1)}%` : '–');
  const row = (label: string, n: number, key: string) =>
    h('tr', { 'data-row': key }, h('th', { scope: 'row' }, label), h('td', { class: 'n', 'data-count': String(n) }, String(n)), h('td', { class: 'pct' }, pct(n)));
  table.replaceChildren(
    h('caption', null, 'Games ', h('strong', { id: 'sim-games' }, String(t.games)), `, ${t.meanLength.toFixed(2)} moves on average`),
    h('thead', null, h('tr', null, h('th', { scope: 'col' }, 'outcome'), h('th', { scope: 'col' }, 'games'), h('th', { scope: 'col' }, 'share'))),
    h(
      'tbody',
      null,
      ...[...t.wins].map(([p, n]) => row(`${playerLabel(p)} wins`, n, `win:${p}`)),
      row('draws', t.draws, 'draws'),
      row('unfinished', t.unfinished, 'unfinished'),
      row('engine errors', t.errors, 'errors'),
    ),
  );
}

function outcomeText(o: GameOutcome): string {
  if (o.error !== undefined) return `engine error: ${o.error}`;
  if (o.winner !== null) return `${playerLabel(o.winner)} won`;
  return o.draw ? 'draw' : 'unfinished';
}

/** The odd games, each with Open (the game replayed on the board, see simulate-replay.ts). */
function renderOdd(list: HTMLElement, outcomes: GameOutcome[], open: (o: GameOutcome) => void): void {
  const items = oddGames(outcomes).map(({ why, outcome: o }) => {
    // (simulate counts no moves of a game that failed)
    const li = h('li', { 'data-why': why }, h('strong', null, why), ` — seed ${o.seed}, ${o.error === undefined ? `${o.length} moves, ` : ''}${outcomeText(o)}`);
    const btn = h('button', { type: 'button', class: 'sim-open', 'data-seed': String(o.seed) }, 'Open');
    btn.addEventListener('click', () => open(o));
    li.append(' ', btn);
    return li;
  });
  list.replaceChildren(...items);
}
