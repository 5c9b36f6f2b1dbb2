// The Resolution panel (issue 14): under "debug: show every view" the playground traces the
// game (game.setTrace) and steps through what the last move set off; without debug the
// panel is not there, as the steps name hidden cards.
import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadEngine } from '../dist/index.js';
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
  const third = lines.nth(2);
  await expect(third).toHaveText('mutation action Convert #0');
  expect(await third.evaluate((el) => parseFloat(getComputedStyle(el).paddingLeft))).toBeGreaterThan(0);
  await expect(step).toBeDisabled();
  // the panel, every step shown and one highlighted, has no serious axe violation (contrast, the scrolled list)
  await page.addScriptTag({ path: createRequire(import.meta.url).resolve('axe-core/axe.min.js') });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<{ violations: Array<{ id: string; impact: string }> }> } }).axe;
    const r = await axe.run('#resolution', { resultTypes: ['violations'] });
    return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id);
  });
  expect(violations).toEqual([]);
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
