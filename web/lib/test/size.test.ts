// The size budget of what the package ships for the engine (issue 15): engine.wasm plus its
// JS glue, gzip -9, at most 150 KiB together (README "Size and speed").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const DIST_WASM = path.resolve(fileURLToPath(new URL('../wasm/', import.meta.url)));  // dist/wasm
const BUDGET = 150 * 1024;

test('engine.wasm + engine.mjs are at most 150 KiB gzip', () => {
  const sizes = ['engine.wasm', 'engine.mjs'].map((f) => {
    const gz = zlib.gzipSync(readFileSync(path.join(DIST_WASM, f)), { level: 9 }).length;
    return { f, gz };
  });
  const total = sizes[0]!.gz + sizes[1]!.gz;
  const detail = sizes.map((s) => `${s.f} ${s.gz} B`).join(' + ');
  assert.ok(total <= BUDGET, `shipped wasm + glue: ${detail} = ${total} B gzip, over the budget of ${BUDGET} B (150 KiB)`);
});
