// The package bundled into a web app by Vite, webpack 5 and esbuild, each app run in Debian's
// Chromium: the engine loads, a game is played, YAML text works through the lazily loaded
// YAML reader, and a wasm that cannot be fetched gives the error that names `wasmUrl`.
// (The apps are built here, into a temporary folder, and served by a small static server.)
import { test, expect } from '@playwright/test';
import http from 'node:http';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, symlinkSync, readFileSync, readdirSync, copyFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
let work: string;
let server: http.Server;
let base: string;

const GAME = {
  name: 'Minimal', players: { count: 2 }, zones: [{ name: 'Board' }],
  flow: { phases: [{ name: 'Main', valid_actions: ['Noop'] }] }, actions: [{ name: 'Noop', mutations: [] }],
};
const GAME_YAML = 'name: Minimal\nplayers: { count: 2 }\nzones: [ { name: Board } ]\nflow: { phases: [ { name: Main, valid_actions: [Noop] } ] }\nactions: [ { name: Noop, mutations: [] } ]\n';

/** An app: plays a move and sets document.title to "ok <version> <who acts>", or "error <message>". */
const app = (load: string, definition: string, header = '') => `${header}import { loadEngine } from 'rulestack';
(async () => {
  try {
    const rs = await ${load};
    const game = rs.createGame(${definition});
    game.apply('0', { action: 'Noop' });
    document.title = 'ok ' + rs.version() + ' ' + JSON.stringify(game.view().toAct);
  } catch (e) {
    document.title = 'error ' + (e instanceof Error ? e.message : String(e));
  }
})();
`;
/**
 * An app that plays 30 Tic-tac-toe games with simulate and with simulateParallel on 3 Web
 * Workers (batches of 4): the title is "same <games> <workers used>" when the results are identical.
 */
const PARALLEL_APP = `import { loadEngine } from 'rulestack';
(async () => {
  try {
    const rs = await loadEngine({ yaml: false });
    const def = ${JSON.stringify(parseYaml(readFileSync(path.join(ROOT, 'examples/tictactoe.yaml'), 'utf8')))};
    const opts = { games: 30, seed: 4, hashes: true };
    const one = rs.simulate(def, opts);
    const ends = new Set();
    const many = await rs.simulateParallel(def, { ...opts, workers: 3, batch: 4, onProgress: (done, total, b) => ends.add(b.first) });
    document.title = (JSON.stringify(one) === JSON.stringify(many) ? 'same ' : 'differ ') + many.games + ' ' + ends.size;
  } catch (e) {
    document.title = 'error ' + (e instanceof Error ? e.message : String(e));
  }
})();
`;
const VERSION = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
/** Player 0's Noop went on the queue: player 1 may answer. */
const OK = `ok ${VERSION} ["1"]`;
const APPS = {
  json: app('loadEngine({ yaml: false })', JSON.stringify(GAME)),
  yaml: app('loadEngine()', JSON.stringify(GAME_YAML)),
};

/** A folder with main.js, an index.html that loads `script`, and node_modules/rulestack → this repository. */
function appDir(name: string, source: string): string {
  const dir = path.join(work, name);
  mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  symlinkSync(ROOT, path.join(dir, 'node_modules', 'rulestack'), 'dir');
  writeFileSync(path.join(dir, 'main.js'), source);
  return dir;
}
const page = (script: string) => `<!doctype html><meta charset="utf-8"><title>loading</title><script type="module" src="${script}"></script>\n`;

async function viteBuild(name: string, source: string): Promise<void> {
  const dir = appDir(name, source);
  writeFileSync(path.join(dir, 'index.html'), page('./main.js'));
  const { build } = await import('vite');
  await build({ root: dir, base: './', configFile: false, logLevel: 'silent', build: { outDir: path.join(dir, 'out'), target: 'es2022' } });
}

async function webpackBuild(name: string, source: string): Promise<void> {
  const dir = appDir(name, source);
  const { default: webpack } = await import('webpack');
  const stats = await new Promise<import('webpack').Stats>((resolve, reject) =>
    webpack({
      mode: 'production', context: dir, entry: './main.js', target: 'web', devtool: false,
      output: { path: path.join(dir, 'out'), filename: 'main.js', publicPath: 'auto', clean: true },
      performance: { hints: false },
    }, (err, s) => (err || !s ? reject(err ?? new Error('no stats')) : resolve(s))),
  );
  if (stats.hasErrors()) throw new Error(stats.toString('errors-only'));
  writeFileSync(path.join(dir, 'out', 'index.html'), page('./main.js'));
}

async function esbuildBuild(name: string, source: string, wasmLoader = false): Promise<void> {
  const dir = appDir(name, source);
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: dir, entryPoints: ['main.js'], bundle: true, format: 'esm', splitting: true, platform: 'browser',
    target: 'es2022', outdir: path.join(dir, 'out'), logLevel: 'silent', ...(wasmLoader ? { loader: { '.wasm': 'file' } } : {}),
  });
  writeFileSync(path.join(dir, 'out', 'index.html'), page('./main.js'));
}

const TYPES: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.wasm': 'application/wasm' };

test.beforeAll(async () => {
  test.setTimeout(180_000);
  work = mkdtempSync(path.join(tmpdir(), 'rulestack-bundlers-'));
  await viteBuild('vite-json', APPS.json);
  await viteBuild('vite-yaml', APPS.yaml);
  await webpackBuild('webpack-json', APPS.json);
  await webpackBuild('webpack-yaml', APPS.yaml);
  await viteBuild('vite-parallel', PARALLEL_APP);
  await webpackBuild('webpack-parallel', PARALLEL_APP);
  await esbuildBuild('esbuild-plain', APPS.json);
  await esbuildBuild('esbuild-yaml-url', app("loadEngine({ wasmUrl })", JSON.stringify(GAME_YAML), "import wasmUrl from 'rulestack/engine.wasm';\n"), true);
  await esbuildBuild('esbuild-copied', app("loadEngine({ yaml: false, wasmUrl: new URL('./engine.wasm', import.meta.url) })", JSON.stringify(GAME)));
  copyFileSync(path.join(ROOT, 'dist', 'wasm', 'engine.wasm'), path.join(work, 'esbuild-copied', 'out', 'engine.wasm'));
  // /<app>/… is <app>/out/…
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const [, name, ...rest] = url.pathname.split('/');
    const file = path.join(work, name ?? '', 'out', ...(rest.length && rest.join('/') ? rest : ['index.html']));
    if (!file.startsWith(work) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, 'Not Found');
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  if (work) rmSync(work, { recursive: true, force: true });
});

for (const [name, what] of [
  ['vite-json', 'Vite, an object with { yaml: false }'],
  ['vite-yaml', 'Vite, YAML text'],
  ['webpack-json', 'webpack 5, an object with { yaml: false }'],
  ['webpack-yaml', 'webpack 5, YAML text'],
  ['esbuild-yaml-url', "esbuild with the file loader: wasmUrl from 'rulestack/engine.wasm', YAML text"],
  ['esbuild-copied', 'esbuild, engine.wasm copied next to the bundle and given as wasmUrl'],
] as const) {
  test(`${what}: the engine loads and plays in Chromium`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/${name}/`);
    await expect(page).not.toHaveTitle('loading', { timeout: 20_000 });
    expect(await page.title()).toBe(OK);
    expect(errors).toEqual([]);
  });
}

for (const name of ['vite-parallel', 'webpack-parallel']) {
  test(`${name}: simulateParallel on Web Workers gives what simulate gives (the bundler builds the worker)`, async ({ page }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(`${base}/${name}/`);
    await expect(page).not.toHaveTitle('loading', { timeout: 60_000 });
    expect(await page.title()).toBe('same 30 8');
    expect(errors).toEqual([]);
  });
}

test('esbuild without the wasm: the error names where it looked and the wasmUrl option', async ({ page }) => {
  await page.goto(`${base}/esbuild-plain/`);
  await expect(page).not.toHaveTitle('loading', { timeout: 20_000 });
  const title = await page.title();
  expect(title).toContain(`error rulestack: cannot load engine.wasm from ${base}/esbuild-plain/wasm/engine.wasm: HTTP 404 Not Found.`);
  expect(title).toContain("loadEngine({ wasmUrl: '<URL or path of engine.wasm>' })");
});

test('Vite and webpack emit engine.wasm once', () => {
  for (const name of ['vite-json', 'vite-yaml', 'webpack-json', 'webpack-yaml', 'vite-parallel', 'webpack-parallel']) {
    const files = readdirSync(path.join(work, name, 'out'), { recursive: true }).map(String);
    expect(files.filter((f) => f.endsWith('.wasm')), `${name}: ${files.join(', ')}`).toHaveLength(1);
  }
});

test('only the YAML apps fetch the YAML reader (Vite, webpack, esbuild with splitting put it in a chunk of its own)', async ({ page }) => {
  for (const [name, wantsYaml] of [
    ['vite-json', false], ['vite-yaml', true], ['webpack-json', false], ['webpack-yaml', true], ['esbuild-copied', false], ['esbuild-yaml-url', true],
  ] as const) {
    const scripts: string[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('.js')) scripts.push(r.url());
    });
    await page.goto(`${base}/${name}/`);
    await expect(page).toHaveTitle(OK, { timeout: 20_000 });
    const bodies = await Promise.all(scripts.map(async (u) => (await fetch(u)).text()));
    const yamlFetched = bodies.some((b) => b.includes('YAMLParseError'));
    expect(yamlFetched, `${name}: ${scripts.join(', ')}`).toBe(wantsYaml);
    page.removeAllListeners('response');
  }
});
