// The main screens of the playground at a desktop's and a phone's size (issue 14): play, the
// editor, Simulate, the Resolution step-through and the hot-seat hand-over. Each is brought
// up as a user would, checked by axe-core (no serious or critical violation) and saved as a
// screenshot among the test's artefacts (test-results/…, and attached to the report).
import { test, expect, type Page, type TestInfo } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { seriousViolations } from './axe.js';
import { setEditorText } from './editor-helpers.js';
import { failOnPageErrors } from './page-errors.js';
import { open, loadGame } from './playground-page.js';

failOnPageErrors();

/** Scrolls the screen's element into view, checks it, and saves what the viewport shows as `<name>-<w>x<h>.png`. */
async function shoot(page: Page, info: TestInfo, name: string, selector: string): Promise<void> {
  const el = page.locator(selector);
  await el.scrollIntoViewIfNeeded();
  await expect(el).toBeInViewport();
  expect(await seriousViolations(page), name).toEqual([]);
  const size = page.viewportSize()!;
  const file = info.outputPath(`${name}-${size.width}x${size.height}.png`);
  await page.screenshot({ path: file });
  // a PNG of the viewport's size (its IHDR chunk: width, height at bytes 16 and 20)
  const png = readFileSync(file);
  expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size.width, size.height]);
  await info.attach(`${name} ${size.width}×${size.height}`, { path: file, contentType: 'image/png' });
}

for (const [width, height] of [
  [1280, 800],
  [390, 844],
] as const) {
  test(`${width}×${height}: play, editor, Simulate, Resolution and hand-over screens, scanned and saved`, async ({ page }, info) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height });
    await open(page, '?botDelay=0');

    // play: a card game in progress, the moves first
    await loadGame(page, 'nexus.yaml', '3');
    await expect(page.locator('#moves button.move').first()).toBeVisible();
    await shoot(page, info, 'play', '.moves-panel');

    // the editor: an error underlined inside an expression, listed under the editor
    await page.locator('#game-picker').selectOption('duel.yaml');
    const duel = readFileSync(new URL('../examples/duel.yaml', import.meta.url), 'utf8');
    await setEditorText(page, duel.replace('value: $entity.self.damage }', 'value: $entity.self.damagex }'));
    await expect(page.locator('#errors li')).toHaveCount(1);
    await page.locator('#errors li').click(); // the editor goes to it
    await expect(page.locator('#editor-box .cm-lintRange-error')).toHaveText('damagex');
    await shoot(page, info, 'editor', '.editor-panel');
    await page.locator('#revert').click();
    await expect(page.locator('#errors-box')).toBeHidden();

    // Simulate: a run's table, charts and odd games
    await page.locator('#sim-count').fill('50');
    await page.locator('#sim-bot').selectOption('random');
    await page.locator('#sim-run').click();
    await expect(page.locator('#sim-status')).toHaveText(/^50 games played/, { timeout: 30_000 });
    await expect(page.locator('#sim-length-chart')).toBeVisible();
    await shoot(page, info, 'simulate', '#simulate');

    // the Resolution step-through (debug), every step of a Nexus move shown
    await loadGame(page, 'nexus.yaml', '1');
    await page.locator('#debug-views').check();
    await page.locator(`#moves button.move[data-move='${JSON.stringify({ action: 'Convert', source: 'NullVortex#1' })}']`).click();
    await page.locator('#resolution').getByRole('button', { name: 'All' }).click();
    await expect(page.locator('#resolution .resolution-steps li')).not.toHaveCount(0);
    await shoot(page, info, 'resolution', '#resolution');
    await page.locator('#debug-views').uncheck();

    // the hot-seat hand-over: the Duel's hands are hidden, so the device goes behind a screen
    await loadGame(page, 'duel.yaml', '2');
    await page.locator('#moves button.move').filter({ hasText: /^Pass$/ }).click();
    await expect(page.locator('#handover')).toBeVisible();
    await expect(page.locator('#board')).toBeEmpty();
    await shoot(page, info, 'handover', '#handover');
  });
}
