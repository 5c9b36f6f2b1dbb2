// Balance at a glance (issue 14): the Simulate panel plays N bot-vs-bot games in a worker
// through the package's own simulate, spread over one worker a core the browser reports (here
// forced: navigator.hardwareConcurrency is set by an init script), so its figures are
// `rulestack simulate`'s for the same seed and count whatever the workers (the command line is
// run here to compare); it draws the charts, lists the odd games by seed and opens any of
// them (random bots or an MCTS level) on the board, move for move; results of an earlier
// definition or other settings are marked stale until it runs again.
import { test, expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SOMETIMES_ERROR_YAML } from '../dist/test/fixtures.js';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../dist/index.js';
import type { Rulestack } from '../dist/index.js';
import { outcomeOf, type GameOutcome } from '../web/playground/simulate-game.js';
import { oddGames } from '../web/playground/simulate-stats.js';
import { seriousViolations } from './axe.js';
import { failOnPageErrors } from './page-errors.js';
import { editorText, setEditorText } from './editor-helpers.js';
import { open, move } from './playground-page.js';

failOnPageErrors();

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** How many pixels of a canvas something was drawn on. */
const inked = (id: string) =>
  `(() => { const c = document.getElementById('${id}'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; })()`;

interface CliResult {
  games: number;
  meanLength: number;
  wins: Record<string, number>;
  winRates: Record<string, number>;
  draws: number;
  drawRate: number;
  unfinished: number;
  errors: number;
  errorDetails: Array<{ game: number; seed: number; message: string }>;
}

/** `rulestack simulate FILE --games N --seed S --bot B --json [more]`, run as a user runs it (FILE: an example's name, or a path). */
function cli(file: string, games: number, seed: number, bot: string, ...more: string[]): CliResult {
  const args = ['bin/rulestack.mjs', 'simulate', path.isAbsolute(file) ? file : `examples/${file}`, '--games', String(games), '--seed', String(seed), '--bot', bot, '--json', ...more];
  try {
    return JSON.parse(execFileSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' })) as CliResult;
  } catch (e) {
    // it exits 1 when a game ended in an engine error, and still prints its figures
    const out = (e as { stdout?: string }).stdout;
    if (!out) throw e;
    return JSON.parse(out) as CliResult;
  }
}

/** The browser reports `n` cores (set before the page's scripts run; workers see their own navigator). */
async function cores(page: Page, n: number): Promise<void> {
  await page.addInitScript(`Object.defineProperty(Navigator.prototype, 'hardwareConcurrency', { configurable: true, get: () => ${n} })`);
}

/** The simulate workers running now: the panel's, and the package's it starts when a run has more than one worker. */
const simWorkers = (page: Page) => page.workers().filter((w) => /\/simulate-worker-[\w-]+\.js$/.test(w.url())).length;

const row = (page: Page, key: string) => page.locator(`#sim-table tr[data-row="${key}"]`);

/** The table shows the command line's counts and rates (one decimal, as it prints them), and its mean length. */
async function expectFigures(page: Page, c: CliResult): Promise<void> {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  for (const p of Object.keys(c.wins)) {
    await expect(row(page, `win:${p}`).locator('td.n')).toHaveText(String(c.wins[p]));
    await expect(row(page, `win:${p}`).locator('td.pct')).toHaveText(pct(c.winRates[p]!));
  }
  await expect(row(page, 'draws').locator('td.n')).toHaveText(String(c.draws));
  await expect(row(page, 'draws').locator('td.pct')).toHaveText(pct(c.drawRate));
  await expect(row(page, 'unfinished').locator('td.n')).toHaveText(String(c.unfinished));
  await expect(row(page, 'errors').locator('td.n')).toHaveText(String(c.errors));
  await expect(page.locator('#sim-table caption')).toHaveText(`Games ${c.games}, ${c.meanLength.toFixed(2)} moves on average`);
}

/** Runs the panel: N games of the loaded game with this bot from this first seed, to the end, on this many workers. */
async function simulate(page: Page, games: number, bot: string, seed: number, botName: string, timeout: number, workers = 2, maxMoves?: number): Promise<void> {
  await page.locator('#sim-count').fill(String(games));
  await page.locator('#sim-bot').selectOption(bot);
  await page.locator('#sim-seed').fill(String(seed));
  if (maxMoves !== undefined) await page.locator('#sim-max-moves').fill(String(maxMoves));
  await page.locator('#sim-run').click();
  const on = `on ${workers} worker${workers === 1 ? '' : 's'}`;
  const capped = maxMoves !== undefined ? `, at most ${maxMoves} moves each` : '';
  await expect(page.locator('#sim-status')).toHaveText(new RegExp(`^${games} games played \\(${botName.replace(/[()]/g, '\\$&')} bots, seeds ${seed}–${seed + games - 1}${capped}\\) ${on} in \\d+\\.\\d\\d s, \\d+ games/s\\.$`), { timeout });
  await expect(page.locator('#sim-progress')).toHaveJSProperty('value', games);
  await expect(page.locator('#sim-progress')).toHaveJSProperty('max', games);
  await expect(page.locator('#sim-run')).toBeEnabled();
  await expect(page.locator('#sim-stop')).toBeDisabled();
}

/** The charts are there and drawn (Chart.js on a canvas). */
async function expectCharts(page: Page): Promise<void> {
  for (const id of ['sim-wins-chart', 'sim-length-chart']) {
    await expect(page.locator(`canvas#${id}`)).toBeVisible();
    await expect.poll(() => page.evaluate(inked(id))).toBeGreaterThan(100);
  }
}

/**
 * The panel lists the odd games of these games as each is when the package's simulate plays
 * it alone (game i is seed `first + i` whatever the batch or the worker): the longest, the
 * shortest, then the first draws, each once, with its seed.
 */
async function expectOddGames(page: Page, file: string, first: number, games: number, bot = 'random'): Promise<{ outcomes: GameOutcome[]; odd: ReturnType<typeof oddGames> }> {
  const rs = (await loadEngine()) as unknown as Rulestack;
  const text = await readFile(new URL(`../examples/${file}`, import.meta.url), 'utf8');
  const outcomes: GameOutcome[] = [];
  for (let s = first; s < first + games; s++) outcomes.push(outcomeOf(rs.simulate(text, { games: 1, seed: s, hashes: true, bot: bot as 'random' }), s));
  const odd = oddGames(outcomes);
  expect(odd.map((o) => o.why).slice(0, 2)).toEqual(['longest', 'shortest']);
  const result = (o: GameOutcome) => (o.winner !== null ? `Player ${o.winner} won` : o.draw ? 'draw' : 'unfinished');
  await expect(page.locator('#sim-odd li')).toHaveText(odd.map(({ why, outcome: o }) => `${why} — seed ${o.seed}, ${o.length} moves, ${result(o)} Open`));
  return { outcomes, odd };
}

/** The URLs of the simulate workers the page starts from now on. */
function simWorkersStarted(page: Page): string[] {
  const urls: string[] = [];
  page.on('worker', (w) => {
    if (/\/simulate-worker-[\w-]+\.js$/.test(w.url())) urls.push(w.url());
  });
  return urls;
}

test('Simulate 200 Duel games on 2 cores: 2 workers, the charts appear and the win rates are those of `rulestack simulate`', async ({ page }) => {
  test.setTimeout(120_000);
  const expected = cli('duel.yaml', 200, 7, 'random');
  expect(expected.games).toBe(200);
  await cores(page, 2);
  const started = simWorkersStarted(page);
  await open(page);
  await page.locator('#game-picker').selectOption('duel.yaml');
  await expect(page.locator('#sum-game')).toHaveText('Duel');
  const reports: number[] = [];
  await page.exposeFunction('progressSeen', (v: number) => reports.push(v));
  await page.evaluate(() => {
    const bar = document.getElementById('sim-progress') as HTMLProgressElement;
    new MutationObserver(() => (window as unknown as { progressSeen(v: number): void }).progressSeen(bar.value)).observe(bar, { attributes: true });
  });
  await simulate(page, 200, 'random', 7, 'Random', 90_000);
  await expectFigures(page, expected);
  await expectCharts(page);
  // each game's outcome came back from its worker: the odd games (in seed order, whichever worker ended first)
  await expectOddGames(page, 'duel.yaml', 7, 200);
  // the bar moved on as the games came in, not only at the end
  expect(new Set(reports.filter((v) => v > 0 && v < 200)).size).toBeGreaterThan(0);
  // the panel's worker and the package's two it started, all kept for the next run
  expect(started).toHaveLength(3);
  expect(new Set(started).size).toBe(2); // two scripts: the panel's worker, the package's
  expect(simWorkers(page)).toBe(3);
  // a second run: the same figures, from the same three workers (none started)
  await simulate(page, 200, 'random', 7, 'Random', 90_000);
  await expectFigures(page, expected);
  expect(started).toHaveLength(3);
  expect(simWorkers(page)).toBe(3);
});

test('Simulate 200 Duel games on 1 core: 1 worker (the panel’s own), the same figures', async ({ page }) => {
  test.setTimeout(120_000);
  await cores(page, 1);
  const started = simWorkersStarted(page);
  await open(page);
  await page.locator('#game-picker').selectOption('duel.yaml');
  await expect(page.locator('#sum-game')).toHaveText('Duel');
  await simulate(page, 200, 'random', 7, 'Random', 90_000, 1);
  await expectFigures(page, cli('duel.yaml', 200, 7, 'random'));
  expect(started).toHaveLength(1);
});

test('Simulate 20 random games of tic-tac-toe on 6 workers: the engine’s games, the odd ones by seed; the longest opens move for move', async ({ page }) => {
  // six games at a time on this machine's cores: they end out of seed order
  await cores(page, 6);
  await open(page);
  await expect(page.locator('#sim-results')).toBeHidden();
  await simulate(page, 20, 'random', 5, 'Random', 30_000, 6);
  await expectFigures(page, cli('tictactoe.yaml', 20, 5, 'random'));
  const counts = await page.locator('#sim-table td.n').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-count'))));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(20);
  await expectCharts(page);

  const { outcomes, odd } = await expectOddGames(page, 'tictactoe.yaml', 5, 20);
  const longest = odd[0]!.outcome;
  expect(longest.length).toBe(Math.max(...outcomes.map((o) => o.length)));

  // Open: the board shows that game, replayed from its seed, one log group per move, ending in simulate's final state
  await page.locator('#sim-odd li[data-why="longest"]').getByRole('button', { name: 'Open' }).click();
  await expect(page.locator('#seed-used')).toHaveText(`seed ${longest.seed}`);
  await expect(page.locator('#log .log-group')).toHaveCount(longest.length + 1); // + the setup
  await expect(page.locator('#hash')).toHaveText(longest.hash!);
  await expect(page.locator('#result')).toHaveText(longest.winner !== null ? `Player ${longest.winner} wins` : 'Draw');
  await expect(page.locator('#mode')).toHaveValue('hotseat');
  await expect(page.locator('#moves')).toBeFocused(); // the game is over: the focus is on the moves panel that says so
  await expect(page.locator('#moves')).toContainText('Game over');
  await expect(page.locator('#message')).toHaveText(`Opened simulated game, seed ${longest.seed}: ${longest.length} moves. Undo steps back through it.`);
  // undo steps back into it
  await page.locator('#undo').click();
  await expect(page.locator('#log .log-group')).toHaveCount(longest.length);
  await expect(page.locator('#result')).toHaveText('in progress');
});

test('Simulate with Max moves: a game still on after them is unfinished, as `rulestack simulate --max-moves` counts it; one opens at that move', async ({ page }) => {
  await cores(page, 2);
  await open(page);
  await page.locator('#sim-max-moves').fill('0');
  await page.locator('#sim-run').click();
  await expect(page.locator('#sim-status')).toHaveText('Max moves: a whole number from 1 to 100000.');
  const expected = cli('tictactoe.yaml', 20, 5, 'random', '--max-moves', '6');
  expect(expected.unfinished).toBeGreaterThan(0);
  expect(expected.unfinished).toBeLessThan(20);
  await simulate(page, 20, 'random', 5, 'Random', 30_000, 2, 6);
  await expectFigures(page, expected);
  // the longest games are those stopped at move 6: the first of them opens, at its sixth move
  const longest = page.locator('#sim-odd li[data-why="longest"]');
  await expect(longest).toContainText(', 6 moves, unfinished');
  const s = await longest.locator('button.sim-open').getAttribute('data-seed');
  await longest.getByRole('button', { name: 'Open' }).click();
  await expect(page.locator('#sim-open-status')).toHaveText(`Opened the game of seed ${s}.`);
  await expect(page.locator('#log .log-group')).toHaveCount(7); // + the setup
  await expect(page.locator('#result')).toHaveText('in progress');
});

test('Simulate: Stop ends a run with the games so far and its workers; the panel runs again; a bad count is refused with a reason', async ({ page }) => {
  test.setTimeout(90_000);
  await cores(page, 2);
  await open(page);
  await page.locator('#game-picker').selectOption('nexus.yaml');
  await page.locator('#sim-count').fill('0');
  await page.locator('#sim-run').click();
  await expect(page.locator('#sim-status')).toHaveText('Games: a whole number from 1 to 10000.');
  await page.locator('#sim-count').fill('500');
  await page.locator('#sim-run').press('Enter'); // from the keyboard: the focus goes to Stop, and back when it is pressed
  await expect(page.locator('#sim-stop')).toBeEnabled();
  await expect(page.locator('#sim-stop')).toBeFocused();
  await expect(page.locator('#sim-status')).toHaveText(/^[1-9]\d* \/ 500 games on 2 workers…$/, { timeout: 30_000 });
  expect(simWorkers(page)).toBe(3); // the panel's and the package's two
  await page.locator('#sim-stop').press('Enter');
  await expect(page.locator('#sim-status')).toHaveText(/^Stopped after [1-9]\d* games\.$/);
  await expect(page.locator('#sim-run')).toBeFocused();
  const n = Number((await page.locator('#sim-status').textContent())!.match(/\d+/)![0]);
  expect(n).toBeLessThan(500);
  await expect(page.locator('#sim-games')).toHaveText(String(n));
  await expect(page.locator('#sim-run')).toBeEnabled();
  await expect(page.locator('#sim-stop')).toBeDisabled();
  // every worker of the run ended, and nothing more comes in
  await expect.poll(() => simWorkers(page)).toBe(0);
  await page.waitForTimeout(1000);
  await expect(page.locator('#sim-progress')).toHaveJSProperty('value', n);
  await expect(page.locator('#sim-games')).toHaveText(String(n));
  await expect(page.locator('#sim-status')).toHaveText(`Stopped after ${n} games.`);
  // the panel runs again, to the command line's figures, and a game of it opens
  await page.locator('#sim-run').focus(); // a run that ends by itself gives the focus back to Simulate too
  await simulate(page, 6, 'random', 3, 'Random', 60_000);
  await expect(page.locator('#sim-run')).toBeFocused();
  await expectFigures(page, cli('nexus.yaml', 6, 3, 'random'));
  const shortest = page.locator('#sim-odd li[data-why="shortest"] button.sim-open');
  const s = await shortest.getAttribute('data-seed');
  await shortest.click();
  await expect(page.locator('#sim-open-status')).toHaveText(`Opened the game of seed ${s}.`);
  await expect(page.locator('#seed-used')).toHaveText(`seed ${s}`);
});

test('Simulate with an MCTS level: the engine’s MCTS bots at that level, the command line’s figures; a game of theirs opens', async ({ page }) => {
  test.setTimeout(90_000);
  await cores(page, 2);
  await open(page);
  await simulate(page, 3, 'easy', 1, 'Easy (MCTS)', 60_000);
  await expectFigures(page, cli('tictactoe.yaml', 3, 1, 'easy'));
  const { odd } = await expectOddGames(page, 'tictactoe.yaml', 1, 3, 'easy');
  // Open: the package's bot at that level, seeded as the engine seeded each move, plays the game again
  const longest = odd[0]!.outcome;
  await page.locator('#sim-odd li[data-why="longest"]').getByRole('button', { name: 'Open' }).click();
  await expect(page.locator('#sim-open-status')).toHaveText(`Opened the game of seed ${longest.seed}.`);
  await expect(page.locator('#seed-used')).toHaveText(`seed ${longest.seed}`);
  await expect(page.locator('#log .log-group')).toHaveCount(longest.length + 1); // + the setup
  await expect(page.locator('#hash')).toHaveText(longest.hash!);
});

test('Simulate a game whose rules sometimes fail: the engine errors counted as the command line counts them; one opens up to its failing move', async ({ page }) => {
  const dir = mkdtempSync(path.join(tmpdir(), 'rulestack-sim-'));
  let expected: CliResult;
  try {
    writeFileSync(path.join(dir, 'sometimes.yaml'), SOMETIMES_ERROR_YAML);
    expected = cli(path.join(dir, 'sometimes.yaml'), 10, 1, 'random');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(expected.errors).toBeGreaterThan(0);
  await cores(page, 2);
  await open(page);
  await setEditorText(page, SOMETIMES_ERROR_YAML);
  await page.locator('#load').click();
  await expect(page.locator('#sum-game')).toHaveText('Sometimes');
  await simulate(page, 10, 'random', 1, 'Random', 30_000);
  await expectFigures(page, expected);
  // the failed games, by seed, with the engine's message (and no count of moves: simulate counts none)
  const failed = page.locator('#sim-odd li[data-why="engine error"]');
  const listed = expected.errorDetails.slice(0, 3);
  await expect(failed).toHaveText(listed.map((e) => `engine error — seed ${e.seed}, engine error: ${e.message} Open`));
  // Open: the game up to the move that failed, which the page offers and refuses as a game error
  await failed.first().getByRole('button', { name: 'Open' }).click();
  await expect(page.locator('#sim-open-status')).toHaveText(new RegExp(`^Opened the game of seed ${listed[0]!.seed}, up to its move that failed in the engine \\(Player [01]: Hit\\): /actions/0/mutations/0: destination is not a zone$`));
  await expect(page.locator('#seed-used')).toHaveText(`seed ${listed[0]!.seed}`);
  await expect(page.locator('#result')).toHaveText('in progress');
  await move(page, 'Hit').click();
  await expect(page.locator('#message')).toHaveClass(/game-error/);
  await expect(page.locator('#message')).toContainText('destination is not a zone');
});

test('Simulate: Open with edits in the editor that are not loaded replays the definition simulated, and the edits stay', async ({ page }) => {
  await cores(page, 2);
  await open(page);
  await simulate(page, 6, 'random', 1, 'Random', 30_000);
  const { odd } = await expectOddGames(page, 'tictactoe.yaml', 1, 6);
  const longest = odd[0]!.outcome;
  const edited = `${(await readFile(new URL('../examples/tictactoe.yaml', import.meta.url), 'utf8')).replace(/^name: .*$/m, 'name: Edited')}# not loaded yet\n`;
  await setEditorText(page, edited);
  await page.locator('#sim-odd li[data-why="longest"]').getByRole('button', { name: 'Open' }).click();
  await expect(page.locator('#sim-open-status')).toHaveText(`Opened the game of seed ${longest.seed}.`);
  await expect(page.locator('#sum-game')).toHaveText('Tic-tac-toe');
  await expect(page.locator('#seed-used')).toHaveText(`seed ${longest.seed}`);
  await expect(page.locator('#log .log-group')).toHaveCount(longest.length + 1); // + the setup
  await expect(page.locator('#hash')).toHaveText(longest.hash!);
  await expect(page.locator('#message')).toHaveText(`Opened simulated game, seed ${longest.seed}: ${longest.length} moves, of the definition simulated (the editor’s text, another, is not loaded). Undo steps back through it.`);
  expect(await editorText(page)).toBe(edited);
  await expect(page.locator('#sim-stale')).toBeHidden(); // the results are the loaded game's again
  // the edits are the editor's still: Load plays them
  await page.locator('#load').click();
  await expect(page.locator('#sum-game')).toHaveText('Edited');
});

test('Simulate: Open after another definition was loaded opens the game of the definition simulated; the editor keeps its text', async ({ page }) => {
  await cores(page, 2);
  await open(page, '?botDelay=0');
  await simulate(page, 6, 'random', 1, 'Random', 30_000);
  const { odd } = await expectOddGames(page, 'tictactoe.yaml', 1, 6);
  const longest = odd[0]!.outcome;
  // another definition, and a game of it in progress against the bot
  const text = (await readFile(new URL('../examples/tictactoe.yaml', import.meta.url), 'utf8')).replace(/^name: .*$/m, 'name: Changed');
  await setEditorText(page, text);
  await page.locator('#mode').selectOption('bot');
  await page.locator('#bot-strength').selectOption('random');
  await page.locator('#seed').fill('77');
  await page.locator('#load').click();
  await move(page, 'Mark → C').click();
  await expect(page.locator('#log .log-group')).toHaveCount(3, { timeout: 10_000 }); // setup, C, the bot's reply
  await expect(page.locator('#sim-stale')).toBeVisible();

  await page.locator('#sim-odd li[data-why="longest"]').getByRole('button', { name: 'Open' }).click();
  await expect(page.locator('#sim-open-status')).toHaveText(`Opened the game of seed ${longest.seed}.`);
  await expect(page.locator('#sum-game')).toHaveText('Tic-tac-toe');
  await expect(page.locator('#hash')).toHaveText(longest.hash!);
  await expect(page.locator('#mode')).toHaveValue('hotseat');
  await expect(page.locator('#seed')).toHaveValue(String(longest.seed));
  expect(await editorText(page)).toBe(text);
  await expect(page.locator('#sim-stale')).toBeHidden();
});

test('Simulate: a new run hides the last run’s charts and odd games until it ends; an odd game opens with the bot and Max moves its run played it with', async ({ page }) => {
  test.setTimeout(120_000);
  await cores(page, 2);
  await open(page);
  await simulate(page, 20, 'random', 5, 'Random', 30_000);
  await expect(page.locator('#sim-odd li')).not.toHaveCount(0);
  // a second run, long enough to look at (easy MCTS bots): none of the first run's odd games or charts meanwhile
  await page.locator('#sim-count').fill('1000');
  await page.locator('#sim-bot').selectOption('easy');
  await page.locator('#sim-run').click();
  await expect(page.locator('#sim-status')).toHaveText(/^[1-9]\d* \/ 1000 games on 2 workers…$/, { timeout: 30_000 });
  await expect(page.locator('#sim-results')).toBeVisible();
  await expect(page.locator('#sim-odd li')).toHaveCount(0);
  await expect(page.locator('#sim-at-end')).toBeHidden();
  await page.locator('#sim-stop').click();
  await expect(page.locator('#sim-status')).toHaveText(/^Stopped after [1-9]\d* games\.$/);
  await expect(page.locator('#sim-at-end')).toBeVisible();

  // the panel now says Random, at most 2 moves: the stopped run's game still opens as easy bots played it, to its end
  await page.locator('#sim-bot').selectOption('random');
  await page.locator('#sim-max-moves').fill('2');
  const longest = page.locator('#sim-odd li[data-why="longest"] button.sim-open');
  const s = Number(await longest.getAttribute('data-seed'));
  const rs = (await loadEngine()) as unknown as Rulestack;
  const text = await readFile(new URL('../examples/tictactoe.yaml', import.meta.url), 'utf8');
  const game = outcomeOf(rs.simulate(text, { games: 1, seed: s, hashes: true, bot: 'easy' }), s);
  expect(game.length).toBeGreaterThan(2);
  await longest.click();
  await expect(page.locator('#sim-open-status')).toHaveText(`Opened the game of seed ${s}.`, { timeout: 30_000 });
  await expect(page.locator('#seed-used')).toHaveText(`seed ${s}`);
  await expect(page.locator('#log .log-group')).toHaveCount(game.length + 1); // + the setup
  await expect(page.locator('#hash')).toHaveText(game.hash!);
});

test('Simulate: what Open said stays shown while another run goes on and after it, a failure too', async ({ page }) => {
  test.setTimeout(60_000);
  // a replay that cannot match: the hash the page asks the replay to reach is changed on its way to the worker
  await page.addInitScript(() => {
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
      const m = message as { type?: string; hash?: string } | null;
      if (m && m.type === 'replay') message = { ...m, hash: '0000000000000000' };
      return (post as (...a: unknown[]) => void).call(this, message, ...rest);
    } as typeof Worker.prototype.postMessage;
  });
  await cores(page, 2);
  await open(page);
  await simulate(page, 6, 'random', 1, 'Random', 30_000);
  const hash = await page.locator('#hash').textContent();
  const s = await page.locator('#sim-odd li[data-why="longest"] button.sim-open').getAttribute('data-seed');
  await page.locator('#sim-odd li[data-why="longest"]').getByRole('button', { name: 'Open' }).click();
  const failed = page.locator('#sim-open-status');
  const why = new RegExp(`^Could not open it: the replay of seed ${s} ends in state [0-9a-f]{16}, simulate's in 0000000000000000$`);
  await expect(failed).toHaveText(why);
  await expect(failed).toHaveAttribute('role', 'status');
  // another run: its status is its own, the failure is still said, and the game on the page was never touched
  await simulate(page, 6, 'random', 2, 'Random', 30_000);
  await expect(failed).toBeVisible();
  await expect(failed).toHaveText(why);
  await expect(page.locator('#hash')).toHaveText(hash!);
});

test('Simulate refuses a Games or First seed that is not a whole number, with its reason, and plays nothing', async ({ page }) => {
  await open(page);
  await page.locator('#sim-count').fill('2.5');
  await page.locator('#sim-run').click();
  await expect(page.locator('#sim-status')).toHaveText('Games: a whole number from 1 to 10000.');
  await page.locator('#sim-count').fill('2');
  await page.locator('#sim-seed').fill('1.5');
  await page.locator('#sim-run').click();
  await expect(page.locator('#sim-status')).toHaveText('First seed: a whole number from 0.');
  await expect(page.locator('#sim-run')).toBeEnabled();
  await expect(page.locator('#sim-results')).toBeHidden();
});

test('Simulate: its results are marked stale once another definition is loaded or a setting changed, and no longer when the same definition and settings are back or it runs again', async ({ page }) => {
  test.setTimeout(60_000);
  await cores(page, 2);
  await open(page);
  await simulate(page, 6, 'random', 1, 'Random', 30_000);
  const note = page.locator('#sim-stale');
  const results = page.locator('#sim-results');
  const current = async () => {
    await expect(note).toBeHidden();
    await expect(results).not.toHaveClass(/\bstale\b/);
    await expect(page.locator('#sim-wins-chart')).toHaveCSS('opacity', '1');
  };
  const stale = async (text: string) => {
    await expect(note).toHaveText(`Stale: these results were played ${text}. Simulate again to update them.`);
    await expect(note).toHaveAttribute('role', 'status');
    await expect(results).toHaveClass(/\bstale\b/);
    await expect(page.locator('#sim-wins-chart')).not.toHaveCSS('opacity', '1'); // dimmed
  };
  await current();
  const figures = await page.locator('#sim-table').textContent();

  // the definition edited and loaded: the results shown are the earlier one's
  const text = (await readFile(new URL('../examples/tictactoe.yaml', import.meta.url), 'utf8')).replace(/^name: .*$/m, 'name: Changed');
  await setEditorText(page, text);
  await page.locator('#load').click();
  await expect(page.locator('#sum-game')).toHaveText('Changed');
  await stale('on an earlier definition, not the one loaded now');
  await expect(page.locator('#sim-table')).toHaveText(figures!); // still there, to compare
  expect(await seriousViolations(page, '#simulate')).toEqual([]);
  // back to the definition they were played on (Revert: the example as shipped): current again
  await page.locator('#revert').click();
  await expect(page.locator('#sum-game')).toHaveText('Tic-tac-toe');
  await current();

  // a setting other than the run's, then back
  await page.locator('#sim-seed').fill('2');
  await stale('with other settings (First seed)');
  await page.locator('#sim-seed').fill('1');
  await current();
  await page.locator('#sim-bot').selectOption('easy');
  await page.locator('#sim-count').fill('7');
  await stale('with other settings (Games, Bot)');
  // and another game: both said
  await page.locator('#game-picker').selectOption('duel.yaml');
  await expect(page.locator('#sum-game')).toHaveText('Duel');
  await stale('on an earlier definition, not the one loaded now, and with other settings (Games, Bot)');

  // a run clears the mark: these results are the loaded game's
  await simulate(page, 6, 'random', 1, 'Random', 30_000);
  await expectFigures(page, cli('duel.yaml', 6, 1, 'random'));
  await current();
});
