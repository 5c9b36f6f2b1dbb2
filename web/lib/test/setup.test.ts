// scripts/setup.sh's plan on each kind of system, in its dry run (SETUP_DRY_RUN=1: nothing is
// installed), with PATH holding only fake apt-get/dpkg-query/brew/emcc/... commands: Debian
// (apt-get), macOS (Homebrew), the Emscripten SDK activated, and no supported package manager.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const script = fileURLToPath(new URL('../../scripts/setup.sh', import.meta.url));
const bash = (process.env.PATH ?? '')
  .split(path.delimiter)
  .map((d) => path.join(d, 'bash'))
  .find((f) => existsSync(f));

// The fakes: `dpkg-query` and `brew list --versions` know the packages in FAKE_INSTALLED; every
// fake logs its arguments to FAKE_LOG (a dry run must run no apt-get, brew install or npm).
const FAKES: Record<string, string> = {
  'dpkg-query': 'for a; do p=$a; done\ncase " $FAKE_INSTALLED " in *" $p "*) echo -n installed ;; *) echo -n not-installed; exit 1 ;; esac',
  'apt-get': 'echo "apt-get $*" >> "$FAKE_LOG"',
  brew:
    'echo "brew $*" >> "$FAKE_LOG"\n' +
    'if [ "$1" = list ]; then for a; do p=$a; done; case " $FAKE_INSTALLED " in *" $p "*) exit 0 ;; *) exit 1 ;; esac; fi',
  npm: 'echo "npm $*" >> "$FAKE_LOG"',
  sudo: 'echo "sudo $*" >> "$FAKE_LOG"',
};

interface Case {
  tools: string[]; // fake commands on PATH
  installed?: string[]; // what dpkg-query / brew list report as installed
  env?: Record<string, string>;
}

function plan(c: Case) {
  assert.ok(bash, 'bash is on PATH');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rulestack-setup-'));
  try {
    const bin = path.join(dir, 'bin');
    mkdirSync(bin);
    for (const t of c.tools) {
      writeFileSync(path.join(bin, t), `#!${bash}\n${FAKES[t] ?? 'exit 0'}\n`);
      chmodSync(path.join(bin, t), 0o755);
    }
    const log = path.join(dir, 'log');
    writeFileSync(log, '');
    const r = spawnSync(bash!, [script], {
      encoding: 'utf8',
      env: {
        PATH: bin,
        HOME: dir,
        SETUP_DRY_RUN: '1',
        FAKE_LOG: log,
        FAKE_INSTALLED: (c.installed ?? []).join(' '),
        ...c.env,
      },
    });
    const out = `${r.stdout}${r.stderr}`;
    // a dry run asks the package managers what is installed, and changes nothing
    const ran = readFileSync(log, 'utf8')
      .split('\n')
      .filter((l) => l && !l.startsWith('brew list'));
    return { status: r.status, out, ran };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const DEBS = ['emscripten', 'catch2', 'nlohmann-json3-dev', 'chromium', 'ninja-build', 'cmake', 'g++', 'clang', 'libclang-rt-14-dev', 'redis-server'];
const wouldRun = (out: string) =>
  out
    .split('\n')
    .filter((l) => l.startsWith('setup: dry run: would run: '))
    .map((l) => l.slice('setup: dry run: would run: '.length));

test('Debian with everything installed: nothing to install', () => {
  const r = plan({ tools: ['apt-get', 'dpkg-query', 'sudo', 'brew'], installed: DEBS });
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /package manager: apt-get/);
  assert.match(r.out, /system packages: nothing to install/);
  assert.deepEqual(wouldRun(r.out).filter((l) => !l.startsWith('npm')), []);
  assert.deepEqual(r.ran, []);
});

test('Debian: only the missing packages, with apt-get', () => {
  const r = plan({ tools: ['apt-get', 'dpkg-query', 'sudo'], installed: DEBS.filter((p) => p !== 'catch2' && p !== 'chromium') });
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /installing Debian packages: catch2 chromium\n/);
  const runs = wouldRun(r.out).filter((l) => !l.startsWith('npm'));
  assert.equal(runs.length, 2, r.out);
  assert.match(runs[0], /apt-get update -q$/);
  assert.match(runs[1], /apt-get install -y -q --no-install-recommends .* catch2 chromium$/);
  assert.deepEqual(r.ran, [], 'a dry run installs nothing');
});

test('Debian without clang: clang and its libFuzzer/sanitizer runtimes (the asan and fuzz suites)', () => {
  const r = plan({ tools: ['apt-get', 'dpkg-query', 'sudo'], installed: DEBS.filter((p) => p !== 'clang' && p !== 'libclang-rt-14-dev') });
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /installing Debian packages: clang libclang-rt-14-dev\n/);
  const runs = wouldRun(r.out).filter((l) => !l.startsWith('npm'));
  assert.match(runs[1], /apt-get install -y -q --no-install-recommends .* clang libclang-rt-14-dev$/);
  assert.deepEqual(r.ran, []);
});

test('Debian with the Emscripten SDK activated: emscripten is not installed', () => {
  const r = plan({
    tools: ['apt-get', 'dpkg-query', 'sudo', 'emcc'],
    installed: DEBS.filter((p) => p !== 'emscripten' && p !== 'cmake'),
    env: { EMSDK: '/opt/emsdk' },
  });
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /emscripten: the Emscripten SDK in \/opt\/emsdk/);
  assert.match(r.out, /installing Debian packages: cmake\n/);
});

test('macOS with Homebrew: the missing formulae, with brew', () => {
  const r = plan({ tools: ['brew', 'cmake', 'c++'], installed: ['catch2'] });
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /package manager: brew/);
  assert.match(r.out, /installing with Homebrew: emscripten ninja nlohmann-json redis\n/);
  assert.deepEqual(wouldRun(r.out).filter((l) => !l.startsWith('npm')), ['env NONINTERACTIVE=1 brew install emscripten ninja nlohmann-json redis']);
  assert.deepEqual(r.ran, []);
});

test('macOS with Homebrew and the Emscripten SDK: brew installs no emscripten', () => {
  const r = plan({ tools: ['brew', 'emcc', 'cmake', 'ninja', 'clang++', 'redis-server'], installed: ['nlohmann-json'], env: { EMSDK: '/Users/me/emsdk' } });
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /emscripten: the Emscripten SDK in \/Users\/me\/emsdk/);
  assert.match(r.out, /installing with Homebrew: catch2\n/);
});

test('macOS with everything: nothing to install; the e2e browser is found or its absence explained', () => {
  const r = plan({ tools: ['brew', 'emcc', 'cmake', 'ninja', 'c++', 'redis-server'], installed: ['catch2', 'nlohmann-json'] });
  assert.equal(r.status, 0, r.out);
  assert.match(r.out, /system packages: nothing to install/);
  const browser = ['/usr/bin/chromium', '/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'].find((f) => existsSync(f));
  if (browser) assert.match(r.out, new RegExp(`e2e browser: ${browser.replace(/[.]/g, '\\.')}`));
  else assert.match(r.out, /the e2e suite will be skipped/);
  const none = plan({ tools: ['brew', 'emcc', 'cmake', 'ninja', 'c++', 'redis-server'], installed: ['catch2', 'nlohmann-json'], env: { RULESTACK_CHROMIUM: '/nowhere/chrome' } });
  assert.match(none.out, /no Chromium or Chrome found: the e2e suite will be skipped.*RULESTACK_CHROMIUM=\/path\/to\/chrome npm test -- e2e/);
});

test('macOS without a C++ compiler: stops and says to install the Xcode command line tools', () => {
  const r = plan({ tools: ['brew', 'emcc', 'cmake', 'ninja'], installed: ['catch2', 'nlohmann-json'] });
  assert.equal(r.status, 1, r.out);
  assert.match(r.out, /xcode-select --install/);
  assert.deepEqual(r.ran, []);
});

test('no supported package manager: stops and lists exactly what is missing', () => {
  const inc = mkdtempSync(path.join(os.tmpdir(), 'rulestack-inc-'));
  try {
    mkdirSync(path.join(inc, 'nlohmann'));
    writeFileSync(path.join(inc, 'nlohmann', 'json.hpp'), '');
    const r = plan({ tools: ['cmake', 'g++'], env: { SETUP_INCLUDE_DIRS: inc } });
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /package manager: none/);
    assert.match(r.out, /no supported package manager \(apt-get or Homebrew\)/);
    const listed = r.out.split('\n').filter((l) => l.startsWith('setup:   - ')).map((l) => l.slice(11).split(' ')[0]);
    assert.deepEqual(listed, ['emscripten', 'ninja', 'Catch2', 'redis-server']);
    assert.deepEqual(r.ran, []);

    mkdirSync(path.join(inc, 'catch2'));
    writeFileSync(path.join(inc, 'catch2', 'catch.hpp'), '');
    const ok = plan({ tools: ['cmake', 'g++', 'ninja', 'emcc', 'redis-server'], env: { SETUP_INCLUDE_DIRS: inc, EMSDK: '/opt/emsdk' } });
    assert.equal(ok.status, 0, ok.out);
    assert.match(ok.out, /system packages: nothing to install/);
  } finally {
    rmSync(inc, { recursive: true, force: true });
  }
});
