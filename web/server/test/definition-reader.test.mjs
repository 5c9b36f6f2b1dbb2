// YAML definitions are read off the server's thread (definition-reader.mjs): the same JSON and
// the same located errors as createGame, within a time limit past which the definition is
// refused while the rooms play on.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { loadEngine, DefinitionError } from 'rulestack';
import { startServer } from './helpers.mjs';
import { DefinitionReader, MAX_WAITING, READER_BUSY, READ_SECONDS, definitionReader, isJsonText } from '../definition-reader.mjs';

const nexusYaml = readFileSync(new URL('../../../examples/nexus.yaml', import.meta.url), 'utf8');
// about 4 s of the yaml package's time (a quoted scalar where a node ends, a million times)
const slowYaml = '"a" '.repeat(1_000_000);
let rs, env;
before(async () => {
  rs = await loadEngine();
  env = await startServer();
});
after(async () => {
  await env.colyseus.shutdown();
  await definitionReader().close();
});

/** The longest the event loop was held while `promise` ran (a 10 ms ticker's largest gap). */
async function longestStall(promise) {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  try {
    await promise.catch(() => {});
  } finally {
    clearInterval(ticker);
  }
  return longest;
}

test('JSON text is read where it is; YAML, and text that is broken JSON, by the reader', () => {
  assert.equal(isJsonText('{"name": "x"}'), true);
  assert.equal(isJsonText('  [1, 2]'), true);
  assert.equal(isJsonText('name: x'), false);
  assert.equal(isJsonText('{name: x}'), false, 'a YAML flow mapping');
  assert.equal(isJsonText('{"name": '), false);
});

test("the reader gives createGame's JSON, and its errors located in the YAML text", async () => {
  const reader = new DefinitionReader({ size: 1 });
  try {
    assert.equal(await reader.read(nexusYaml), rs.parse(nexusYaml).json);
    const broken = 'name: T\nplayers: { count: 2 }\nname: U\n';
    await assert.rejects(reader.read(broken), (e) => {
      assert.ok(e instanceof DefinitionError);
      assert.deepEqual(e.errors, rs.validate(broken));
      assert.deepEqual(e.errors[0], { path: '', message: 'YAML syntax error: Map keys must be unique', line: 3, column: 1 });
      return true;
    });
    const invalid = 'name: T\nplayers: { count: 2 }\n';
    await assert.rejects(reader.read(invalid), (e) => {
      assert.deepEqual(e.errors, rs.validate(invalid));
      assert.match(e.errors[0].message, /missing required key 'flow'/);
      return true;
    });
  } finally {
    await reader.close();
  }
});

test('a text slower to read than the limit is refused, the thread never held; the next reading works', async () => {
  const reader = new DefinitionReader({ size: 1, seconds: 0.3 });
  try {
    const t0 = performance.now();
    const slow = reader.read(slowYaml);
    // a second reading waits for the worker, whose place a fresh one takes
    const next = reader.read('name: T\n');
    const stall = await longestStall(slow);
    await assert.rejects(slow, { name: 'DefinitionError', message: /the definition took more than 0\.3 s to read/ });
    // (the readings after it have the usual limit: a fresh worker on a loaded machine may take more than 0.3 s to read Nexus)
    reader.seconds = READ_SECONDS;
    assert.ok(performance.now() - t0 < 2500, `refused at its limit (${Math.round(performance.now() - t0)} ms)`);
    assert.ok(stall < 250, `the event loop was held ${Math.round(stall)} ms`);
    await assert.rejects(next, (e) => e.errors.some((x) => /missing required key 'players'/.test(x.message)));
    assert.equal(await reader.read(nexusYaml), rs.parse(nexusYaml).json);
  } finally {
    await reader.close();
  }
});

test(`at most ${MAX_WAITING} readings wait for a worker: one more is refused at once, the others read in turn`, async () => {
  assert.equal(MAX_WAITING, 8);
  const reader = new DefinitionReader({ size: 1, waiting: 2 });
  try {
    // (in one turn of the event loop: the first takes the worker, the next two wait)
    const first = reader.read(nexusYaml);
    const waiting = [reader.read('name: A\n'), reader.read(nexusYaml)];
    await assert.rejects(reader.read(nexusYaml), (e) => {
      assert.ok(!(e instanceof DefinitionError), 'the text is not at fault');
      assert.equal(e.message, READER_BUSY);
      return true;
    });
    // an example of the server's own waits whatever the queue holds
    const example = reader.read(nexusYaml, { example: true });
    assert.equal(await first, rs.parse(nexusYaml).json);
    await assert.rejects(waiting[0], (e) => e.errors.some((x) => /missing required key 'players'/.test(x.message)));
    assert.equal(await waiting[1], rs.parse(nexusYaml).json);
    assert.equal(await example, rs.parse(nexusYaml).json);
    // the queue emptied: readings are taken again
    assert.equal(await reader.read(nexusYaml), rs.parse(nexusYaml).json);
  } finally {
    await reader.close();
  }
});

test('a reader of no workers or a bad queue is refused; with none waiting allowed, a free worker still reads; a worker that cannot start fails the readings', async () => {
  assert.throws(() => new DefinitionReader({ size: 0 }), { name: 'RangeError', message: "rulestack server: a pool's size must be a whole number from 1, not 0" });
  assert.throws(() => new DefinitionReader({ waiting: -1 }), { name: 'RangeError', message: 'rulestack server: the readings waiting must be a whole number from 0, not -1' });
  const reader = new DefinitionReader({ size: 1, waiting: 0 });
  try {
    const first = reader.read('name: A\n');
    await assert.rejects(reader.read('name: B\n'), { message: READER_BUSY });
    await assert.rejects(first, (e) => e.errors.some((x) => /missing required key 'players'/.test(x.message)));
    assert.equal(await reader.read(nexusYaml), rs.parse(nexusYaml).json, 'its worker free again: read');
  } finally {
    await reader.close();
  }
  const broken = new DefinitionReader({ size: 1, workerUrl: new URL('http://example.org/reader.mjs') });
  await assert.rejects(broken.read('name: A\n'), { code: 'ERR_INVALID_URL_SCHEME' });
  await broken.close();
});

test('a room: YAML errors as createGame gives them; slow YAML refused while another room is made and played', async () => {
  await assert.rejects(env.colyseus.sdk.create('rulestack', { definition: 'name: T\nname: U\n' }), {
    message: /^rulestack room: invalid definition: \/: YAML syntax error: Map keys must be unique \(line 2, column 1\)/,
  });
  const shared = definitionReader();
  const seconds = shared.seconds;
  shared.seconds = 0.3;
  try {
    const slow = env.colyseus.sdk.create('rulestack', { definition: slowYaml });
    // meanwhile, a room from an example (its YAML read by another worker, or after) and one from JSON
    const json = rs.parse(readFileSync(new URL('../../../examples/tictactoe.yaml', import.meta.url), 'utf8')).json;
    const room = await env.colyseus.sdk.create('rulestack', { definition: json, seed: 3 });
    const update = await new Promise((resolve) => room.onMessage('update', resolve));
    assert.equal(update.seat, '0');
    await assert.rejects(slow, { message: 'rulestack room: invalid definition: /: the definition took more than 0.3 s to read' });
    await room.leave();
  } finally {
    shared.seconds = seconds;
  }
});
