// Issue 14's first showing: the static build under a subpath, a whole Duel against the bot
// played by clicks only, and in the middle of it the network goes: a reload is served by the
// service worker and brings the game back (persist.ts), which is then played to its end.
import { test, expect, type Page } from '@playwright/test';
import { failOnPageErrors } from './page-errors.js';
import { openAt, serviceWorkerActive } from './shell-helpers.js';
import { buildCopies } from './static-server.js';

failOnPageErrors();

const build = buildCopies();

const over = (page: Page) => page.locator('#result.over');
const myMoves = (page: Page) => page.locator('#moves button.move[data-player="0"]');

/**
 * Waits until the human may move (the bot has answered) or the game is over; then clicks a
 * card to play if there is one, else the first move (Pass). False once the game is over.
 */
async function clickOnce(page: Page): Promise<boolean> {
  await expect(over(page).or(myMoves(page).first())).toBeVisible({ timeout: 15_000 });
  if (await over(page).count()) return false;
  const hash = await page.locator('#hash').textContent();
  const action = myMoves(page).and(page.locator('.action'));
  await ((await action.count()) ? action.first() : myMoves(page).first()).click();
  await expect(page.locator('#hash')).not.toHaveText(hash!); // the click was a move
  return true;
}

test('a whole Duel against the bot by clicks, under a subpath, with a reload offline half-way', async ({ page, context }) => {
  test.setTimeout(240_000);
  const server = await build.serve('/games/rulestack/');
  await openAt(page, `${server.url}?botDelay=0`);
  expect(await serviceWorkerActive(page)).toBe(`${server.url}sw.js`);
  await page.locator('#mode').selectOption('bot');
  await page.locator('#bot-strength').selectOption('random');
  await page.locator('#seed').fill('11');
  await page.locator('#game-picker').selectOption('duel.yaml');
  await expect(page.locator('#sum-game')).toHaveText('Duel');
  await expect(page.locator('#seed-used')).toHaveText('seed 11');
  await expect(page.locator('#to-act')).toHaveText('Player 0 (you)');

  // the first half: until turn 8 (each player has had four turns)
  let clicks = 0;
  while (Number(await page.locator('#turn').textContent()) < 8) {
    expect(await clickOnce(page)).toBe(true);
    clicks++;
  }
  await expect(myMoves(page).first()).toBeVisible({ timeout: 15_000 }); // the bot has answered
  const hash = (await page.locator('#hash').textContent())!;
  const groups = await page.locator('#log .log-group').count();
  const turn = await page.locator('#turn').textContent();

  // offline: the reload comes from the service worker's cache, the game from local storage
  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(page.locator('#sum-game')).toHaveText('Duel');
  await expect(page.locator('#hash')).toHaveText(hash);
  await expect(page.locator('#turn')).toHaveText(turn!);
  await expect(page.locator('#log .log-group')).toHaveCount(groups);
  await expect(page.locator('#mode')).toHaveValue('bot');
  await expect(page.locator('#bot-strength')).toHaveValue('random');
  await expect(page.locator('#to-act')).toHaveText('Player 0 (you)');

  // the second half, offline, to the end: the bot (its worker and engine.wasm from the cache) still answers
  const before = clicks;
  while (await clickOnce(page)) clicks++;
  expect(clicks).toBeGreaterThan(before);
  // the result shown is the one the board's life totals call for (end_conditions of duel.yaml)
  const life = async (id: string) => Number(await page.locator(`#board section.player[data-player="${id}"] [data-prop="life"] .v`).textContent());
  const [life0, life1] = [await life('0'), await life('1')];
  const turnEnd = Number(await page.locator('#turn').textContent());
  const expected =
    (life0 <= 0 && life1 <= 0) || (turnEnd > 30 && life0 === life1) ? 'Draw'
    : life1 <= 0 || (turnEnd > 30 && life0 > life1) ? 'Player 0 (you) wins'
    : 'Player 1 (bot) wins';
  expect(life0 <= 0 || life1 <= 0 || turnEnd > 30).toBe(true);
  await expect(over(page)).toHaveText(expected);
  await expect(page.locator('#moves')).toContainText(/^Game over: /);
  await expect(page.locator('#moves button.move')).toHaveCount(0);
  await expect(page.locator('#log .log-group summary').filter({ hasText: 'Player 1 (bot):' }).first()).toBeVisible();
  // every move of both halves is in the log (one group each, and the setup)
  expect(await page.locator('#log .log-group').count()).toBeGreaterThan(groups + clicks - before);
  await context.setOffline(false);
});
