// The two command lines (bin/rulestack.mjs on the wasm engine, build/native/rulestack-native)
// where docs/api.md says they agree, and which files a scenario folder holds: each case here
// once differed (a read of docs/api.md against both, from outside).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// This file runs as dist/test/cli-agree.test.js.
const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'rulestack-cli-agree-'));
const node = (...args: string[]) => spawnSync(process.execPath, [repo('bin/rulestack.mjs'), ...args], { cwd: dir, encoding: 'utf8' });
const native = (...args: string[]) => spawnSync(repo('build/native/rulestack-native'), args, { cwd: dir, encoding: 'utf8' });

const game = JSON.parse(readFileSync(repo('tests/data/minimal-game.json'), 'utf8')) as Record<string, unknown>;
writeFileSync(path.join(dir, 'game.json'), JSON.stringify({ ...game, end_conditions: [{ when: '$turn >= 3', draw: true }] }));
writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ ...game, flwo: 1 }));

test('simulate off a terminal: a progress line at every tenth of the games, natively too', () => {
  const tenths = (games: number) => Array.from({ length: 10 }, (_, i) => ((i + 1) * games) / 10);
  for (const cli of [node, native])
    for (const [games, args] of [[200, []], [100, ['--batch', '10']]] as const) {
      const r = cli('simulate', 'game.json', '--games', String(games), ...args);
      assert.equal(r.status, 0, r.stderr);
      const done = [...r.stderr.matchAll(new RegExp(`^simulate: (\\d+)/${games} games$`, 'gm'))].map((m) => Number(m[1]));
      assert.deepEqual(done, tenths(games), `${cli === node ? 'node' : 'native'} --games ${games} ${args.join(' ')}`);
    }
});

test('simulate --json of a game with errors: { ok: false, errors } on stdout, natively too', () => {
  const a = node('simulate', 'bad.json', '--json');
  const b = native('simulate', 'bad.json', '--json');
  for (const r of [a, b]) {
    assert.equal(r.status, 1);
    assert.equal(r.stderr, '');
  }
  const [x, y] = [JSON.parse(a.stdout), JSON.parse(b.stdout)];
  assert.equal(y.ok, false);
  assert.deepEqual(
    y.errors.map((e: { file: string; path: string; message: string }) => [e.file, e.path, e.message]),
    x.errors.map((e: { file: string; path: string; message: string }) => [e.file, e.path, e.message]),
  );
  assert.match(y.errors[0].message, /unknown key 'flwo'/);
});

test('test: a scenario that fails as a whole names no step, natively too; a folder holds the files with top-level steps or game', () => {
  mkdirSync(path.join(dir, 'scen'));
  writeFileSync(path.join(dir, 'scen', 'game.json'), JSON.stringify(game));
  writeFileSync(path.join(dir, 'scen', 'whole.json'), JSON.stringify({ name: 'whole', game: 'game.json', step: [] }));
  for (const cli of [node, native]) {
    const r = cli('test', 'scen/whole.json');
    assert.equal(r.status, 1);
    assert.equal(r.stdout.trim(), "FAIL whole: the scenario needs 'steps' (a list)");
  }
  // a game whose properties hold a key named steps is no scenario; a flow-style YAML one is
  mkdirSync(path.join(dir, 'folder'));
  writeFileSync(path.join(dir, 'folder', 'g.json'), JSON.stringify({ ...game, players: { count: 2, properties: { steps: 0 } } }));
  writeFileSync(path.join(dir, 'folder', 'flow.yaml'), '{ name: flow scenario, game: g.json, steps: [{ expect: "$turn == 1" }] }\n');
  writeFileSync(path.join(dir, 'folder', 'data.json'), '[1, 2]'); // (not a mapping: no scenario either)
  const r = node('test', 'folder');
  assert.equal(r.status, 0, r.stdout + r.stderr);
  assert.match(r.stdout, /^PASS flow scenario$/m);
  assert.doesNotMatch(r.stdout, /g\.json|Minimal|data/);
  assert.equal(r.stdout.trim().split('\n').length, 1, r.stdout); // the scenario's line alone
  const n = native('test', 'folder'); // (natively only the .json files: none is a scenario)
  assert.equal(n.status, 1);
  assert.match(n.stdout + n.stderr, /no scenario in folder/);
});

test('stdin gives the game or the moves, not both (exit 2), natively too; an overridden budget is in the header', () => {
  const text = readFileSync(path.join(dir, 'game.json'), 'utf8');
  for (const [name, bin] of [['node', repo('bin/rulestack.mjs')], ['native', repo('build/native/rulestack-native')]] as const) {
    const args = name === 'node' ? [bin, 'play', '-', '--moves', '-'] : ['play', '-', '--moves', '-'];
    const r = spawnSync(name === 'node' ? process.execPath : bin, args, { cwd: dir, encoding: 'utf8', input: text });
    assert.equal(r.status, 2, `${name}: ${r.stderr}`);
    assert.match(r.stderr, /stdin can give the game or the moves, not both/, name);
  }
  for (const cli of [node, native]) {
    const r = cli('simulate', 'game.json', '--games', '2', '--bot', 'easy', '--iterations', '5');
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^games {8}2 \(easy bots, 5 iterations, seed 0\)$/m);
  }
});

test('a scenario key it does not have, and a moves-file line with a key it does not have, are refused, natively too', () => {
  writeFileSync(path.join(dir, 'stepz.json'), JSON.stringify({ name: 'typo', game: 'game.json', steps: [], stepz: [] }));
  writeFileSync(path.join(dir, 'extra.jsonl'), '{"player": "0", "move": {"action": "pass"}, "extra": 1}\n');
  for (const cli of [node, native]) {
    const t = cli('test', 'stepz.json');
    assert.equal(t.status, 1, cli === node ? 'node' : 'native');
    assert.equal(t.stdout.trim(), "FAIL typo: unknown key 'stepz' in the scenario (keys: name, game, seed, steps)");
    const p = cli('play', 'game.json', '--moves', 'extra.jsonl');
    assert.equal(p.status, 1);
    assert.equal(p.stderr.trim(), `line 1: malformed_move: unknown key 'extra' (a line has "player" and "move", nothing else)`);
  }
});
