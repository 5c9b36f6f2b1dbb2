// Every e2e test fails if the page threw: the hooks that collect its uncaught errors.
import { test, expect, type Page } from '@playwright/test';

const pageErrors = new WeakMap<Page, string[]>();

/** Registers, in the calling spec file, hooks that fail a test whose page threw an error. */
export function failOnPageErrors(): void {
  test.beforeEach(async ({ page }) => {
    const errors: string[] = [];
    pageErrors.set(page, errors);
    page.on('pageerror', (e) => errors.push(String(e)));
  });
  test.afterEach(async ({ page }) => {
    expect(pageErrors.get(page)).toEqual([]);
  });
}
