// Game records outlive their room a while (for a resume), then are dropped: a long-running
// server does not keep every game it hosted. The memory store and Redis, and the room's part.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { MemoryStore, RedisStore } from '../record-store.mjs';
import { startServer, startRedis, sleep } from './helpers.mjs';

const header = { game: 'tictactoe' };

test('memory store: a retired record is dropped after its time, unless kept again', async () => {
  const store = new MemoryStore({ ttlSeconds: 0.2 });
  await store.create('a', header);
  await store.append('a', { player: '0', move: { action: 'Mark' } });
  await store.create('b', header);
  await store.retire('a');
  await store.retire('b');
  await store.keep('b'); // a room took it up again
  await store.retire('nobody'); // (no such record: nothing happens)
  assert.deepEqual(await store.load('a'), { header, moves: [{ player: '0', move: { action: 'Mark' } }] });
  await sleep(400);
  assert.equal(await store.load('a'), null);
  assert.deepEqual(await store.load('b'), { header, moves: [] });
  await store.close();
});

test('redis store: a retired record expires after its time, a kept one does not', async () => {
  const redis = await startRedis();
  const store = new RedisStore(redis.url, { ttlSeconds: 60 });
  const raw = new Redis(redis.url);
  try {
    await store.create('a', header);
    await store.append('a', { player: '0', move: {} });
    assert.equal(await raw.ttl('rulestack:record:a'), -1); // (a live game's record never expires)
    await store.retire('a');
    for (const key of ['rulestack:record:a', 'rulestack:record:a:moves']) {
      const ttl = await raw.ttl(key);
      assert.ok(ttl > 50 && ttl <= 60, `${key}: ttl ${ttl}`);
    }
    await store.keep('a');
    assert.equal(await raw.ttl('rulestack:record:a'), -1);
    assert.equal(await raw.ttl('rulestack:record:a:moves'), -1);
    assert.equal((await store.load('a')).moves.length, 1);
  } finally {
    raw.disconnect();
    await store.close();
    redis.stop();
  }
});

let env;
before(async () => {
  env = await startServer({ recordTtlSeconds: 0.3 });
});
after(() => env.colyseus.shutdown());

test('a room that ends retires its record; a room that resumes it keeps it', async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 1 });
  const id = room.roomId;
  assert.notEqual(await env.store.load(id), null);
  await room.disconnect(); // the room ends
  await sleep(50);
  assert.notEqual(await env.store.load(id), null, 'kept a while, for a resume');
  const resumed = await env.colyseus.createRoom('rulestack', { resume: id });
  assert.equal(resumed.roomId, id);
  await sleep(600);
  assert.notEqual(await env.store.load(id), null, 'its room runs again: kept');
  await resumed.disconnect();
  await sleep(600);
  assert.equal(await env.store.load(id), null, 'dropped once its time passed');
});
