#!/usr/bin/env node
// The libFuzzer targets of fuzz/ (clang, -fsanitize=fuzzer,address,undefined) in build/fuzz:
// builds them, writes the seed corpus from the examples (build/fuzz/seeds, by make_corpus),
// runs each target for N seconds, and fails on any finding (crash, leak, undefined behaviour,
// timeout, out of memory, a failed oracle), printing the saved input's path.
//   node scripts/fuzz.mjs [target...] [--seconds N] [--timeout S] [--keep-going] [--fresh]
//     targets: definition expression move snapshot scenario (default: all), one after another
//     --seconds N   fuzzing time per target (default 10)
//     --timeout S   an input running longer than S seconds is a finding (default 20)
//     --keep-going  run on after a finding (libFuzzer -fork=1 -ignore_crashes ...): every
//                   finding of the run is saved and listed
//     --fresh       new inputs go to an emptied build/fuzz/scratch/<target> (short runs: the
//                   growing corpus of build/fuzz/corpus/<target> is not replayed)
//   node scripts/fuzz.mjs --asan    the Catch2 suite built with -fsanitize=address,undefined in
//                                   build/asan, run by ctest
//   node scripts/fuzz.mjs --check   exit 0 when clang with libFuzzer is there, else say why (exit 3)
// Findings are in build/fuzz/artifacts/<target>/; reproduce one: build/fuzz/fuzz_<target> <file>.
// Ends with `fuzz: N passed, N failed` (one per target).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const TARGETS = ['definition', 'expression', 'move', 'snapshot', 'scenario'];
const FUZZ_DIR = 'build/fuzz';
const ASAN_DIR = 'build/asan';
const jobs = String(os.availableParallelism?.() ?? os.cpus().length);

function usage(msg) {
  console.error(`fuzz: ${msg}\nusage: node scripts/fuzz.mjs [${TARGETS.join('|')}...] [--seconds N] [--timeout S] [--keep-going] [--fresh] | --asan | --check`);
  process.exit(2);
}

const opts = { targets: [], seconds: 10, timeout: 20, keepGoing: false, fresh: false, asan: false, check: false };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const num = () => {
    const v = Number(argv[++i]);
    if (!Number.isFinite(v) || v <= 0) usage(`${a} needs a positive number`);
    return v;
  };
  if (a === '--seconds') opts.seconds = num();
  else if (a === '--timeout') opts.timeout = num();
  else if (a === '--keep-going') opts.keepGoing = true;
  else if (a === '--fresh') opts.fresh = true;
  else if (a === '--asan') opts.asan = true;
  else if (a === '--check') opts.check = true;
  else if (TARGETS.includes(a)) opts.targets.push(a);
  else usage(`unknown argument "${a}"`);
}
if (opts.targets.length === 0) opts.targets = TARGETS;

/** clang++ with libFuzzer and the sanitizer runtimes: {cxx} or {why}. */
function findClang() {
  const names = process.env.RULESTACK_CLANGXX
    ? [process.env.RULESTACK_CLANGXX]
    : ['clang++', 'clang++-14', 'clang++-15', 'clang++-16', 'clang++-17', 'clang++-18', 'clang++-19'];
  let found = null;
  for (const cxx of names) {
    const r = spawnSync(cxx, ['-print-runtime-dir'], { encoding: 'utf8' });
    if (r.status !== 0) continue;
    found ??= cxx;
    const dirs = [r.stdout.trim()];
    const res = spawnSync(cxx, ['-print-resource-dir'], { encoding: 'utf8' });
    if (res.status === 0) dirs.push(path.join(res.stdout.trim(), 'lib', 'linux'));
    const has = (re) => dirs.some((d) => fs.existsSync(d) && fs.readdirSync(d).some((f) => re.test(f)));
    if (has(/^libclang_rt\.fuzzer(-x86_64|-aarch64)?\.a$|^libclang_rt\.fuzzer\.a$/) && has(/^libclang_rt\.asan/)) return { cxx };
  }
  return {
    why: found
      ? `${found} has no libFuzzer / sanitizer runtimes (Debian: apt-get install libclang-rt-14-dev)`
      : 'no clang++ (Debian: apt-get install clang libclang-rt-14-dev; or set RULESTACK_CLANGXX)',
  };
}

function run(cmd, args, o = {}) {
  console.log(`$ ${[cmd, ...args].join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', ...o });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  return r.status === 0;
}

function build(dir, cxx, mode) {
  if (!fs.existsSync(path.join('build', 'examples-json')) && !run(process.execPath, ['scripts/build.mjs', 'native'])) {
    console.error('fuzz: build/examples-json could not be made');
    process.exit(1);
  }
  if (!fs.existsSync(path.join(dir, 'build.ninja'))) {
    if (!run('cmake', ['-G', 'Ninja', '-S', 'fuzz', '-B', dir, `-DCMAKE_CXX_COMPILER=${cxx}`, `-DRULESTACK_FUZZ_MODE=${mode}`])) {
      console.error(`fuzz: configuring ${dir} failed`);
      process.exit(1);
    }
  }
  if (!run('cmake', ['--build', dir, '--parallel', jobs])) {
    console.error(`fuzz: building ${dir} failed`);
    process.exit(1);
  }
}

const clang = findClang();
if (opts.check) {
  if (clang.cxx) console.log(`fuzz: ${clang.cxx} with libFuzzer`);
  else console.log(`fuzz: ${clang.why}`);
  process.exit(clang.cxx ? 0 : 3);
}
if (!clang.cxx) {
  console.error(`fuzz: ${clang.why}`);
  process.exit(3);
}

if (opts.asan) {
  build(ASAN_DIR, clang.cxx, 'asan');
  // the fair-bots test (MCTS in hundreds of positions) takes minutes under the sanitizers and
  // exercises no code the others do not: left to the native and wasm suites
  const ok = run('ctest', ['--test-dir', ASAN_DIR, '--no-tests=error', '--output-on-failure', '-j', jobs, '-E', '^fair bots']);
  process.exit(ok ? 0 : 1);
}

build(FUZZ_DIR, clang.cxx, 'fuzz');
const seeds = path.join(FUZZ_DIR, 'seeds');
fs.rmSync(seeds, { recursive: true, force: true });
if (!run(path.join(FUZZ_DIR, 'make_corpus'), [path.join('build', 'examples-json'), seeds])) {
  console.error('fuzz: make_corpus failed');
  process.exit(1);
}

const listDir = (d) => (fs.existsSync(d) ? fs.readdirSync(d) : []);

/** Runs one target; resolves to {ok, execs, secs, findings: [{file, what}]}. */
function fuzzTarget(t) {
  const corpus = path.join(FUZZ_DIR, opts.fresh ? 'scratch' : 'corpus', t);
  if (opts.fresh) fs.rmSync(corpus, { recursive: true, force: true });
  const artifacts = path.join(FUZZ_DIR, 'artifacts', t);
  fs.mkdirSync(corpus, { recursive: true });
  fs.mkdirSync(artifacts, { recursive: true });
  const before = new Set(listDir(artifacts));
  const args = [
    `-max_total_time=${opts.seconds}`,
    `-timeout=${opts.timeout}`,
    '-rss_limit_mb=2048',
    '-malloc_limit_mb=2048',
    `-dict=${path.join(seeds, 'rulestack.dict')}`,
    `-artifact_prefix=${artifacts}${path.sep}`,
    '-print_final_stats=1',
    ...(opts.keepGoing ? ['-fork=1', '-ignore_crashes=1', '-ignore_timeouts=1', '-ignore_ooms=1'] : []),
    corpus,
    path.join(seeds, t),
  ];
  const bin = path.join(FUZZ_DIR, `fuzz_${t}`);
  console.log(`\n=== fuzz ${t}: ${bin} ${args.join(' ')}`);
  const t0 = Date.now();
  return new Promise((resolve) => {
    const child = spawn(bin, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ASAN_OPTIONS: process.env.ASAN_OPTIONS ?? 'malloc_context_size=8', UBSAN_OPTIONS: process.env.UBSAN_OPTIONS ?? 'print_stacktrace=1' },
    });
    let out = '';
    const keep = (d) => {
      const s = d.toString();
      out += s;
      if (out.length > 4_000_000) out = out.slice(-2_000_000);
      process.stderr.write(s);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('close', (code) => {
      const secs = (Date.now() - t0) / 1000;
      const execs = [...out.matchAll(/stat::number_of_executed_units: (\d+)/g)].reduce((a, m) => a + Number(m[1]), 0)
        || Number([...out.matchAll(/^#(\d+)[:\s]/gm)].pop()?.[1] ?? 0);
      const whats = [...out.matchAll(/^(==\d+==ERROR: .*|.*runtime error: .*|fuzz oracle failed: .*|SUMMARY: .*)$/gm)].map((m) => m[1]);
      const files = listDir(artifacts).filter((f) => !before.has(f)).map((f) => path.join(artifacts, f));
      for (const m of out.matchAll(/Test unit written to (\S+)/g)) if (!files.includes(m[1])) files.push(m[1]);
      // slow-unit-*: an input slower than 10 s but under --timeout (reported, not a failure)
      const all = files.map((file) => ({ file, what: path.basename(file).replace(/-[0-9a-f]{40}$/, '') }));
      const slow = all.filter((f) => f.what === 'slow-unit');
      const findings = all.filter((f) => f.what !== 'slow-unit');
      const ok = code === 0 && findings.length === 0;
      resolve({ ok, code, execs, secs, findings, slow, whats: [...new Set(whats)].slice(0, 6) });
    });
  });
}

const results = [];
for (const t of opts.targets) results.push([t, await fuzzTarget(t)]);

console.log('\n=== fuzz summary');
let passed = 0;
let failed = 0;
for (const [t, r] of results) {
  const stats = `${r.execs} runs in ${r.secs.toFixed(0)} s`;
  for (const f of r.slow) console.log(`fuzz: ${t}: slow input (over 10 s): ${f.file}`);
  if (r.ok) {
    passed++;
    console.log(`fuzz: ${t}: ok (${stats})`);
    continue;
  }
  failed++;
  console.log(`fuzz: ${t}: FAILED (${stats}, exit ${r.code})`);
  for (const w of r.whats) console.log(`fuzz:   ${w}`);
  for (const f of r.findings) console.log(`fuzz:   ${f.what}: ${f.file}  (reproduce: ${path.join(FUZZ_DIR, `fuzz_${t}`)} ${f.file})`);
  if (r.findings.length === 0) console.log('fuzz:   (no input saved: see the output above)');
}
console.log(`fuzz: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
