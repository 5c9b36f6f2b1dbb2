// Fit for every screen and person (issue 14): a phone (390×844) reaches the moves on the
// first screen, with touch targets of 44 px and nothing over the moves; a desktop (1280×800)
// has no overlap either; the dark theme follows prefers-color-scheme; focus is visible and
// never falls to <body> after a move; a live region says what the bot did; no serious axe
// violations.
import { test, expect, type Page } from '@playwright/test';
import { seriousViolations } from './axe.js';
import { failOnPageErrors } from './page-errors.js';
import { open, move } from './playground-page.js';

failOnPageErrors();

/**
 * Every visible element whose box intersects the moves panel's and is neither inside it nor
 * one of its ancestors; an element's box is cut to the ancestors that clip it (overflow), so the
 * long lines of the editor, scrolled out of its view, do not count.
 */
async function overMoves(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const panel = document.querySelector('.moves-panel')!;
    const r = panel.getBoundingClientRect();
    const out: string[] = [];
    for (const el of document.querySelectorAll('body *')) {
      if (panel.contains(el) || el.contains(panel)) continue;
      const r0 = el.getBoundingClientRect();
      const b = { left: r0.left, right: r0.right, top: r0.top, bottom: r0.bottom };
      for (let a = el.parentElement; a; a = a.parentElement) {
        const st = getComputedStyle(a);
        if (st.overflowX === 'visible' && st.overflowY === 'visible') continue;
        const c = a.getBoundingClientRect();
        b.left = Math.max(b.left, c.left);
        b.right = Math.min(b.right, c.right);
        b.top = Math.max(b.top, c.top);
        b.bottom = Math.min(b.bottom, c.bottom);
      }
      if (b.right <= b.left || b.bottom <= b.top || getComputedStyle(el).visibility === 'hidden') continue;
      if (b.left < r.right - 1 && b.right > r.left + 1 && b.top < r.bottom - 1 && b.bottom > r.top + 1) out.push(`${el.tagName.toLowerCase()}#${el.id}.${el.className}`);
    }
    return out;
  });
}

for (const [width, height] of [
  [390, 844],
  [1280, 800],
]) {
  test(`${width}×${height}: the first move is on the first screen, nothing overlaps the moves, no sideways scrolling`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await open(page);
    const first = page.locator('#moves button.move').first();
    await expect(first).toBeVisible();
    const box = (await first.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(height);
    expect(await overMoves(page)).toEqual([]);
    // the same in a card game, with a long hand (the moves still come before the board)
    await page.locator('#seed').fill('3');
    await page.locator('#game-picker').selectOption('nexus.yaml');
    await page.evaluate(() => window.scrollTo(0, 0));
    const nexusFirst = (await page.locator('#moves button.move').first().boundingBox())!;
    expect(nexusFirst.y + nexusFirst.height).toBeLessThanOrEqual(height);
    expect(await overMoves(page)).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}

test('390×844: every visible button, select and text field is at least 44 px tall', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await open(page);
  await page.locator('#game-picker').selectOption('duel.yaml');
  await page.locator('#sim-count').fill('3');
  await page.locator('#sim-run').click();
  await expect(page.locator('#sim-odd button').first()).toBeVisible({ timeout: 20_000 });
  // the share link's text field (in its notice) too
  await page.locator('#share').click();
  const share = (await page.locator('#share-url').boundingBox())!;
  expect(share.height).toBeGreaterThanOrEqual(44);
  const small = await page.evaluate(() =>
    [...document.querySelectorAll('button, select, input[type="text"], input[type="number"]')]
      .filter((el) => (el as HTMLElement).offsetParent !== null)
      .map((el) => [`${el.tagName.toLowerCase()}#${el.id} ${(el.textContent ?? '').trim().slice(0, 30)}`, el.getBoundingClientRect().height] as const)
      .filter(([, h]) => h < 44),
  );
  expect(small).toEqual([]);
  expect(await page.locator('#moves button.move').count()).toBeGreaterThan(0);
});

test('the dark theme follows prefers-color-scheme', async ({ page }) => {
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const luminance = (rgb: string) => {
    const [r, g, b] = rgb.match(/\d+/g)!.map(Number);
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  await page.emulateMedia({ colorScheme: 'light' });
  await open(page);
  expect(luminance(await background())).toBeGreaterThan(200);
  await page.emulateMedia({ colorScheme: 'dark' });
  expect(await background()).toBe('rgb(18, 21, 28)');
  // the panels and the text follow: light text on dark panels
  const panel = await page.evaluate(() => getComputedStyle(document.querySelector('.game-panel')!).backgroundColor);
  expect(luminance(panel)).toBeLessThan(60);
  const ink = await page.evaluate(() => getComputedStyle(document.querySelector('#sum-game')!).color);
  expect(luminance(ink)).toBeGreaterThan(180);
});

test('keyboard: focus is visible, a move by Enter keeps the focus on the moves, never on <body>', async ({ page }) => {
  await open(page);
  await page.locator('#moves button.move').first().focus();
  await page.keyboard.press('Tab'); // a keyboard move of the focus: :focus-visible applies
  const focused = page.locator('#moves button.move').nth(1);
  await expect(focused).toBeFocused();
  const outline = await focused.evaluate((el) => getComputedStyle(el).outlineStyle + ' ' + getComputedStyle(el).outlineWidth);
  expect(outline).toBe('solid 3px');
  await page.keyboard.press('Enter'); // plays "Mark → N"
  await expect(page.locator('[data-entity="N"] [data-prop="mark"] .v')).toHaveText('0');
  expect(await page.evaluate(() => document.activeElement?.tagName)).not.toBe('BODY');
  await expect(page.locator('#moves button.move').first()).toBeFocused();
  // undo by keyboard: the focus stays on Undo while there is more to undo, then goes to the moves
  await move(page, 'Mark → C').click();
  await page.locator('#undo').focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-entity="C"] [data-prop="mark"] .v')).toHaveText('–');
  await expect(page.locator('#undo')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('[data-entity="N"] [data-prop="mark"] .v')).toHaveText('–');
  await expect(page.locator('#undo')).toBeDisabled();
  await expect(page.locator('#moves button.move').first()).toBeFocused();
});

test('vs bot: the live region says what the bot did, and the focus waits on the moves', async ({ page }) => {
  await open(page, '?botDelay=0');
  await page.locator('#mode').selectOption('bot');
  await page.locator('#bot-strength').selectOption('random');
  await move(page, 'Mark → C').click();
  const live = page.locator('[aria-live="polite"]#announce');
  await expect(live).toHaveText(/^Player 1 \(bot\): Mark → (NW|N|NE|W|E|SW|S|SE)\.$/, { timeout: 10_000 });
  // the bot's cell is the one the log names
  const said = (await live.textContent())!.match(/Mark → (\w+)/)![1]!;
  await expect(page.locator(`[data-entity="${said}"] [data-prop="mark"] .v`)).toHaveText('1');
  await expect(page.locator('#moves button.move').first()).toBeFocused();
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(false);
});

test('axe-core finds no serious or critical violation (light and dark, after a move)', async ({ page }) => {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await open(page);
    await page.locator('#game-picker').selectOption('ambush.yaml');
    await page.locator('#moves button.move').filter({ hasText: /^Smash/ }).click();
    expect(await seriousViolations(page), scheme).toEqual([]);
  }
});
