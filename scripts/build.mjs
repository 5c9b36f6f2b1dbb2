#!/usr/bin/env node
// Builds everything, incrementally (a second run with nothing changed does nothing):
//   1. native: cmake (configured once) + ninja in build/native — engine, tests, rulestack-native
//   2. wasm:   emcmake cmake (configured once) + ninja in build/wasm — engine.mjs/.wasm (copied
//              to web/lib/wasm/) and the Catch2 suite as wasm
//   3. tsc:    web/lib → dist/ (ESM + .d.ts), plus dist/wasm/engine.{mjs,wasm,d.mts}
//   4. vite:   the playground → build/playground (what the e2e tests serve)
// Before the native/wasm steps, examples/**/*.yaml (games and scenarios, each scenario's
// `game` path inlined) are converted to JSON under build/examples-json/ for the C++ tests.
// Usage: node scripts/build.mjs [native] [wasm] [lib] [playground]   (default: all)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const STEPS = ['native', 'wasm', 'lib', 'playground'];
const args = process.argv.slice(2);
for (const a of args) {
  if (!STEPS.includes(a)) {
    console.error(`build: unknown step "${a}" (steps: ${STEPS.join(', ')})`);
    process.exit(2);
  }
}
const wanted = new Set(args.length ? args : STEPS);

function run(cmd, cmdArgs, opts = {}) {
  console.log(`$ ${[cmd, ...cmdArgs].join(' ')}`);
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit', ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    console.error(`build: ${cmd} failed (exit ${r.status ?? r.signal})`);
    process.exit(1);
  }
}

/** Every file under dir (recursively) whose name passes keep(). */
function listFiles(dir, keep) {
  const out = [];
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listFiles(p, keep));
    else if (keep(p)) out.push(p);
  }
  return out.sort();
}

/**
 * A stamp file holds the list of inputs of a step. The step is up to date when the stamp
 * exists, names the same inputs (so a deleted or added file counts), and is newer than each.
 */
function upToDate(stamp, inputs) {
  if (!fs.existsSync(stamp)) return false;
  if (fs.readFileSync(stamp, 'utf8') !== JSON.stringify(inputs)) return false;
  const t = fs.statSync(stamp).mtimeMs;
  return inputs.every((f) => fs.existsSync(f) && fs.statSync(f).mtimeMs <= t);
}
function writeStamp(stamp, inputs) {
  fs.mkdirSync(path.dirname(stamp), { recursive: true });
  fs.writeFileSync(stamp, JSON.stringify(inputs));
}

function copyIfChanged(from, to) {
  if (fs.existsSync(to) && fs.readFileSync(from).equals(fs.readFileSync(to))) return;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.copyFileSync(from, to);
}

/**
 * The package ships emscripten's JS glue minified (11.9 KB gzip as built, 8.1 minified) with terser (a
 * dev dependency): three passes, property reads taken as free of side effects (the glue defines
 * no getters), its 'unsafe' rewrites (builtins not redefined, no comparison of objects with
 * valueOf) and the module's top level mangled give 440 B gzip less than one pass of Vite's
 * minifier; the node, e2e and server suites run on it. Without it, the glue is shipped as built.
 */
async function shipGlue(from, to) {
  const src = fs.readFileSync(from, 'utf8');
  let code = src;
  try {
    const { minify } = await import('terser');
    const r = await minify(src, { module: true, toplevel: true, compress: { passes: 3, pure_getters: true, hoist_funs: true, unsafe: true, unsafe_comps: true }, mangle: { toplevel: true } });
    if (r.code) code = r.code;
  } catch {
    // no minifier: ship the glue as it is
  }
  if (fs.existsSync(to) && fs.readFileSync(to, 'utf8') === code) return;
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.writeFileSync(to, code);
}

function cmakeBuild(dir, configure) {
  if (!fs.existsSync(path.join(dir, 'build.ninja'))) configure();
  // ninja re-runs cmake by itself when a CMakeLists or a globbed directory changes.
  run('cmake', ['--build', dir]);
}

/**
 * The native build, with profile feedback (CMakeLists.txt, "native profile feedback"): the
 * engine built instrumented in build/pgo-gen, whose rulestack-native plays random games of
 * every example and MCTS games of a few, and runs every example scenario (counts in
 * build/pgo/counts), then build/native (engine, tests, tools) from those counts, with
 * link-time optimisation. The games run again only when the engine, the tool or an example
 * changed. RULESTACK_PGO=0: a plain build (no counts). build/native is configured each time
 * (a second of cmake) so that a directory configured before keeps up with these options.
 */
function nativeBuild() {
  const pgo = process.env.RULESTACK_PGO !== '0';
  const common = ['-G', 'Ninja', '-S', '.', '-DCMAKE_BUILD_TYPE=Release', '-DCMAKE_INTERPROCEDURAL_OPTIMIZATION=ON'];
  const counts = path.join(root, 'build', 'pgo', 'counts');
  if (pgo) {
    const examples = path.join('build', 'examples-json');
    const json = listFiles(examples, (p) => p.endsWith('.json'));
    const games = json.filter((p) => path.dirname(p) === examples);
    // (a scenario folder's games/ holds the definitions its scenarios name, not scenarios)
    const scenarios = json.filter((p) => p.startsWith(path.join(examples, 'scenarios')) && !p.split(path.sep).includes('games'));
    const inputs = ['CMakeLists.txt', 'scripts/build.mjs', 'tools/rulestack_native.cpp', ...listFiles('engine', (p) => /\.(cpp|h)$/.test(p)), ...json];
    const stamp = `${counts}.stamp`;
    if (upToDate(stamp, inputs)) {
      console.log('native: the profile counts are up to date');
    } else {
      run('cmake', [...common, '-B', 'build/pgo-gen', '-DRULESTACK_PROFILE=generate', `-DRULESTACK_PROFILE_DIR=${counts}`]);
      run('cmake', ['--build', 'build/pgo-gen', '--target', 'rulestack_native']);
      fs.rmSync(counts, { recursive: true, force: true });
      const gen = path.join('build', 'pgo-gen', 'rulestack-native');
      const quiet = { stdio: ['ignore', 'ignore', 'inherit'] };
      const t0 = Date.now();
      for (const g of games) run(gen, ['simulate', g, '--games', '200', '--seed', '1', '--json'], quiet);
      // the search (clone, deal, playouts) is the same code for every game: a few short games of it
      // (an MCTS game of Nexus, its playouts whole games, takes the instrumented build a minute)
      for (const [name, n, iterations] of [['duel', 4, 200], ['tictactoe', 1, 50], ['crazy-eights', 1, 50]]) {
        const g = path.join(examples, `${name}.json`);
        run(gen, ['simulate', g, '--bot', 'mcts', '--iterations', String(iterations), '--games', String(n), '--seed', '1', '--json'], quiet);
      }
      // (their verdicts are the test suites' to give: here only what they run counts)
      spawnSync(gen, ['test', ...scenarios], quiet);
      console.log(`native: profile counts of ${games.length} games written in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      fs.writeFileSync(stamp, JSON.stringify(inputs));
    }
  }
  run('cmake', [...common, '-B', 'build/native', `-DRULESTACK_PROFILE=${pgo ? 'use' : ''}`, `-DRULESTACK_PROFILE_DIR=${pgo ? counts : ''}`], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  run('cmake', ['--build', 'build/native']);
}

function reportWasmSize() {
  const sizes = ['engine.wasm', 'engine.mjs'].map((f) => {
    const buf = fs.readFileSync(path.join('web/lib/wasm', f));
    return { f, raw: buf.length, gz: zlib.gzipSync(buf, { level: 9 }).length };
  });
  const total = sizes.reduce((a, s) => a + s.gz, 0);
  console.log(
    `wasm module: ${sizes.map((s) => `${s.f} ${s.raw} B (gzip ${s.gz} B)`).join(', ')}; ` +
      `total gzip ${total} B`,
  );
}

const bin = (name) => path.join(root, 'node_modules', '.bin', name);

/**
 * Every examples/ YAML file → the same path under build/examples-json/ as .json, for the
 * C++ tests (which read no YAML). A scenario's `game: <path>` is read and inlined. Only a
 * file whose sources (the YAML, and a scenario's game file) are newer than its JSON is
 * converted again.
 */
async function examplesJson() {
  const { parse } = await import('yaml');
  // as web/lib/definition.ts quoteBareOperators: spec 002 writes `operation: -` unquoted
  const quote = (t) => t.replace(/^(\s*(?:-\s+)?[A-Za-z_$][\w$]*:[ \t]+)([-+*/=])([ \t]*(?:#.*)?)$/gm, "$1'$2'$3");
  const read = (f) => parse(quote(fs.readFileSync(f, 'utf8')), { maxAliasCount: 1000 });
  const outRoot = path.join('build', 'examples-json');
  const sources = listFiles('examples', (p) => /\.ya?ml$/.test(p));
  const wantedOut = new Set();
  let converted = 0;
  for (const src of sources) {
    const rel = path.relative('examples', src).replace(/\.ya?ml$/, '.json');
    const out = path.join(outRoot, rel);
    wantedOut.add(path.resolve(out));
    let inputs = [src];
    let scenarioGame = null;
    const isScenario = rel.split(path.sep)[0] === 'scenarios';
    let doc;
    try {
      if (isScenario) {
        doc = read(src);
        if (doc && typeof doc.game === 'string') {
          scenarioGame = path.resolve(path.dirname(src), doc.game);
          inputs.push(scenarioGame);
        }
      }
      const t = fs.existsSync(out) ? fs.statSync(out).mtimeMs : -1;
      if (inputs.every((f) => fs.existsSync(f) && fs.statSync(f).mtimeMs <= t)) continue;
      if (!doc) doc = read(src);
      if (scenarioGame) doc = { ...doc, game: read(scenarioGame) };
    } catch (e) {
      // a broken example must not break the build: the tests report the file as failing
      doc = { $error: `${src}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}` };
    }
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(doc, null, 1) + '\n');
    converted++;
  }
  // no stale outputs of deleted or renamed examples
  let removed = 0;
  for (const f of listFiles(outRoot, (p) => p.endsWith('.json'))) {
    if (!wantedOut.has(path.resolve(f))) {
      fs.rmSync(f);
      removed++;
    }
  }
  console.log(`examples: ${converted} converted to JSON, ${removed} removed, in ${outRoot}`);
}

if (wanted.has('native') || wanted.has('wasm')) await examplesJson();

if (wanted.has('native')) nativeBuild();

if (wanted.has('wasm')) {
  cmakeBuild('build/wasm', () =>
    run('emcmake', ['cmake', '-G', 'Ninja', '-S', '.', '-B', 'build/wasm', '-DCMAKE_BUILD_TYPE=Release']),
  );
  reportWasmSize();
}

if (wanted.has('lib')) {
  const wasmFiles = ['engine.mjs', 'engine.wasm', 'engine.d.mts'].map((f) => path.join('web/lib/wasm', f));
  for (const f of wasmFiles) {
    if (!fs.existsSync(f)) {
      console.error(`build: ${f} is missing (run the wasm step first)`);
      process.exit(1);
    }
  }
  // the definition types come from the schema (written only when they change)
  run(process.execPath, [path.join('scripts', 'definition-types.mjs')]);
  const tsInputs = [
    'tsconfig.json',
    ...listFiles('web/lib', (p) => /\.(ts|mts|cts)$/.test(p)),
  ];
  // the stamp lives in build/, not dist/: dist/ is what the package ships
  const stamp = 'build/lib.tsc-stamp';
  if (upToDate(stamp, tsInputs) && fs.existsSync('dist/index.js')) {
    console.log('lib: dist/ is up to date');
  } else {
    fs.rmSync('dist', { recursive: true, force: true }); // no stale outputs of deleted sources
    run(bin('tsc'), ['-p', 'tsconfig.json']);
    writeStamp(stamp, tsInputs);
  }
  for (const f of wasmFiles) {
    if (path.basename(f) === 'engine.mjs') await shipGlue(f, path.join('dist/wasm', 'engine.mjs'));
    else copyIfChanged(f, path.join('dist/wasm', path.basename(f)));
  }
  const shipped = ['dist/wasm/engine.wasm', 'dist/wasm/engine.mjs'].map((f) => zlib.gzipSync(fs.readFileSync(f), { level: 9 }).length);
  console.log(`shipped wasm + glue: ${shipped[0]} + ${shipped[1]} = ${shipped[0] + shipped[1]} B gzip`);
}

if (wanted.has('playground')) {
  const inputs = [
    'package-lock.json',
    ...listFiles('web/playground', () => true),
    ...listFiles('web/lib', (p) => !p.includes(`${path.sep}test${path.sep}`)),
  ];
  const stamp = 'build/playground/.stamp';
  if (upToDate(stamp, inputs)) {
    console.log('playground: build/playground is up to date');
  } else {
    run(bin('vite'), ['build', '--config', 'web/playground/vite.config.ts', '--logLevel', 'warn']);
    writeStamp(stamp, inputs);
  }
}
