// The playground as an installable, offline app hosted at any path: after a first visit the
// service worker serves the whole page (engine.wasm, the bot worker and the examples
// included) with the network off; the static build works under a subpath of a plain static
// server; a new version deployed there shows the "reload" bar, which brings it in. The first
// script leaves CodeMirror and Chart.js to chunks of their own, precached too.
import { test, expect } from '@playwright/test';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { failOnPageErrors } from './page-errors.js';
import { failOnConsoleErrors, mark, marks, moveButton, openAt, serviceWorkerActive } from './shell-helpers.js';
import { buildCopies } from './static-server.js';

failOnPageErrors();
failOnConsoleErrors();

/** X takes the top row: NW, N, NE (O: W, C). */
async function playToWin(page: import('@playwright/test').Page): Promise<void> {
  await mark(page, ['NW', 'W', 'N', 'C', 'NE']);
  await expect(page.locator('#result')).toHaveText('Player 0 wins');
  expect(await marks(page)).toEqual({ NW: '0', N: '0', NE: '0', W: '1', C: '1', E: '–', SW: '–', S: '–', SE: '–' });
}

test('offline after a first visit: a reload plays tic-tac-toe, another example loads, the bot (worker) answers', async ({ page, context }) => {
  await openAt(page, '/?botDelay=0');
  expect(await serviceWorkerActive(page)).toMatch(/\/sw\.js$/);
  // the manifest makes it installable: a name, standalone, icons that load
  const manifestUrl = await page.locator('link[rel="manifest"]').evaluate((l) => (l as HTMLLinkElement).href);
  const manifest = await (await page.request.get(manifestUrl)).json();
  expect(manifest).toMatchObject({ name: 'rulestack playground', display: 'standalone', start_url: './', scope: './', theme_color: '#2f5bd3' });
  for (const icon of manifest.icons as Array<{ src: string; type: string }>) {
    const r = await page.request.get(new URL(icon.src, manifestUrl).href);
    expect(r.status(), icon.src).toBe(200);
    expect(r.headers()['content-type']).toContain(icon.type.split('+')[0]);
  }

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);
  await expect(page.locator('#sum-game')).toHaveText('Tic-tac-toe');
  await playToWin(page);

  // another example, from the page's own bundle
  await page.locator('#game-picker').selectOption('crazy-eights.yaml');
  await expect(page.locator('#sum-game')).toHaveText('Crazy Eights');
  await expect(page.locator('#moves button.move').first()).toBeVisible();

  // the bot thinks in its worker, which loads engine.wasm from the cache too
  await page.locator('#game-picker').selectOption('tictactoe.yaml');
  await page.locator('#bot-strength').selectOption('random');
  await page.locator('#mode').selectOption('bot');
  await moveButton(page, 'Mark → C').click();
  await expect(page.locator('#log .log-group summary').first()).toContainText('Player 1 (bot): Mark →', { timeout: 10_000 });
  await context.setOffline(false);
});

test.describe('the static build on a plain server', () => {
  const build = buildCopies();

  test('under a subpath (/sub/project/) it loads, plays and installs its service worker there', async ({ page }) => {
    const server = await build.serve('/sub/project/');
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    await openAt(page, server.url);
    await expect(page.locator('#sum-game')).toHaveText('Tic-tac-toe');
    await playToWin(page);
    expect(await serviceWorkerActive(page)).toBe(`${server.url}sw.js`);
    expect(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope)).toBe(server.url);
    // the folder without its slash is redirected to it, as static hosts do
    await openAt(page, server.url.slice(0, -1));
    expect(page.url()).toBe(server.url);
    expect(failed).toEqual([]);
  });

  test('a new version deployed: the page offers "reload", which brings it in', async ({ page }) => {
    const server = await build.serve('/app/');
    const work = build.dir();
    await openAt(page, server.url);
    await serviceWorkerActive(page);
    await expect(page.locator('#update-bar')).toBeHidden();

    // deploy "version 2": another index.html, and a service worker that precaches it
    const html = readFileSync(path.join(work, 'index.html'), 'utf8');
    writeFileSync(path.join(work, 'index.html'), html.replace('<title>', '<meta name="deployed" content="v2" />\n    <title>'));
    const sw = readFileSync(path.join(work, 'sw.js'), 'utf8');
    const swV2 = sw.replace(/(\{url:"index\.html",revision:")[0-9a-f]+"/, '$1v2"');
    expect(swV2).not.toBe(sw);
    writeFileSync(path.join(work, 'sw.js'), swV2);

    // the next visit finds the new worker waiting behind the running one
    await page.reload();
    await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
    await expect(page.locator('#update-bar')).toBeVisible({ timeout: 15_000 });
    await expect(page.locator('#update-bar')).toContainText('A new version is available.');
    await expect(page.locator('meta[name="deployed"]')).toHaveCount(0); // still the old page

    await Promise.all([page.waitForEvent('load'), page.locator('#update-reload').click()]);
    await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
    await expect(page.locator('meta[name="deployed"]')).toHaveAttribute('content', 'v2');
    await expect(page.locator('#update-bar')).toBeHidden();
  });
});

test('the first script is small: CodeMirror and Chart.js are chunks of their own, fetched when wanted and precached', async ({ page, context }) => {
  const build = path.resolve(import.meta.dirname, '..', 'build', 'playground');
  const html = readFileSync(path.join(build, 'index.html'), 'utf8');
  const entry = /<script type="module"[^>]* src="\.\/(assets\/index-[\w-]+\.js)"/.exec(html)![1]!;
  const entryBytes = readFileSync(path.join(build, entry)).length;
  expect(entryBytes).toBeLessThan(250_000); // (it was about 594 KB with the editor in it)
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  await openAt(page, '/?botDelay=0');
  const chunk = (name: string) => fetched.filter((p) => new RegExp(`/assets/${name}-[\\w-]+\\.js$`).test(p));
  expect(chunk('index')).toEqual([`/${entry}`]);
  expect(chunk('editor')).toHaveLength(1); // the editor, fetched alongside the engine
  await expect(page.locator('#editor-box .cm-content')).toBeVisible();
  expect(chunk('charts')).toEqual([]); // no chart before a simulation has results
  // the service worker precaches both, so that they load offline too
  const sw = readFileSync(path.join(build, 'sw.js'), 'utf8');
  for (const name of ['editor', 'charts']) expect(sw).toMatch(new RegExp(`url:"assets/${name}-[\\w-]+\\.js"`));
  await serviceWorkerActive(page);
  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('#status')).toHaveText('ready', { timeout: 15_000 });
  await page.locator('#sim-count').fill('5');
  await page.locator('#sim-run').click();
  await expect(page.locator('#sim-status')).toHaveText(/^5 games played/, { timeout: 20_000 });
  await expect(page.locator('canvas#sim-length-chart')).toBeVisible();
  await expect.poll(() => page.evaluate(() => typeof (document.getElementById('sim-wins-chart') as HTMLCanvasElement & { $chartjs?: unknown }).$chartjs)).toBe('object');
  expect(chunk('charts').length).toBeGreaterThan(0);
  await context.setOffline(false);
});
