// The server's HTTP side (Colyseus's matchmaking requests, which carry a room's options): a
// request body over MAX_REQUEST_BYTES is refused before it is read (413), over a raw socket
// and through the client; one as large as the largest definition the room takes still
// reaches the room.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { join } from 'rulestack/client';
import { startServer } from './helpers.mjs';
import { MAX_REQUEST_BYTES, REQUEST_TOO_LARGE } from '../server.mjs';
import { MAX_DEFINITION_BYTES } from '../options.mjs';

let env;
before(async () => {
  env = await startServer();
});
after(() => env.colyseus.shutdown());

/**
 * Opens a connection, writes `head` (the request line and headers), then `body` chunk by
 * chunk (as long as the server reads), and resolves with { response: what came back before
 * the connection closed, or within `ms`; sent: the body's bytes written by then }.
 */
function rawRequest(head, bodyChunks = [], ms = 5000) {
  return new Promise((resolve) => {
    const socket = net.connect({ port: env.port, host: '127.0.0.1' });
    let response = '';
    let sent = 0;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ response, sent });
    };
    const timer = setTimeout(finish, ms);
    socket.on('data', (d) => (response += d));
    socket.on('close', finish);
    socket.on('error', finish); // (a reset while writing: what came back is still the answer)
    socket.on('connect', async () => {
      socket.write(head);
      for (const chunk of bodyChunks) {
        if (done || socket.destroyed) break;
        if (!socket.write(chunk)) await new Promise((r) => socket.once('drain', r).once('close', r));
        sent += chunk.length;
      }
    });
  });
}

const status = (response) => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1]);
/** The JSON body of a response (sent whole, or in chunks). */
function jsonBody(response) {
  const split = response.indexOf('\r\n\r\n');
  let body = response.slice(split + 4);
  if (/\r\ntransfer-encoding: chunked\r\n/i.test(response.slice(0, split + 2))) {
    let text = '';
    for (let at = 0, size; (size = parseInt(body.slice(at, body.indexOf('\r\n', at)), 16)) > 0; ) {
      const start = body.indexOf('\r\n', at) + 2;
      text += body.slice(start, start + size);
      at = start + size + 2;
    }
    body = text;
  }
  return JSON.parse(body);
}

test('the limit: above twice the largest definition (JSON may double a text) plus room for the other options', () => {
  assert.equal(MAX_REQUEST_BYTES, 2 * MAX_DEFINITION_BYTES + 1024 * 1024);
  assert.equal(REQUEST_TOO_LARGE, 'rulestack server: the request is larger than 17 MiB (17825792 bytes): it was not read (a definition may be at most 8 MB)');
});

test('a matchmaking request whose Content-Length is over the limit is refused at once (413), before its body is sent', async () => {
  const head = [
    'POST /matchmake/create/rulestack HTTP/1.1',
    `Host: 127.0.0.1:${env.port}`,
    'Content-Type: application/json',
    'Origin: https://example.org',
    `Content-Length: ${30 * 1024 * 1024}`,
    '',
    '{"definition":"',
  ].join('\r\n');
  // only the head and 15 bytes of a 30 MB body: a server that reads the body first never answers
  const { response } = await rawRequest(head);
  assert.equal(status(response), 413, response || '(no answer within 5 s)');
  assert.deepEqual(jsonBody(response), { code: 413, error: REQUEST_TOO_LARGE });
  assert.match(response, /\r\nconnection: close\r\n/i);
  assert.match(response, /\r\naccess-control-allow-origin: https:\/\/example\.org\r\n/i, 'a page on another origin can read why');
});

test('a client waiting for 100 Continue is refused without it, so it never sends the body', async () => {
  const head = ['POST /matchmake/create/rulestack HTTP/1.1', `Host: 127.0.0.1:${env.port}`, 'Content-Type: application/json', 'Expect: 100-continue', `Content-Length: ${MAX_REQUEST_BYTES + 1}`, '', ''].join('\r\n');
  const { response } = await rawRequest(head);
  assert.equal(status(response), 413, response || '(no answer within 5 s)');
  assert.doesNotMatch(response, /100 Continue/);
});

test('a chunked body (no Content-Length) is refused as soon as it passes the limit; what it sent is not kept', async () => {
  const head = ['POST /matchmake/create/rulestack HTTP/1.1', `Host: 127.0.0.1:${env.port}`, 'Content-Type: application/json', 'Transfer-Encoding: chunked', '', ''].join('\r\n');
  const MiB = 1024 * 1024;
  const chunked = (data) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
  const piece = chunked(Buffer.alloc(MiB, 'x'));
  // 40 MiB offered, the body never ended: a server that reads it all never answers
  const { response, sent } = await rawRequest(head, [chunked(Buffer.from('{"definition":"')), ...Array(40).fill(piece)], 10_000);
  assert.equal(status(response), 413, response || '(no answer within 10 s)');
  assert.deepEqual(jsonBody(response), { code: 413, error: REQUEST_TOO_LARGE });
  assert.ok(sent < 30 * MiB, `refused while the client was still sending: ${sent} bytes written`);
});

test('through the client: a room asked for with a 30 MB definition is refused with the 413 and its reason', async () => {
  await assert.rejects(join(env.url, { definition: 'x'.repeat(30 * 1024 * 1024) }), (e) => {
    assert.equal(e.message, `rulestack client: cannot create a room at ${env.url}: ${REQUEST_TOO_LARGE} (413)`);
    assert.equal(e.code, 413);
    return true;
  });
  // the server goes on
  const game = await join(env.url, { game: 'tictactoe', seed: 1 });
  assert.equal(game.seat, '0');
  await game.leave();
});

test('a definition of the largest size the room takes, doubled by JSON, still reaches the room', async () => {
  // 8 MB of a YAML comment full of quotes: each quote is two bytes in the request (16 MB)
  const largest = `# ${'"'.repeat(MAX_DEFINITION_BYTES - 2)}`;
  assert.ok(Buffer.byteLength(JSON.stringify({ definition: largest })) > 2 * MAX_DEFINITION_BYTES - 10);
  await assert.rejects(join(env.url, { definition: largest }), {
    message: `rulestack client: cannot create a room at ${env.url}: rulestack room: invalid definition: /: the definition must be an object (a mapping) (line 1, column 1) (526)`,
  });
  // one byte more: the room's own size check, not the transport's limit
  await assert.rejects(join(env.url, { definition: `${largest}"` }), {
    message: `rulestack client: cannot create a room at ${env.url}: rulestack room: invalid definition: /: the definition is larger than 8 MB (526)`,
  });
});

test('a request within the limit is read and answered as before: the room gets its options', async () => {
  const body = JSON.stringify({ game: 'chess' });
  const head = ['POST /matchmake/create/rulestack HTTP/1.1', `Host: 127.0.0.1:${env.port}`, 'Content-Type: application/json', `Content-Length: ${body.length}`, 'Connection: close', '', body].join('\r\n');
  const { response } = await rawRequest(head);
  assert.equal(status(response), 526, response);
  assert.match(jsonBody(response).error, /^rulestack room: unknown game 'chess' \(examples: /);
  // and sent chunked, without a Content-Length
  const chunkedHead = ['POST /matchmake/create/rulestack HTTP/1.1', `Host: 127.0.0.1:${env.port}`, 'Content-Type: application/json', 'Transfer-Encoding: chunked', 'Connection: close', '', ''].join('\r\n');
  const chunked = await rawRequest(chunkedHead, [`${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`]);
  assert.equal(status(chunked.response), 526, chunked.response);
  assert.match(jsonBody(chunked.response).error, /^rulestack room: unknown game 'chess'/);
});
