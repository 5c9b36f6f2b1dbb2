// The server's HTTP side (Colyseus's matchmaking requests, which carry a room's options): a
// request body over MAX_REQUEST_BYTES is refused before it is read (413), over a raw socket
// and through the client; one as large as the largest definition the room takes still
// reaches the room.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { join } from 'rulestack/client';
import { fromAddress, spawnServer, startServer } from './helpers.mjs';
import { MAX_BODIES_PER_ADDRESS, MAX_REQUEST_BYTES, REQUEST_LIMIT, REQUEST_TOO_LARGE, SERVER_BUSY, TOO_MANY_REQUESTS, createServer } from '../server.mjs';
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
function rawRequest(head, bodyChunks = [], ms = 5000, port = env.port) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
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

// (servers of their own: `npm run server` with its limits set, as Colyseus keeps one matchmaker a process)
describe('requests a second, and bodies at once, from one address', () => {
  const createHead = (port, body) =>
    ['POST /matchmake/create/rulestack HTTP/1.1', `Host: 127.0.0.1:${port}`, 'Content-Type: application/json', 'Origin: https://example.org', `Content-Length: ${body.length}`, 'Connection: close', '', body].join('\r\n');
  const body = JSON.stringify({ game: 'tictactoe', seed: 1 });

  test('the defaults, and bad limits refused with their names', () => {
    assert.deepEqual(REQUEST_LIMIT, { burst: 60, perSecond: 2, readingBytes: 256 * 1024 * 1024, addresses: 100_000 });
    assert.equal(MAX_BODIES_PER_ADDRESS, 4);
    assert.throws(() => createServer({ requestLimit: { burst: 0 } }), { message: 'rulestack server: the request limit burst must be a whole number from 1, not 0' });
    assert.throws(() => createServer({ requestLimit: { perSecond: 0 } }), { message: 'rulestack server: the request limit perSecond must be a number above 0, not 0' });
    assert.throws(() => createServer({ requestLimit: { readingBytes: 0.5 } }), { message: 'rulestack server: the request limit readingBytes must be a whole number from 1, not 0.5' });
    assert.throws(() => createServer({ requestLimit: { brust: 1 } }), { message: "rulestack server: unknown request limit 'brust' (limits: burst, perSecond, readingBytes, addresses)" });
    assert.throws(() => createServer({ requestLimit: { addresses: -1 } }), { message: 'rulestack server: the request limit addresses must be a whole number from 1, not -1' });
  });

  test('past its burst an address is refused (429, with Retry-After and CORS), another address is not; a token comes back in time', async () => {
    const server = await spawnServer({ REQUEST_BURST: '3', REQUEST_PER_SECOND: '0.5' });
    try {
      for (let i = 0; i < 3; i++) {
        const { response } = await rawRequest(createHead(server.port, body), [], 5000, server.port);
        assert.equal(status(response), 200, response);
      }
      const { response } = await rawRequest(createHead(server.port, body), [], 5000, server.port);
      assert.equal(status(response), 429, response);
      assert.deepEqual(jsonBody(response), { code: 429, error: TOO_MANY_REQUESTS });
      assert.match(response, /\r\nretry-after: 2\r\n/i);
      assert.match(response, /\r\naccess-control-allow-origin: https:\/\/example\.org\r\n/i);
      // through the client, the reason and the code
      await assert.rejects(join(server.url, { game: 'tictactoe' }), { message: `rulestack client: cannot create a room at ${server.url}: ${TOO_MANY_REQUESTS} (429)`, code: 429 });
      // another address has its own budget
      const other = await fromAddress('127.0.0.2', () => join(server.url, { game: 'tictactoe', seed: 2 }));
      assert.equal(other.seat, '0');
      await other.leave();
      // 0.5 a second: one more after 2 s
      await new Promise((r) => setTimeout(r, 2100));
      assert.equal(status((await rawRequest(createHead(server.port, body), [], 5000, server.port)).response), 200);
    } finally {
      server.child.kill('SIGTERM');
    }
  });

  test('at most `addresses` addresses are kept: a new one past them is refused (503) until one is idle; a known one is not', async () => {
    const server = await spawnServer({ REQUEST_ADDRESSES: '2', REQUEST_BURST: '2', REQUEST_PER_SECOND: '1' });
    try {
      const from = (address, head = createHead(server.port, body)) => fromAddress(address, async () => (await rawRequest(head, [], 5000, server.port)).response);
      assert.equal(status(await from('127.0.0.2')), 200);
      assert.equal(status(await from('127.0.0.3')), 200);
      const third = await from('127.0.0.4');
      assert.equal(status(third), 503, third);
      assert.deepEqual(jsonBody(third), { code: 503, error: SERVER_BUSY });
      assert.match(third, /\r\nretry-after: 1\r\n/i);
      // a known address goes on (its second token)
      assert.equal(status(await from('127.0.0.2')), 200);
      // one a second: 127.0.0.3's bucket is full again after 1 s, idle, and forgotten when a new
      // address comes (a full table is looked at again a second after it was last)
      await new Promise((r) => setTimeout(r, 1200));
      assert.equal(status(await from('127.0.0.4')), 200);
    } finally {
      server.child.kill('SIGTERM');
    }
  });

  test('one order of refusals with and without 100 Continue: a body declared too large is 413 even from an address past its budget', async () => {
    const server = await spawnServer({ REQUEST_BURST: '1', REQUEST_PER_SECOND: '0.1' });
    try {
      const tooLarge = (extra) => ['POST /matchmake/create/rulestack HTTP/1.1', `Host: 127.0.0.1:${server.port}`, 'Content-Type: application/json', ...extra, `Content-Length: ${MAX_REQUEST_BYTES + 1}`, '', ''].join('\r\n');
      const ask = async (head) => (await rawRequest(head, [], 5000, server.port)).response;
      assert.equal(status(await ask(createHead(server.port, body))), 200);
      // the budget spent (one request, then one in 10 s): a small request is 429
      assert.equal(status(await ask(createHead(server.port, body))), 429);
      for (const extra of [[], ['Expect: 100-continue']]) {
        const response = await ask(tooLarge(extra));
        assert.equal(status(response), 413, response);
        assert.deepEqual(jsonBody(response), { code: 413, error: REQUEST_TOO_LARGE });
        assert.doesNotMatch(response, /100 Continue/);
      }
    } finally {
      server.child.kill('SIGTERM');
    }
  });

  test(`at most ${MAX_BODIES_PER_ADDRESS} bodies arriving at once from one address; one that ends frees its place`, async () => {
    const server = await spawnServer({ REQUEST_BURST: '100' });
    try {
      const stalled = (ms) =>
        rawRequest(
          ['POST /matchmake/create/rulestack HTTP/1.1', `Host: 127.0.0.1:${server.port}`, 'Content-Type: application/json', 'Content-Length: 1000', '', '{"game":'].join('\r\n'),
          [],
          ms,
          server.port,
        );
      // four bodies that never end (their connections closed by the client after 1.5 s)
      const held = Array.from({ length: MAX_BODIES_PER_ADDRESS }, () => stalled(1500));
      await new Promise((r) => setTimeout(r, 300));
      const fifth = await stalled(1000);
      assert.equal(status(fifth.response), 429, fifth.response || '(no answer: the fifth body was being read)');
      for (const { response } of await Promise.all(held)) assert.equal(response, '', 'the four were being read, unanswered');
      // their connections closed: the address may send bodies again
      await new Promise((r) => setTimeout(r, 200));
      const { response } = await rawRequest(createHead(server.port, body), [], 5000, server.port);
      assert.equal(status(response), 200, response);
    } finally {
      server.child.kill('SIGTERM');
    }
  });
  test('the bodies of all addresses together are kept within readingBytes: one that would pass it is refused (503, with Retry-After); room comes back as they end', async () => {
    const server = await spawnServer({ REQUEST_BURST: '100', REQUEST_READING_BYTES: '3000' });
    try {
      const head = (length, extra = []) =>
        ['POST /matchmake/create/rulestack HTTP/1.1', `Host: 127.0.0.1:${server.port}`, 'Content-Type: application/json', 'Origin: https://example.org', 'Connection: close', ...extra, ...(length === null ? ['Transfer-Encoding: chunked'] : [`Content-Length: ${length}`]), '', ''].join('\r\n');
      // a valid room request padded to `length` bytes
      const padded = (length) => body.slice(0, -1) + ' '.repeat(length - body.length) + '}';
      const chunk = (text) => `${text.length.toString(16)}\r\n${text}\r\n`;
      // what comes back before the connection closes (the server closes it, or the test does: `sockets`)
      const sockets = [];
      const from = (localAddress, text, chunks = [], ms = 10_000) =>
        new Promise((resolve) => {
          const socket = net.connect({ port: server.port, host: '127.0.0.1', localAddress });
          sockets.push(socket);
          let response = '';
          const timer = setTimeout(() => socket.destroy(), ms);
          socket.on('data', (d) => (response += d));
          socket.on('close', () => (clearTimeout(timer), resolve(response)));
          socket.on('error', () => {});
          socket.on('connect', () => {
            socket.write(text);
            for (const c of chunks) socket.write(c);
          });
        });
      /** The status of `request()`, asked again while it is 503 (the server hears of a closed connection a moment after the client). */
      const onceRoom = async (request) => {
        let response;
        for (let i = 0; i < 25 && status((response = await request())) === 503; i++) await new Promise((r) => setTimeout(r, 200));
        return response;
      };
      // a request that declares a body and sends none holds nothing: another of 3,000 is read
      void from('127.0.0.6', head(1200), [], 60_000);
      const empty = sockets[0];
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(status(await from('127.0.0.4', head(3000) + padded(3000))), 200);
      // two addresses send 1,200 bytes of a 1,300-byte body each and stall: 2,400 of 3,000 kept
      const stalled = ['127.0.0.2', '127.0.0.3'].map((a) => from(a, head(1300) + '{"game":' + ' '.repeat(1192), [], 60_000));
      const [first, second] = sockets.slice(-2);
      await new Promise((r) => setTimeout(r, 500));
      // a third address's 1,000-byte body would pass the bound: refused before it is read
      const third = await from('127.0.0.4', head(1000) + padded(1000));
      assert.equal(status(third), 503, third);
      assert.deepEqual(jsonBody(third), { code: 503, error: SERVER_BUSY });
      assert.match(third, /\r\nretry-after: 1\r\n/i);
      assert.match(third, /\r\naccess-control-allow-origin: https:\/\/example\.org\r\n/i);
      // so is one that waits for 100 Continue: it is not told to send its body
      const waiting = await from('127.0.0.4', head(1000, ['Expect: 100-continue']));
      assert.equal(status(waiting), 503, waiting);
      assert.doesNotMatch(waiting, /100 Continue/);
      // a body within what is left is read and answered
      assert.equal(status(await from('127.0.0.4', head(body.length) + body)), 200);
      // a chunked body is counted as it comes: refused once it passes what is left
      const chunked = await from('127.0.0.5', head(null), [chunk(' '.repeat(400)), chunk(' '.repeat(400))]);
      assert.equal(status(chunked), 503, chunked);
      // the stalled ones closed: all their room is free again (nothing of the refused ones is kept)
      for (const socket of [first, second, empty]) socket.destroy();
      for (const response of await Promise.all(stalled)) assert.equal(response, '', 'the two were being read, unanswered');
      const whole = await onceRoom(() => from('127.0.0.4', head(3000) + padded(3000)));
      assert.equal(status(whole), 200, whole);
      assert.equal(status(await from('127.0.0.5', head(null), [chunk(padded(3000)), '0\r\n\r\n'])), 200);
    } finally {
      server.child.kill('SIGTERM');
    }
  });
});
