// Smoke test of the npm package in node: the wrapper loads the wasm engine, and a game's
// state hash is the same as the native build's (build/native/rulestack-native hash).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../index.js';

// This file runs as dist/test/smoke.test.js.
const repo = (p: string) => fileURLToPath(new URL(`../../${p}`, import.meta.url));
const tinyGamePath = repo('tests/data/minimal-game.json');
const nativeCli = repo('build/native/rulestack-native');

test('the engine loads and reports its version', async () => {
  const rs = await loadEngine();
  assert.match(rs.version(), /\S/);
});

test('validateDefinition answers {"errors":[...]}, non-empty for text that is not JSON', async () => {
  const rs = await loadEngine();
  const empty = JSON.parse(rs.module.validateDefinition('{}'));
  assert.ok(Array.isArray(empty.errors));
  const bad = JSON.parse(rs.module.validateDefinition('nonsense'));
  assert.ok(Array.isArray(bad.errors) && bad.errors.length > 0);
  assert.ok(Array.isArray(rs.validate('{}')));
  assert.ok(rs.validate('nonsense').length > 0);
});

test('the state hash is 16 hex digits, the same in wasm and native', async () => {
  const rs = await loadEngine();
  const seed = 7;
  const game = rs.createGame(readFileSync(tinyGamePath, 'utf8'), { seed });
  const hash = game.stateHash();
  game.dispose();
  assert.match(hash, /^[0-9a-f]{16}$/);
  assert.ok(existsSync(nativeCli), `${nativeCli} is not built (node scripts/build.mjs native)`);
  const native = execFileSync(nativeCli, ['hash', tinyGamePath, String(seed)], { encoding: 'utf8' }).trim();
  assert.equal(hash, native);
});
