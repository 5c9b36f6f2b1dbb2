// What the playground specs do to the page: open it, load an example with a seed, find a move.
import { expect, type Page } from '@playwright/test';

/** Opens the playground (with a query, e.g. `?botDelay=0`) and waits for the engine. */
export async function open(page: Page, query = ''): Promise<void> {
  await page.goto(`/${query}`);
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
}

/** Loads an example with a seed typed in the Seed box ('' = a random one). */
export async function loadGame(page: Page, file: string, seed: string): Promise<void> {
  await page.locator('#seed').fill(seed);
  await page.locator('#game-picker').selectOption(file); // a change of game loads it
  if (seed !== '') await expect(page.locator('#seed-used')).toHaveText(`seed ${seed}`);
}

/** The move button with exactly this label. */
export const move = (page: Page, label: string) =>
  page.locator('#moves button.move').filter({ hasText: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) });
