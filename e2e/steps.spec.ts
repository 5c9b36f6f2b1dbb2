// The Resolution panel (issue 14): under "debug: show every view" the playground traces the
// game (game.setTrace) and steps through what the last move set off; without debug the
// panel is not there, as the steps name hidden cards. In Nexus an answer on the queue
// resolves before the item it answered (LIFO), each on its own pass, step by step.
import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { loadEngine } from '../dist/index.js';
import { seriousViolations } from './axe.js';
import { failOnPageErrors } from './page-errors.js';
import { open, loadGame } from './playground-page.js';

failOnPageErrors();

const FILE = 'nexus.yaml';
const SEED = 1;
const MOVE = { action: 'Convert', source: 'NullVortex#1' };

/** How many steps the package itself reports for the same game, seed and move. */
async function stepsInNode(): Promise<number> {
  const rs = await loadEngine();
  const game = rs.createGame(await readFile(new URL(`../examples/${FILE}`, import.meta.url), 'utf8'), { seed: SEED });
  game.setTrace(true);
  game.apply('0', MOVE);
  const n = game.steps().length;
  game.dispose();
  return n;
}

test('debug on: Step reveals one step at a time, All every step, Reset none', async ({ page }) => {
  const expected = await stepsInNode();
  expect(expected).toBeGreaterThan(3); // a move that sets off several steps
  await open(page, '?botDelay=0');
  await loadGame(page, FILE, String(SEED));
  const panel = page.locator('#resolution');
  await expect(panel).toBeHidden();
  await page.locator('#debug-views').check();
  await expect(panel).toBeVisible();
  await expect(panel.locator('.resolution-move')).toHaveText('No move yet.');

  const button = page.locator(`#moves button.move[data-move='${JSON.stringify(MOVE)}']`);
  const label = await button.textContent(); // the mover's words for the move
  expect(label).toMatch(/^Convert · /);
  await button.click();
  const lines = panel.locator('.resolution-steps li');
  await expect(panel.locator('.resolution-move')).toHaveText(`#1 Player 0: ${label}: ${expected} steps.`);
  await expect(lines).toHaveCount(0);
  await expect(panel.locator('.resolution-pos')).toHaveText(`0 of ${expected} shown`);

  const step = panel.getByRole('button', { name: 'Step' });
  await step.focus();
  await page.keyboard.press('Enter'); // keyboard reachable
  await expect(lines).toHaveCount(1);
  await expect(lines.first()).toHaveText('take q1 Convert');
  await expect(lines.first()).toHaveAttribute('aria-current', 'step');
  await page.keyboard.press('Enter');
  await expect(lines).toHaveCount(2);
  await expect(lines.nth(1)).toHaveText('execute q1 Convert');
  await expect(lines.nth(1)).toHaveClass('current');
  await expect(lines.first()).not.toHaveClass('current');
  // a step one level deeper is indented one level
  const indent = await lines.evaluateAll((els) => els.map((el) => getComputedStyle(el).paddingLeft));
  expect(indent[0]).toBe('0px');

  await panel.getByRole('button', { name: 'All' }).click();
  await expect(lines).toHaveCount(expected);
  await expect(panel.locator('.resolution-pos')).toHaveText(`${expected} of ${expected} shown`);
  await expect(lines.filter({ hasText: 'event OnZoneEnter NullVortex#1 (before)' })).toHaveCount(1);
  await expect(lines.filter({ hasText: 'mutation action Convert #0' })).toHaveCount(1);
  // (after the execution looks for answers to it: Nexus's Rules answer some actions)
  await expect(lines.nth(2)).toHaveText('reactions AfterAction NullVortex#1');
  const mutation = lines.nth(4);
  await expect(mutation).toHaveText('mutation action Convert #0');
  expect(await mutation.evaluate((el) => parseFloat(getComputedStyle(el).paddingLeft))).toBeGreaterThan(0);
  await expect(step).toBeDisabled();
  // the panel, every step shown and one highlighted, has no serious axe violation (contrast, the scrolled list)
  expect(await seriousViolations(page, '#resolution')).toEqual([]);
  await expect(panel.getByRole('button', { name: 'Reset' })).toBeFocused(); // the focus stays on the panel

  await panel.getByRole('button', { name: 'Reset' }).click();
  await expect(lines).toHaveCount(0);
  await expect(step).toBeFocused();

  // on a phone the controls are touch targets like the others
  await page.setViewportSize({ width: 390, height: 844 });
  const heights = await panel.locator('.resolution-tools button').evaluateAll((els) => els.map((el) => el.getBoundingClientRect().height));
  expect(heights).toHaveLength(3);
  for (const height of heights) expect(height).toBeGreaterThanOrEqual(44);

  // off again: the panel goes, and the game is no longer traced
  await page.locator('#debug-views').uncheck();
  await expect(panel).toBeHidden();
});

test('debug off: there is no Resolution panel, before or after a move', async ({ page }) => {
  await open(page, '?botDelay=0');
  await loadGame(page, FILE, String(SEED));
  await expect(page.locator('#resolution')).toBeHidden();
  await page.locator(`#moves button.move[data-move='${JSON.stringify(MOVE)}']`).click();
  await expect(page.locator('#log .log-group')).not.toHaveCount(0);
  await expect(page.locator('#resolution')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Step', exact: true })).toHaveCount(0);
  // a move made untraced says so once debug is turned on
  await page.locator('#debug-views').check();
  await expect(page.locator('#resolution .resolution-move')).toHaveText(/: not traced \(debug was off when it was made\)\.$/);
  await expect(page.locator('#resolution .resolution-steps li')).toHaveCount(0);
});

/** Nexus, seed 1: player 0 builds up, then player 1 plays Circuit Drone (q5), which player 0 answers. */
const TO_THE_ANSWER: Array<[string, Record<string, unknown>]> = [
  ['0', { action: 'PlayAnomaly', source: 'NullVortex#1' }],
  ['0', { action: 'Play', source: 'CircuitDrone#2' }],
  ['0', { action: 'pass' }],
  ['0', { action: 'PlayModification', source: 'OverclockModule#1', targets: ['CircuitDrone#2'] }],
  ['0', { action: 'pass' }],
  ['0', { action: 'pass' }],
  ['1', { action: 'PlayAnomaly', source: 'NullVortex#5' }],
  ['1', { action: 'Play', source: 'CircuitDrone#6' }],
];
/** Player 0's answer on the queue: Circuit Drone's Zap skill (speed 2), above player 1's drone. */
const ANSWER = { action: 'Zap', source: 'CircuitDrone#2', targets: ['CircuitDrone#2'] };

/** Hot-seat: takes the device for `player` if the hand-over screen asks for it. */
async function takeDevice(page: import('@playwright/test').Page, player: string): Promise<void> {
  if (await page.locator('#handover').isVisible()) {
    await expect(page.locator('#handover-confirm')).toHaveText(`I am Player ${player} — show my cards`);
    await page.locator('#handover-confirm').click();
  }
  await expect(page.locator('#viewing')).toHaveText(`Player ${player}`);
}

/** Hot-seat: clicks the player's move (taking the device first if asked). */
async function click(page: import('@playwright/test').Page, player: string, move: Record<string, unknown>): Promise<void> {
  await takeDevice(page, player);
  const hash = await page.locator('#hash').textContent();
  await page.locator(`#moves button.move[data-player="${player}"][data-move='${JSON.stringify(move)}']`).click();
  await expect(page.locator('#hash')).not.toHaveText(hash!);
}

/** Every line the panel shows for the last move, revealed one Step at a time. */
async function stepThrough(page: import('@playwright/test').Page): Promise<string[]> {
  const panel = page.locator('#resolution');
  const total = Number((await panel.locator('.resolution-move').textContent())!.match(/: (\d+) steps\.$/)![1]);
  const lines = panel.locator('.resolution-steps li');
  for (let n = 1; n <= total; n++) {
    await panel.getByRole('button', { name: 'Step' }).click();
    await expect(lines).toHaveCount(n);
    await expect(lines.nth(n - 1)).toHaveClass('current');
  }
  await expect(panel.getByRole('button', { name: 'Step' })).toBeDisabled();
  return lines.allTextContents();
}

test('Nexus: an answer on the queue resolves first, then the item it answered (LIFO), step by step', async ({ page }) => {
  // what the package says the two passes set off, to compare the panel with
  const rs = await loadEngine();
  const game = rs.createGame(await readFile(new URL(`../examples/${FILE}`, import.meta.url), 'utf8'), { seed: SEED });
  game.setTrace(true);
  for (const [p, m] of TO_THE_ANSWER) game.apply(p, m as never);
  game.apply('0', ANSWER as never);
  game.apply('1', { action: 'pass' });
  const first = game.steps().length;
  game.apply('1', { action: 'pass' });
  const second = game.steps().length;
  game.dispose();

  await open(page, '?botDelay=0');
  await loadGame(page, FILE, String(SEED));
  await page.locator('#debug-views').check();
  for (const [p, m] of TO_THE_ANSWER) await click(page, p, m);
  // player 1's drone is on the queue and player 0 has priority: they answer it
  await takeDevice(page, '0');
  const items = page.locator('#queue .q-item');
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('data-item', 'q5');
  await click(page, '0', ANSWER);
  await takeDevice(page, '1'); // player 1 has priority now
  await expect(items).toHaveCount(2);
  await expect(items.nth(0)).toHaveAttribute('data-item', 'q6'); // the answer on top
  await expect(items.nth(0).locator('.q-head')).toContainText('Zap');
  await expect(items.nth(0).locator('.b-next')).toHaveText('resolves next');
  await expect(items.nth(1)).toHaveAttribute('data-item', 'q5');
  await expect(items.nth(1).locator('.q-player')).toHaveText('controller: Player 1');

  // player 1 passes (player 0's pass is automatic): the top item, the answer, resolves
  await click(page, '1', { action: 'pass' });
  const panel = page.locator('#resolution');
  await expect(panel.locator('.resolution-move')).toHaveText(/^#10 Player 1: Pass: \d+ steps\.$/);
  const one = await stepThrough(page);
  expect(one).toHaveLength(first);
  // the Zap: 1 damage to the drone of player 0 itself (the only agent on the planet), which is terminated
  expect(one).toEqual([
    'execute q6 Zap',
    'reactions AfterAction CircuitDrone#2',
    'execute q6 Zap',
    'mutation action Zap #0',
    'event DamageTaken CircuitDrone#2 (before)',
    'reactions DamageTaken CircuitDrone#2',
    'event DamageTaken CircuitDrone#2 (apply)',
    'reactions DamageTaken CircuitDrone#2',
    'mutation reaction Terminate #0',
    'event OnZoneEnter CircuitDrone#2 (before)',
    'event OnZoneEnter OverclockModule#1 (before)',
    'reactions OnZoneEnter OverclockModule#1',
    'event OnZoneEnter OverclockModule#1 (done)',
    'event OnZoneEnter CircuitDrone#2 (after)',
    'reactions OnZoneEnter CircuitDrone#2',
    'event OnZoneEnter CircuitDrone#2 (done)',
    'mutation reaction Terminate #1',
    'mutation reaction Terminate #2',
    'reactions DamageTaken CircuitDrone#2',
    'event DamageTaken CircuitDrone#2 (done)',
    'execute q6 Zap',
  ]);
  await expect(items).toHaveCount(1);
  await expect(items.first()).toHaveAttribute('data-item', 'q5');

  // and again: now the item beneath, the drone it answered
  await click(page, '1', { action: 'pass' });
  await expect(panel.locator('.resolution-move')).toHaveText(/^#11 Player 1: Pass: \d+ steps\.$/);
  const two = await stepThrough(page);
  expect(two).toHaveLength(second);
  expect(two).toEqual([
    'execute q5 Play',
    'reactions AfterAction CircuitDrone#6',
    'execute q5 Play',
    'mutation action Play #0',
    'event OnZoneEnter CircuitDrone#6 (before)',
    'reactions OnZoneEnter CircuitDrone#6',
    'event OnZoneEnter CircuitDrone#6 (done)',
    'mutation action Play #1',
    'execute q5 Play',
  ]);
  await expect(page.locator('#queue .empty')).toHaveText('empty');
  // the log says the same, newest first: the drone resolved after the answer
  const groups = page.locator('#log .log-group summary');
  await expect(groups.nth(0)).toContainText('#11 Player 1: Pass');
  await expect(groups.nth(1)).toContainText('#10 Player 1: Pass');
});
