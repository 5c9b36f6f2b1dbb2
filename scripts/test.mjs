#!/usr/bin/env node
// `npm test`: setup, build, then every suite, then one line `N passed, N failed` (all suites
// summed) and a non-zero exit if anything failed. A suite that ran no test counts as failed.
//   npm test                        everything
//   npm test -- native wasm node e2e   only those suites (setup and build still run)
// server: the multiplayer server's tests (web/server/test/*.test.mjs, over real WebSockets;
// the Redis ones start redis-server themselves on a free port).
// fuzz: every libFuzzer target of fuzz/ a few seconds (scripts/fuzz.mjs), one test per target;
// asan: the Catch2 suite built with -fsanitize=address,undefined (build/asan). Both are
// skipped, and say so, without clang and its libFuzzer/sanitizer runtimes.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

const SUITES = ['native', 'wasm', 'node', 'server', 'e2e', 'asan', 'fuzz'];
const args = process.argv.slice(2);
for (const a of args) {
  if (!SUITES.includes(a)) {
    console.error(`test: unknown suite "${a}" (suites: ${SUITES.join(', ')})`);
    process.exit(2);
  }
}
const wanted = SUITES.filter((s) => args.length === 0 || args.includes(s));

const jobs = String(os.availableParallelism?.() ?? os.cpus().length);
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '');

function step(label, cmd, cmdArgs) {
  console.log(`\n=== ${label}: ${[cmd, ...cmdArgs].join(' ')}`);
  const r = spawnSync(cmd, cmdArgs, { stdio: 'inherit' });
  return r.status === 0;
}

/** Runs a command, streaming its output, and resolves to {code, output}. */
function runStreaming(cmd, cmdArgs, env = process.env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'pipe', 'pipe'], env });
    let output = '';
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      output += d;
    });
    child.stderr.on('data', (d) => {
      process.stderr.write(d);
      output += d;
    });
    child.on('error', (e) => {
      output += `\n${e.message}\n`;
      resolve({ code: -1, output });
    });
    child.on('close', (code) => resolve({ code: code ?? -1, output: stripAnsi(output) }));
  });
}

const last = (re, text) => {
  let m = null;
  for (const x of text.matchAll(re)) m = x;
  return m;
};

// ctest: "100% tests passed, 0 tests failed out of 3"
function parseCtest({ output }) {
  const m = last(/(\d+)% tests passed, (\d+) tests? failed out of (\d+)/g, output);
  if (!m) return null;
  const failed = Number(m[2]);
  return { passed: Number(m[3]) - failed, failed };
}

// node --test (tap: "# pass N", spec: "ℹ pass N")
function parseNodeTest({ output }) {
  const p = last(/^(?:#|ℹ) pass (\d+)/gm, output);
  const f = last(/^(?:#|ℹ) fail (\d+)/gm, output);
  const c = last(/^(?:#|ℹ) cancelled (\d+)/gm, output);
  if (!p || !f) return null;
  return { passed: Number(p[1]), failed: Number(f[1]) + (c ? Number(c[1]) : 0) };
}

// playwright list reporter: "  3 passed (5.1s)", "  1 failed", "  1 flaky"
function parsePlaywright({ output }) {
  const count = (word) => {
    const m = last(new RegExp(`^\\s+(\\d+) ${word}\\b`, 'gm'), output);
    return m ? Number(m[1]) : 0;
  };
  const flaky = count('flaky');
  const passed = count('passed') + flaky;
  const failed = count('failed') + count('interrupted') + count('did not run');
  if (passed + failed === 0) return null;
  return { passed, failed, flaky };
}

// scripts/fuzz.mjs: "fuzz: 5 passed, 0 failed"
function parseFuzz({ output }) {
  const m = last(/^fuzz: (\d+) passed, (\d+) failed$/gm, output);
  return m ? { passed: Number(m[1]), failed: Number(m[2]) } : null;
}

/** Why the fuzz and asan suites cannot run here (no clang with libFuzzer), or null. */
function noClang() {
  const r = spawnSync(process.execPath, ['scripts/fuzz.mjs', '--check'], { encoding: 'utf8' });
  if (r.status === 0) return null;
  return `${(r.stdout || r.stderr || 'no clang').trim().replace(/^fuzz: /, '')}`;
}

/** A TCP port on 127.0.0.1 that nothing listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** The browser of the e2e suite: RULESTACK_CHROMIUM, else Debian's, else the usual macOS apps. */
function findChromium() {
  const candidates = process.env.RULESTACK_CHROMIUM
    ? [process.env.RULESTACK_CHROMIUM]
    : [
        '/usr/bin/chromium',
        '/Applications/Chromium.app/Contents/MacOS/Chromium',
        '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
      ];
  return candidates.find((f) => fs.existsSync(f)) ?? null;
}

function testFiles(dir, re) {
  const out = [];
  if (!fs.existsSync(dir)) return out;
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile() && re.test(e.name)) out.push(path.join(e.parentPath ?? e.path, e.name));
  }
  return out.sort();
}

const suites = {
  native: () => ({
    cmd: 'ctest',
    args: ['--test-dir', 'build/native', '--no-tests=error', '--output-on-failure', '-j', jobs],
    parse: parseCtest,
  }),
  wasm: () => ({
    cmd: 'ctest',
    args: ['--test-dir', 'build/wasm', '--no-tests=error', '--output-on-failure', '-j', jobs],
    parse: parseCtest,
  }),
  node: () => {
    const files = testFiles('dist', /\.test\.js$/);
    return {
      cmd: process.execPath,
      args: ['--test', '--test-reporter=spec', ...files],
      parse: parseNodeTest,
      empty: files.length === 0 ? 'no dist/**/*.test.js files' : null,
    };
  },
  server: () => {
    const files = testFiles('web/server/test', /\.test\.mjs$/);
    return {
      cmd: process.execPath,
      // one file at a time: each boots a Colyseus server (a process-wide matchmaker) and bots
      args: ['--test', '--test-concurrency=1', '--test-reporter=spec', ...files],
      parse: parseNodeTest,
      empty: files.length === 0 ? 'no web/server/test/*.test.mjs files' : null,
    };
  },
  e2e: async () => {
    const browser = findChromium();
    return {
      cmd: bin('playwright'),
      args: ['test'],
      env: { ...process.env, CI: process.env.CI || '1', RULESTACK_E2E_PORT: String(await freePort()), RULESTACK_CHROMIUM: browser ?? '' },
      parse: parsePlaywright,
      skip: browser
        ? null
        : 'no Chromium or Chrome found (never a downloaded one): install one (Debian: apt-get install chromium; ' +
          'macOS: brew install --cask chromium, or Google Chrome), or set RULESTACK_CHROMIUM=/path/to/chrome',
    };
  },
  asan: () => ({
    cmd: process.execPath,
    args: ['scripts/fuzz.mjs', '--asan'],
    parse: parseCtest,
    skip: noClang(),
  }),
  fuzz: () => ({
    // a few seconds per target, from the seeds only (--fresh); long runs: README "Developing"
    cmd: process.execPath,
    args: ['scripts/fuzz.mjs', '--seconds', process.env.RULESTACK_FUZZ_SECONDS || '3', '--fresh'],
    parse: parseFuzz,
    skip: noClang(),
  }),
};

const totals = { passed: 0, failed: 0 };
const lines = [];
const started = Date.now();

function finish() {
  console.log('\n=== summary');
  for (const l of lines) console.log(l);
  console.log(`total time ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(`${totals.passed} passed, ${totals.failed} failed`);
  process.exit(totals.failed > 0 ? 1 : 0);
}

if (!step('setup', 'bash', ['scripts/setup.sh']) || !step('build', process.execPath, ['scripts/build.mjs'])) {
  totals.failed += 1;
  lines.push('setup/build: FAILED (no suite ran)');
  finish();
}

for (const name of wanted) {
  const s = await suites[name]();
  const t0 = Date.now();
  let counts;
  if (s.skip) {
    console.log(`\n=== ${name}: SKIPPED — ${s.skip}`);
    lines.push(`${name}: SKIPPED — ${s.skip}`);
    continue;
  }
  if (s.empty) {
    console.log(`\n=== ${name}: ${s.empty}`);
    counts = null;
  } else {
    console.log(`\n=== ${name}: ${[s.cmd, ...s.args].join(' ')}`);
    const r = await runStreaming(s.cmd, s.args, s.env);
    counts = s.parse(r);
    // A runner that crashed after printing its counts still fails the suite.
    if (counts && r.code !== 0 && counts.failed === 0) counts.failed = 1;
  }
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  if (!counts || counts.passed + counts.failed === 0) {
    totals.failed += 1;
    lines.push(`${name}: FAILED — ran no test (${secs} s)`);
    continue;
  }
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  const flaky = counts.flaky ? `, ${counts.flaky} of them only on a retry (flaky: see the suite's log)` : '';
  lines.push(`${name}: ${counts.passed} passed${flaky}, ${counts.failed} failed (${secs} s)`);
}
finish();
