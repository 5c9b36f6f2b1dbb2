// The npm package as a user gets it: `npm pack`, install the tarball into an empty folder
// (offline: `yaml` comes from the npm cache that `npm ci` filled), import 'rulestack' there,
// play a move, and run the installed `rulestack` bin.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, readdirSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { TIC_TAC_TOE_YAML } from './fixtures.js';

const ROOT = path.resolve(fileURLToPath(new URL('../../', import.meta.url)));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
let work: string;
let app: string;
let installed = false;
let installLog = '';
/** The paths in the tarball (from `npm pack --json`). */
let packed: string[] = [];

function sh(cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(cmd, args, {
    cwd,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' },
  });
}

before(() => {
  work = mkdtempSync(path.join(tmpdir(), 'rulestack-pack-'));
  const pack = sh(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', work], ROOT);
  assert.equal(pack.status, 0, `npm pack failed: ${pack.stderr}`);
  packed = (JSON.parse(pack.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path).sort();
  const tarball = readdirSync(work).find((f) => f.endsWith('.tgz'));
  assert.ok(tarball, 'no tarball');
  app = path.join(work, 'app');
  sh('mkdir', ['-p', app], work);
  writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  for (const mode of ['--offline', '--prefer-offline']) {
    const r = sh(npm, ['install', mode, '--ignore-scripts', '--no-package-lock', path.join(work, tarball)], app);
    installLog += `npm install ${mode}: exit ${r.status}\n${r.stdout}\n${r.stderr}\n`;
    if (r.status === 0) {
      installed = true;
      break;
    }
  }
});

after(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the tarball installs (offline) with its dependency and without the tests', () => {
  assert.ok(installed, installLog);
  const pkg = path.join(app, 'node_modules', 'rulestack');
  assert.ok(existsSync(path.join(pkg, 'dist', 'index.js')));
  assert.ok(existsSync(path.join(pkg, 'dist', 'index.d.ts')));
  assert.ok(existsSync(path.join(pkg, 'dist', 'wasm', 'engine.wasm')));
  assert.ok(existsSync(path.join(pkg, 'dist', 'wasm', 'engine.mjs')));
  assert.ok(!existsSync(path.join(pkg, 'dist', 'test')), 'dist/test must not be packed');
  assert.ok(existsSync(path.join(app, 'node_modules', 'yaml', 'package.json')));
});

test('the tarball holds the package and its docs, and nothing of the build', () => {
  for (const f of [
    'package.json', 'README.md', 'LICENSE', 'bin/rulestack.mjs',
    'dist/index.js', 'dist/index.d.ts', 'dist/cli.js', 'dist/simulate-worker.js', 'dist/wasm/engine.mjs', 'dist/wasm/engine.wasm', 'dist/wasm/engine.d.mts',
    'docs/api.md', 'docs/language.md', 'schema/rulestack.schema.json', 'examples/README.md', 'examples/duel.yaml',
  ]) {
    assert.ok(packed.includes(f), `${f} is not packed:\n${packed.join('\n')}`);
  }
  // every file is under one of these, and none is a build leftover or a test
  const allowed = /^(package\.json|README\.md|LICENSE|bin\/rulestack\.mjs|dist\/.+\.(js|d\.ts|mjs|d\.mts|wasm)|docs\/.+\.md|schema\/.+\.json|examples\/.+\.(ya?ml|md))$/;
  assert.deepEqual(packed.filter((f) => !allowed.test(f)), []);
  assert.deepEqual(packed.filter((f) => /(^|\/)\.|stamp|\.map$|tsbuildinfo|(^|\/)test\//.test(f)), []);
  // the license is MIT, as package.json says
  const license = readFileSync(path.join(ROOT, 'LICENSE'), 'utf8');
  assert.match(license, /^MIT License\n\nCopyright \(c\) 2026 rulestack contributors\n/);
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.license, 'MIT');
});

test('the packed README starts with installing and using the package; the repository commands come after', () => {
  assert.ok(installed, installLog);
  const readme = readFileSync(path.join(app, 'node_modules', 'rulestack', 'README.md'), 'utf8');
  const headings = [...readme.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
  assert.deepEqual(headings.slice(0, 2), ['Install', 'Use'], headings.join(', '));
  const install = readme.indexOf('npm install rulestack');
  const use = readme.indexOf("import { loadEngine");
  const start = readme.indexOf('npm start');
  assert.ok(install > 0 && install < use && use < start, 'install, then use, then npm start');
  assert.ok(readme.includes('npm test '), 'npm test is documented');
});

test("the schema and the wasm are usable from node_modules: 'rulestack/schema.json', 'rulestack/engine.wasm'", () => {
  assert.ok(installed, installLog);
  writeFileSync(
    path.join(app, 'schema.js'),
    `import schema from 'rulestack/schema.json' with { type: 'json' };
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const require = createRequire(import.meta.url);
const resolved = require.resolve('rulestack/schema.json');
const wasm = require.resolve('rulestack/engine.wasm');
const magic = [...readFileSync(wasm).subarray(0, 4)];
console.log(JSON.stringify({ title: schema.title, keys: Object.keys(schema.properties ?? {}), resolved, wasm, magic }));
`,
  );
  const r = sh(process.execPath, ['schema.js'], app);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const original = JSON.parse(readFileSync(path.join(ROOT, 'schema', 'rulestack.schema.json'), 'utf8'));
  assert.equal(out.title, original.title);
  assert.deepEqual(out.keys, Object.keys(original.properties));
  assert.ok(out.keys.includes('flow') && out.keys.includes('entities'), out.keys.join(','));
  assert.equal(out.resolved, path.join(app, 'node_modules', 'rulestack', 'schema', 'rulestack.schema.json'));
  // and engine.wasm is exported too ('rulestack/engine.wasm')
  assert.equal(out.wasm, path.join(app, 'node_modules', 'rulestack', 'dist', 'wasm', 'engine.wasm'));
  assert.deepEqual(out.magic, [0, 0x61, 0x73, 0x6d]);
});

test("import 'rulestack', create a game from YAML, apply a move", () => {
  assert.ok(installed, installLog);
  writeFileSync(path.join(app, 'ttt.yaml'), TIC_TAC_TOE_YAML);
  writeFileSync(
    path.join(app, 'main.js'),
    `import { readFileSync } from 'node:fs';
import { loadEngine, IllegalMoveError, DefinitionError } from 'rulestack';
const rs = await loadEngine();
const game = rs.createGame(readFileSync('ttt.yaml', 'utf8'), { seed: 1 });
const before = game.stateHash();
const events = game.apply('0', { action: 'Place', targets: ['c4'] });
// the workers of simulateParallel load the installed package's worker and wasm
const parallel = JSON.stringify(await rs.simulateParallel(readFileSync('ttt.yaml', 'utf8'), { games: 6, seed: 2, workers: 2, batch: 2 }));
const out = { version: rs.version(), before, after: game.stateHash(), events: events.length,
  toAct: game.view().toAct, typed: typeof IllegalMoveError === 'function' && typeof DefinitionError === 'function',
  parallelSame: parallel === JSON.stringify(rs.simulate(readFileSync('ttt.yaml', 'utf8'), { games: 6, seed: 2 })) };
game.dispose();
console.log(JSON.stringify(out));
`,
  );
  const r = sh(process.execPath, ['main.js'], app);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  assert.ok(out.typed);
  assert.equal(out.parallelSame, true);
  assert.notEqual(out.before, out.after);
  assert.ok(out.events > 0);
  assert.deepEqual(out.toAct, ['1']);
});

test("CommonJS: require('rulestack') works on the node versions of engines", () => {
  assert.ok(installed, installLog);
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  assert.equal(pkg.engines.node, '^20.19.0 || >=22.12.0');
  // this node is one of them (the test suite runs on a supported node)
  const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
  assert.ok((major === 20 && minor >= 19) || major > 22 || (major === 22 && minor >= 12), process.versions.node);
  writeFileSync(path.join(app, 'ttt.yaml'), TIC_TAC_TOE_YAML);
  writeFileSync(
    path.join(app, 'main.cjs'),
    `const { readFileSync } = require('node:fs');
const { loadEngine, IllegalMoveError } = require('rulestack');
loadEngine().then((rs) => {
  const game = rs.createGame(readFileSync('ttt.yaml', 'utf8'), { seed: 1 });
  let reason = '';
  try { game.apply('1', { action: 'Place', targets: ['c0'] }); } catch (e) { if (e instanceof IllegalMoveError) reason = e.reason; }
  game.apply('0', { action: 'Place', targets: ['c4'] });
  console.log(JSON.stringify({ toAct: game.view().toAct, reason }));
  game.dispose();
});
`,
  );
  const r = sh(process.execPath, ['main.cjs'], app);
  assert.equal(r.status, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout), { toAct: ['1'], reason: 'not_your_priority' });
});

test('the installed bin runs', () => {
  assert.ok(installed, installLog);
  writeFileSync(path.join(app, 'ttt.yaml'), TIC_TAC_TOE_YAML);
  const bin = path.join(app, 'node_modules', '.bin', 'rulestack');
  const v = sh(bin, ['validate', 'ttt.yaml'], app);
  assert.equal(v.status, 0, v.stderr);
  assert.equal(v.stdout, 'ok\n');
  const u = sh(bin, ['nonsense'], app);
  assert.equal(u.status, 2);
});

test("a TypeScript consumer type-checks against the packed .d.ts (NodeNext and bundler)", (t) => {
  assert.ok(installed, installLog);
  const tsc = path.join(ROOT, 'node_modules', '.bin', 'tsc');
  if (!existsSync(tsc)) {
    t.skip('typescript is not installed');
    return;
  }
  writeFileSync(
    path.join(app, 'consumer.ts'),
    `import { loadEngine, IllegalMoveError, DefinitionError, type GameDefinition, type GameView, type Move } from 'rulestack';
const def: GameDefinition = {
  name: 'Minimal', players: { count: 2 }, zones: [{ name: 'Board' }],
  flow: { phases: [{ name: 'Main', valid_actions: ['Noop'] }] }, actions: [{ name: 'Noop', mutations: [] }],
};
const rs = await loadEngine();
const game = rs.createGame(def, { seed: 1 });
const view: GameView = game.view();
const moves: Move[] = game.legalMoves(0);
try { game.apply('1', { action: 'Noop' }); } catch (e) {
  if (e instanceof IllegalMoveError) console.log(e.reason, e.player);
  if (e instanceof DefinitionError) console.log(e.errors[0]?.line);
}
const off: () => void = game.on('event', (ev) => console.log(ev.type));
off();
console.log(view.toAct, moves.length, rs.bot(game, { kind: 'mcts', iterations: 10 }).choose('0'));
game.dispose();
`,
  );
  for (const [mod, res] of [['nodenext', 'nodenext'], ['esnext', 'bundler']] as const) {
    const r = sh(
      tsc,
      ['--noEmit', '--strict', '--target', 'es2022', '--module', mod, '--moduleResolution', res,
        '--types', 'node', '--typeRoots', path.join(ROOT, 'node_modules', '@types'), 'consumer.ts'],
      app,
    );
    assert.equal(r.status, 0, `${res}: ${r.stdout}${r.stderr}`);
  }
});
