// Where engine.wasm comes from, and the error when it cannot be had: it names the place and
// the `wasmUrl` option. An http server stands in for a browser's fetch (the same code path:
// any http(s) wasmUrl is fetched). The tests run in order, in a process of their own, and
// the failed loads come first (a loaded engine is cached, a failed load is not).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadEngine } from '../index.js';

const WASM = readFileSync(fileURLToPath(new URL('../wasm/engine.wasm', import.meta.url)));
let server: http.Server;
let base: string;
const hits: string[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/assets/engine.wasm') {
      res.writeHead(200, { 'content-type': 'application/wasm' });
      res.end(WASM);
    } else if (req.url === '/spa/engine.wasm') {
      res.writeHead(200, { 'content-type': 'text/html' }); // a single-page app's fallback
      res.end('<!doctype html><title>app</title>');
    } else {
      res.writeHead(404, 'Not Found');
      res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const namesTheOption = (e: unknown) => e instanceof Error && /loadEngine\(\{ wasmUrl: /.test(e.message) && /wasmBinary/.test(e.message);

test('a wasmUrl file that is not there: the error names the path and the wasmUrl option', async () => {
  await assert.rejects(loadEngine({ wasmUrl: '/nonexistent/dir/engine.wasm' }), (e: unknown) => {
    assert.ok(namesTheOption(e), String(e));
    assert.match((e as Error).message, /^rulestack: cannot load engine\.wasm from \/nonexistent\/dir\/engine\.wasm: no such file\./);
    return true;
  });
});

test('a URL that answers 404: the error names the URL, the status and the wasmUrl option', async () => {
  await assert.rejects(loadEngine({ wasmUrl: `${base}/missing/engine.wasm` }), (e: unknown) => {
    assert.ok(namesTheOption(e), String(e));
    assert.ok((e as Error).message.startsWith(`rulestack: cannot load engine.wasm from ${base}/missing/engine.wasm: HTTP 404 Not Found.`), String(e));
    return true;
  });
});

test('a URL that answers with HTML: "not WebAssembly", with the content type', async () => {
  await assert.rejects(loadEngine({ wasmUrl: new URL(`${base}/spa/engine.wasm`) }), (e: unknown) => {
    assert.ok(namesTheOption(e), String(e));
    assert.match((e as Error).message, /spa\/engine\.wasm: this is not WebAssembly \(content-type text\/html\)\./);
    return true;
  });
});

test('a server that is not there: the fetch failure, and the option', async () => {
  await assert.rejects(loadEngine({ wasmUrl: 'http://127.0.0.1:1/engine.wasm' }), (e: unknown) => {
    assert.ok(namesTheOption(e), String(e));
    assert.match((e as Error).message, /from http:\/\/127\.0\.0\.1:1\/engine\.wasm: the fetch failed/);
    return true;
  });
});

test('WebAssembly that is not the engine (another module, another build): a rejection that says so', async () => {
  const empty = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]); // a valid, empty module
  await assert.rejects(loadEngine({ wasmBinary: empty }), (e: unknown) => {
    assert.match((e as Error).message, /^rulestack: engine\.wasm could not start: it is WebAssembly, but not the engine of this version/);
    return true;
  });
});

test('after the failures, a wasmUrl that serves engine.wasm loads the engine (fetched once)', async () => {
  const before = hits.length;
  const rs = await loadEngine({ wasmUrl: `${base}/assets/engine.wasm` });
  assert.deepEqual(hits.slice(before), ['/assets/engine.wasm']);
  const game = rs.createGame({ name: 'T', players: { count: 2 }, zones: [{ name: 'Board' }], flow: { phases: [{ name: 'Main', valid_actions: ['Noop'] }] }, actions: [{ name: 'Noop', mutations: [] }] });
  assert.deepEqual(game.legalMoves('0'), [{ action: 'Noop' }, { action: 'pass' }]);
  game.dispose();
  // later calls return the same engine without fetching again
  assert.equal(await loadEngine(), rs);
  assert.equal(hits.length, before + 1);
});
