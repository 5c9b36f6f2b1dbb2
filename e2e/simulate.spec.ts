// Balance at a glance (issue 14): the Simulate panel plays N bot-vs-bot games in a worker,
// counts them (the same counts node gets from the same games), draws the charts, and opens an
// odd game on the board, move for move.
import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { loadEngine } from '../dist/index.js';
import type { Rulestack } from '../dist/index.js';
import { playOut, type GameOutcome } from '../web/playground/simulate-game.js';
import { oddGames, tally } from '../web/playground/simulate-stats.js';
import { failOnPageErrors } from './page-errors.js';
import { open } from './playground-page.js';

failOnPageErrors();

/** How many pixels of a canvas something was drawn on. */
const inked = (id: string) =>
  `(() => { const c = document.getElementById('${id}'); const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0; for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++; return n; })()`;

test('Simulate 20 random games of tic-tac-toe: 20 counted as node counts them, charts drawn, the longest game opens', async ({ page }) => {
  await open(page);
  await expect(page.locator('#sim-results')).toBeHidden();
  await page.locator('#sim-count').fill('20');
  await page.locator('#sim-bot').selectOption('random');
  await page.locator('#sim-seed').fill('5');
  await page.locator('#sim-run').click();
  await expect(page.locator('#sim-status')).toHaveText('20 games played (Random bots, seeds 5–24).', { timeout: 30_000 });
  await expect(page.locator('#sim-progress')).toHaveJSProperty('value', 20);
  await expect(page.locator('#sim-progress')).toHaveJSProperty('max', 20);
  await expect(page.locator('#sim-games')).toHaveText('20');
  await expect(page.locator('#sim-run')).toBeEnabled();
  await expect(page.locator('#sim-stop')).toBeDisabled();

  // the same games in node, through the same code (simulate-game.ts) and the package
  const rs = (await loadEngine()) as unknown as Rulestack;
  const g = rs.createGame(await readFile(new URL('../examples/tictactoe.yaml', import.meta.url), 'utf8'), { seed: 0 });
  const definition = g.definitionJson;
  g.dispose();
  const outcomes: GameOutcome[] = [];
  for (let s = 5; s < 25; s++) outcomes.push(playOut(rs, definition, s, 'random'));
  const t = tally(outcomes, ['0', '1']);
  const cell = (row: string) => page.locator(`#sim-table tr[data-row="${row}"] td.n`);
  await expect(cell('win:0')).toHaveText(String(t.wins.get('0')));
  await expect(cell('win:1')).toHaveText(String(t.wins.get('1')));
  await expect(cell('draws')).toHaveText(String(t.draws));
  await expect(cell('unfinished')).toHaveText('0');
  await expect(cell('errors')).toHaveText('0');
  const counts = await page.locator('#sim-table td.n').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-count'))));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(20);
  expect(t.wins.get('0')! + t.wins.get('1')! + t.draws).toBe(20);

  // two charts, drawn (Chart.js on a canvas)
  for (const id of ['sim-wins-chart', 'sim-length-chart']) {
    await expect(page.locator(`canvas#${id}`)).toBeVisible();
    expect(await page.evaluate(inked(id))).toBeGreaterThan(100);
  }

  // the odd games: the longest, the shortest, then the first draws, each once, with its seed
  const odd = oddGames(outcomes);
  expect(odd.map((o) => o.why).slice(0, 2)).toEqual(['longest', 'shortest']);
  await expect(page.locator('#sim-odd li')).toHaveText(
    odd.map(({ why, outcome: o }) => `${why} — seed ${o.seed}, ${o.length} moves, ${o.winner !== null ? `Player ${o.winner} won` : 'draw'} Open`),
  );
  const longest = odd[0]!.outcome;
  expect(longest.length).toBe(Math.max(...outcomes.map((o) => o.length)));
  const row = page.locator('#sim-odd li[data-why="longest"]');

  // Open: the board shows that game, replayed from its seed, one log group per move
  await row.getByRole('button', { name: 'Open' }).click();
  await expect(page.locator('#seed-used')).toHaveText(`seed ${longest.seed}`);
  await expect(page.locator('#log .log-group')).toHaveCount(longest.length + 1); // + the setup
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

test('Simulate: Stop ends a run with the games so far; a bad count is refused with a reason', async ({ page }) => {
  await open(page);
  await page.locator('#game-picker').selectOption('nexus.yaml');
  await page.locator('#sim-count').fill('0');
  await page.locator('#sim-run').click();
  await expect(page.locator('#sim-status')).toHaveText('Games: a whole number from 1 to 10000.');
  await page.locator('#sim-count').fill('500');
  await page.locator('#sim-run').click();
  await expect(page.locator('#sim-stop')).toBeEnabled();
  await expect(page.locator('#sim-status')).toHaveText(/^[1-9]\d* \/ 500 games…$/, { timeout: 30_000 });
  await page.locator('#sim-stop').click();
  await expect(page.locator('#sim-status')).toHaveText(/^Stopped after [1-9]\d* games\.$/);
  const n = Number((await page.locator('#sim-status').textContent())!.match(/\d+/)![0]);
  expect(n).toBeLessThan(500);
  await expect(page.locator('#sim-games')).toHaveText(String(n));
  await expect(page.locator('#sim-run')).toBeEnabled();
});

test('Simulate with an MCTS level: the bots are rs.bot at that level, the same games as in node', async ({ page }) => {
  await open(page);
  await page.locator('#sim-count').fill('3');
  await page.locator('#sim-bot').selectOption('easy');
  await page.locator('#sim-run').click();
  await expect(page.locator('#sim-status')).toHaveText('3 games played (Easy (MCTS) bots, seeds 1–3).', { timeout: 60_000 });
  const rs = (await loadEngine()) as unknown as Rulestack;
  const g = rs.createGame(await readFile(new URL('../examples/tictactoe.yaml', import.meta.url), 'utf8'), { seed: 0 });
  const definition = g.definitionJson;
  g.dispose();
  const outcomes = [1, 2, 3].map((s) => playOut(rs, definition, s, 'easy'));
  const t = tally(outcomes, ['0', '1']);
  await expect(page.locator('#sim-table tr[data-row="win:0"] td.n')).toHaveText(String(t.wins.get('0')));
  await expect(page.locator('#sim-table tr[data-row="win:1"] td.n')).toHaveText(String(t.wins.get('1')));
  await expect(page.locator('#sim-table tr[data-row="draws"] td.n')).toHaveText(String(t.draws));
  await expect(page.locator('#sim-table caption')).toHaveText(`Games 3, ${t.meanLength.toFixed(1)} moves on average`);
});
