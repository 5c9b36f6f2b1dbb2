// The size of what the package ships for the engine: engine.wasm plus its JS glue, gzip -9
// (README "Size and speed"). The budget is 150 KiB (issue 15, not met yet: a todo that
// prints the figure); meanwhile the size must not grow past where it is now.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const DIST_WASM = path.resolve(fileURLToPath(new URL('../wasm/', import.meta.url)));  // dist/wasm
const BUDGET = 150 * 1024;
const CEILING = 168_000;  // today's 165,652 B and a little room: a growth past it fails

function shipped(): { total: number; detail: string } {
  const sizes = ['engine.wasm', 'engine.mjs'].map((f) => {
    const gz = zlib.gzipSync(readFileSync(path.join(DIST_WASM, f)), { level: 9 }).length;
    return { f, gz };
  });
  return { total: sizes[0]!.gz + sizes[1]!.gz, detail: sizes.map((s) => `${s.f} ${s.gz} B`).join(' + ') };
}

test('engine.wasm + engine.mjs do not grow past where they are (168,000 B gzip)', () => {
  const { total, detail } = shipped();
  assert.ok(total <= CEILING, `shipped wasm + glue: ${detail} = ${total} B gzip, over ${CEILING} B`);
});

test('engine.wasm + engine.mjs are at most 150 KiB gzip', { todo: 'issue 15: the budget is not met yet' }, () => {
  const { total, detail } = shipped();
  assert.ok(total <= BUDGET, `shipped wasm + glue: ${detail} = ${total} B gzip, over the budget of ${BUDGET} B (150 KiB)`);
});
