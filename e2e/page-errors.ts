// Every e2e test fails if the page threw or logged an error: the hooks that collect its
// uncaught errors and its console errors (a failed fetch, a worker's error, console.error).
import { test, expect, type Page } from '@playwright/test';

const pageErrors = new WeakMap<Page, string[]>();

/** Registers, in the calling spec file, hooks that fail a test whose page threw or logged an error. */
export function failOnPageErrors(): void {
  test.beforeEach(async ({ page }) => {
    const errors: string[] = [];
    pageErrors.set(page, errors);
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(`console.error: ${m.text()}`);
    });
  });
  test.afterEach(async ({ page }) => {
    expect(pageErrors.get(page)).toEqual([]);
  });
}
