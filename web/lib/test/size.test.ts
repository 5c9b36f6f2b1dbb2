// The size of what the package ships for the engine: engine.wasm plus its JS glue, gzip -9
// (README "Size and speed"). The budget is 150 KB, 150,000 B (DESIGN.md's target): above it the test fails.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const DIST_WASM = path.resolve(fileURLToPath(new URL('../wasm/', import.meta.url)));  // dist/wasm
const BUDGET = 150_000;

function shipped(): { total: number; detail: string } {
  const sizes = ['engine.wasm', 'engine.mjs'].map((f) => {
    const gz = zlib.gzipSync(readFileSync(path.join(DIST_WASM, f)), { level: 9 }).length;
    return { f, gz };
  });
  return { total: sizes[0]!.gz + sizes[1]!.gz, detail: sizes.map((s) => `${s.f} ${s.gz} B`).join(' + ') };
}

test('engine.wasm + engine.mjs are at most 150 KB gzip', () => {
  const { total, detail } = shipped();
  console.log(`shipped wasm + glue: ${detail} = ${total} B gzip (budget ${BUDGET} B)`);
  assert.ok(total <= BUDGET, `shipped wasm + glue: ${detail} = ${total} B gzip, over the budget of ${BUDGET} B (150 KB)`);
});
