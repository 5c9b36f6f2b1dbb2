// Determinism: 1,000 random games of the Duel give the same final state hashes in wasm (this
// package's engine) and natively (build/native/rulestack-native hashes). Game i uses seed + i.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { loadEngine } from '../index.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url)); // dist/test/ -> repo root
const NATIVE = path.join(ROOT, 'build/native/rulestack-native');
const GAMES = 1000;
const SEED = 20240;

test(`Duel: ${GAMES} random games end in the same state hashes in wasm and natively`, { timeout: 15_000 }, async () => {
  assert.ok(existsSync(NATIVE), `${NATIVE} is missing (node scripts/build.mjs native)`);
  const duel = parseYaml(readFileSync(path.join(ROOT, 'examples/duel.yaml'), 'utf8')) as Record<string, unknown>;
  const json = JSON.stringify(duel);

  const rs = await loadEngine();
  const wasm = rs.simulate(duel, { games: GAMES, seed: SEED, hashes: true });
  assert.equal(wasm.games, GAMES);
  assert.equal(wasm.errors, 0);
  assert.equal(wasm.unfinished, 0);
  const wasmHashes = wasm.hashes ?? [];
  assert.equal(wasmHashes.length, GAMES);
  for (const h of wasmHashes) assert.match(h, /^[0-9a-f]{16}$/);

  const dir = mkdtempSync(path.join(tmpdir(), 'rulestack-determinism-'));
  try {
    const file = path.join(dir, 'duel.json');
    writeFileSync(file, json);
    const r = spawnSync(NATIVE, ['hashes', file, '--games', String(GAMES), '--seed', String(SEED)], {
      encoding: 'utf8',
      timeout: 12_000,
    });
    assert.equal(r.status, 0, `rulestack-native hashes failed: ${r.stderr}`);
    const nativeHashes = r.stdout.trim().split('\n');
    assert.equal(nativeHashes.length, GAMES);
    const differ = wasmHashes.findIndex((h, i) => h !== nativeHashes[i]);
    assert.equal(differ, -1, `game ${differ} (seed ${SEED + differ}): wasm ${wasmHashes[differ]}, native ${nativeHashes[differ]}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  // the games differ from each other (the hashes are not all the same constant)
  assert.ok(new Set(wasmHashes).size > GAMES * 0.9);
});
