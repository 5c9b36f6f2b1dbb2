// Steps the page-shell specs (offline, persist) share: open the playground and wait for the
// engine, click a move by its label, read the tic-tac-toe board; fail on console errors.
import { test, expect, type Page } from '@playwright/test';

/** Registers hooks that fail a test whose page logged an error on its console (a failed fetch, a refused manifest icon…). */
export function failOnConsoleErrors(): void {
  const logged = new WeakMap<Page, string[]>();
  test.beforeEach(async ({ page }) => {
    const errors: string[] = [];
    logged.set(page, errors);
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`${m.text()} (${m.location().url})`);
    });
  });
  test.afterEach(async ({ page }) => {
    expect(logged.get(page)).toEqual([]);
  });
}

/** Opens the playground at this address (relative to baseURL, or absolute) and waits for the engine. */
export async function openAt(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The move button with exactly this label. */
export const moveButton = (page: Page, label: string) => page.locator('#moves button.move').filter({ hasText: new RegExp(`^${escape(label)}$`) });

/** Clicks the tic-tac-toe cells in order (players alternate). */
export async function mark(page: Page, cells: string[]): Promise<void> {
  for (const cell of cells) await moveButton(page, `Mark → ${cell}`).click();
}

/** The mark of each tic-tac-toe cell as the board shows it ('–' for none). */
export async function marks(page: Page): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const cell of ['NW', 'N', 'NE', 'W', 'C', 'E', 'SW', 'S', 'SE']) {
    out[cell] = (await page.locator(`[data-entity="${cell}"] [data-prop="mark"] .v`).textContent()) ?? '';
  }
  return out;
}

/** Waits until the service worker of the page's scope is active (the first visit has installed it). */
export async function serviceWorkerActive(page: Page): Promise<string> {
  return page.evaluate(async () => (await navigator.serviceWorker.ready).active!.scriptURL);
}
