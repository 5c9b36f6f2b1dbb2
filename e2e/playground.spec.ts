// The playground loads the engine in Chromium and computes the same state hash as the
// npm package does in node (dist/, built by scripts/build.mjs).
import { test, expect } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { loadEngine } from '../dist/index.js';

test('the playground shows the engine version and the state hash node computes', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));

  await page.goto('/');
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });

  const rs = await loadEngine();
  await expect(page.locator('#version')).toHaveText(rs.version());

  // The page starts with tic-tac-toe, the first game of the picker.
  await expect(page.locator('#game-picker')).toHaveValue('tictactoe.yaml');
  // an empty seed box: a fresh random seed, which the page shows so the game can be replayed
  await expect(page.locator('#seed')).toHaveValue('');
  await expect(page.locator('#seed-used')).toHaveText(/^seed \d+$/);
  const seed = Number(await page.locator('#seed-used').getAttribute('data-seed'));
  const definition = await readFile(new URL('../examples/tictactoe.yaml', import.meta.url), 'utf8');
  const game = rs.createGame(definition, { seed });
  const expected = game.stateHash();
  game.dispose();

  expect(expected).toMatch(/^[0-9a-f]{16}$/);
  await expect(page.locator('#hash')).toHaveText(expected);
  expect(errors).toEqual([]);
});
