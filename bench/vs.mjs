#!/usr/bin/env node
// The engine against an earlier commit of itself, on the same machine in the same run: is a
// change slower? Builds the other commit (a git worktree in build/vs/<commit>, built once and
// kept), then runs the same Duel work with each build in turn (A B A B ...), each run its own
// process, and gives each pair's ratio of CPU time (the process and everything it waited for,
// start-up included: the work is sized so that start-up is a few % of a run) and their
// median. Pairing keeps the ratio honest when the shared machine's speed drifts; quote the
// median.
//   node bench/vs.mjs --base COMMIT [--runs N] [--only native,wasm,mcts] [--json FILE]
//   node bench/vs.mjs --clean      removes the kept worktrees and builds (build/vs)
//     native  rulestack-native simulate, 60000 random games       (build/native of this checkout)
//     wasm    simulate() in the wasm module, 90 x 200 random games (build/wasm of this checkout)
//     mcts    botChoose, 120 x 200 MCTS iterations over the true state, from a fixed position
// This checkout's builds must be current (node scripts/build.mjs native wasm). A/B > 1: this
// checkout is slower. Issue 10's bound: the Duel may not get slower than the engine before
// the resolution machine (commit 4870336) by more than 10 %.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
};
// the worktrees are registered in .git: removed by git, not only by deleting build/
if (args.includes('--clean')) {
  for (const d of fs.existsSync('build/vs') ? fs.readdirSync('build/vs') : []) {
    const src = path.join('build/vs', d, 'src');
    if (fs.existsSync(src)) spawnSync('git', ['worktree', 'remove', '--force', src], { stdio: 'inherit' });
  }
  fs.rmSync('build/vs', { recursive: true, force: true });
  spawnSync('git', ['worktree', 'prune'], { stdio: 'inherit' }); // (those whose folder is gone)
  console.log('bench/vs.mjs: build/vs and its worktrees removed');
  process.exit(0);
}
const base = opt('--base');
const runs = Number(opt('--runs', '9'));
const only = opt('--only', 'native,wasm,mcts').split(',');
const jsonOut = opt('--json');
if (!base || !Number.isInteger(runs) || runs < 1 || only.some((o) => !['native', 'wasm', 'mcts'].includes(o))) {
  console.error('usage: node bench/vs.mjs --base COMMIT [--runs N] [--only native,wasm,mcts] [--json FILE] | --clean');
  process.exit(2);
}

function run(cmd, argv, opts = {}) {
  const r = spawnSync(cmd, argv, { stdio: opts.quiet ? 'pipe' : 'inherit', encoding: 'utf8', ...opts });
  if (r.status !== 0) {
    if (opts.quiet) process.stderr.write(r.stdout + r.stderr);
    throw new Error(`${cmd} ${argv.join(' ')} failed (exit ${r.status})`);
  }
  return r.stdout;
}

// ---- the other commit's builds
const sha = run('git', ['rev-parse', '--verify', `${base}^{commit}`], { quiet: true }).trim();
const dir = path.join('build/vs', sha.slice(0, 12));
const src = path.join(dir, 'src');
if (!fs.existsSync(src)) {
  run('git', ['worktree', 'prune']); // (a worktree whose folder was deleted with build/ is still registered)
  run('git', ['worktree', 'add', '--detach', src, sha]);
}
const build = (sub, configure, target) => {
  const b = path.join(dir, sub);
  if (!fs.existsSync(path.join(b, 'build.ninja'))) run(configure[0], [...configure.slice(1), '-G', 'Ninja', '-S', src, '-B', b, '-DCMAKE_BUILD_TYPE=Release']);
  run('cmake', ['--build', b, '--target', target]);
  return b;
};
const need = (f) => {
  if (!fs.existsSync(f)) throw new Error(`${f} is missing: run node scripts/build.mjs native wasm first`);
  return f;
};
const baseNative = only.includes('native') ? path.join(build('native', ['cmake'], 'rulestack_native'), 'rulestack-native') : null;
const baseWasm = only.some((o) => o !== 'native') ? build('wasm', ['emcmake', 'cmake'], 'rulestack_wasm') : null;

// the Duel as JSON (the CLI and the module both take JSON text)
const duel = 'build/bench/duel.json';
fs.mkdirSync('build/bench', { recursive: true });
if (!fs.existsSync(duel)) {
  const YAML = (await import('yaml')).default;
  fs.writeFileSync(duel, JSON.stringify(YAML.parse(fs.readFileSync('examples/duel.yaml', 'utf8'))));
}

// ---- timing: the CPU seconds of one command, children included (/proc: cutime + cstime of a
// shell that waited for it, in clock ticks)
const TICK = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
function cpuSeconds(argv) {
  const quoted = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const out = run('sh', ['-c', `${quoted} >/dev/null || exit 1; cat /proc/$$/stat`], { quiet: true });
  const fields = out.slice(out.lastIndexOf(')') + 2).trim().split(/\s+/); // after "pid (comm) "
  return (Number(fields[13]) + Number(fields[14])) / TICK; // fields 16, 17 of stat(5)
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

if (only.some((o) => o !== 'native')) need('build/wasm/engine.wasm');
const sides = {
  native: {
    what: 'native, 60000 random games (rulestack-native simulate)',
    a: [need('build/native/rulestack-native'), 'simulate', duel, '--games', '60000', '--seed', '1000'],
    b: () => [baseNative, 'simulate', duel, '--games', '60000', '--seed', '1000'],
  },
  wasm: {
    what: 'wasm, 90 x 200 random games (simulate)',
    a: [process.execPath, 'bench/vs-work.mjs', 'build/wasm', duel, 'random', '90'],
    b: () => [process.execPath, 'bench/vs-work.mjs', baseWasm, duel, 'random', '90'],
  },
  mcts: {
    what: 'wasm, 120 x 200 MCTS iterations over the true state (botChoose)',
    a: [process.execPath, 'bench/vs-work.mjs', 'build/wasm', duel, 'mcts', '120'],
    b: () => [process.execPath, 'bench/vs-work.mjs', baseWasm, duel, 'mcts', '120'],
  },
};

const report = { base: sha, runs, sides: {} };
console.log(`this checkout (A) against ${sha.slice(0, 12)} (B), ${runs} pairs each; A/B > 1: A is slower`);
for (const name of only) {
  const s = sides[name];
  const b = s.b();
  cpuSeconds(s.a); // a warm-up of each (file cache, CPU frequency)
  cpuSeconds(b);
  const ratios = [], as = [], bs = [];
  for (let i = 0; i < runs; i++) {
    const ta = cpuSeconds(s.a);
    const tb = cpuSeconds(b);
    as.push(ta);
    bs.push(tb);
    ratios.push(ta / tb);
  }
  const r = { what: s.what, medianA: median(as), medianB: median(bs), ratio: median(ratios), min: Math.min(...ratios), max: Math.max(...ratios) };
  report.sides[name] = r;
  console.log(`${name.padEnd(6)} A/B ${r.ratio.toFixed(3)} (speed ${(1 / r.ratio).toFixed(2)}x; pairs ${r.min.toFixed(2)}-${r.max.toFixed(2)}; ` +
    `A ${r.medianA.toFixed(2)} s, B ${r.medianB.toFixed(2)} s)  ${s.what}`);
}
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(report, null, 2) + '\n');
