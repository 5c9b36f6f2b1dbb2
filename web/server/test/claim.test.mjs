// One room at a time runs a game record, on any process: a room claims its record's id in
// the store (atomic in Redis, with a lease its room renews), so that two resumes at once on
// two processes cannot both run the game and append to its record.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { matchMaker, requestFromIPC } from '@colyseus/core';
import { join } from 'rulestack/client';
import { MemoryStore, RedisStore, createStore } from '../record-store.mjs';
import { startRedis, startServer, spawnServer, sleep } from './helpers.mjs';

// Rooms: this process and a child on one Redis (whose claims last 2 s unless renewed), each
// room created on the process chosen (not left to matchmaking, which sends creations made at
// once to the same, least loaded, process).
let redis, child, env, raw, childId;
const here = (options) => matchMaker.handleCreateRoom('rulestack', options);
const there = (options) => requestFromIPC(matchMaker.presence, `p:${childId}`, undefined, ['rulestack', options], 10_000);
const still = (id) => new RegExp(`^rulestack room: room '${id}' is still running: join it instead of resuming it$`);
const claimOf = (id) => raw.get(`rulestack:record:${id}:run`);

before(async () => {
  redis = await startRedis();
  child = await spawnServer({ REDIS_URL: redis.url, RECORD_LEASE_SECONDS: '2' });
  env = await startServer({ redisUrl: redis.url });
  raw = new Redis(redis.url);
  childId = (await matchMaker.stats.fetchAll()).map((s) => s.processId).find((p) => p !== matchMaker.processId);
});
after(async () => {
  raw.disconnect();
  await env.colyseus.shutdown();
  await env.store.close();
  child.child.kill('SIGKILL');
  redis.stop();
});

/** Two stores on one Redis, each with its own connection: two processes. */
async function twoProcesses(fn, opts = {}) {
  const a = new RedisStore(redis.url, opts);
  const b = new RedisStore(redis.url, opts);
  try {
    await fn(a, b);
  } finally {
    await a.close();
    await b.close();
  }
}

test('redis store: of two processes claiming one id at once, exactly one gets it', async () => {
  await twoProcesses(async (a, b) => {
    for (let i = 0; i < 50; i++) {
      const got = await Promise.all([a.claim(`race${i}`, 'a'), b.claim(`race${i}`, 'b')]);
      assert.equal(got.filter(Boolean).length, 1, `race${i}: ${got}`);
    }
    // a claim held is refused to anyone, its owner too (a room claims once, then renews)
    assert.equal(await a.claim('race0', 'a'), false);
    assert.equal(await b.claim('race0', 'b'), false);
  });
});

test('redis store: a release by another owner does nothing; the owner\'s frees the id', async () => {
  await twoProcesses(async (a, b) => {
    assert.equal(await a.claim('r', 'a'), true);
    await b.release('r', 'b');
    await a.release('r', 'b'); // (the store does not matter: the owner does)
    assert.equal(await b.claim('r', 'b'), false, 'still held by a');
    assert.equal(await b.renew('r', 'b'), false, 'not b\'s to renew');
    await a.release('r', 'a');
    assert.equal(await b.claim('r', 'b'), true, 'freed by its owner');
    assert.equal(await a.renew('r', 'a'), false, 'a released it');
    await a.release('r', 'a'); // (no longer a's: b keeps it)
    assert.equal(await a.claim('r', 'a'), false);
  });
});

test('redis store: a lease not renewed runs out (its process died); one renewed is kept', async () => {
  const raw = new Redis(redis.url);
  try {
    await twoProcesses(
      async (a, b) => {
        assert.equal(await a.claim('dead', 'a'), true);
        assert.equal(await a.claim('live', 'a'), true);
        const ttl = await raw.pttl('rulestack:record:live:run');
        assert.ok(ttl > 0 && ttl <= 300, `the claim's key expires: pttl ${ttl}`);
        assert.equal(await raw.get('rulestack:record:live:run'), 'a');
        for (let t = 0; t < 8; t++) {
          await sleep(100);
          assert.equal(await a.renew('live', 'a'), true);
        }
        // 800 ms after the claims: 'dead' ran out, 'live' did not
        assert.equal(await b.claim('live', 'b'), false, 'renewed: still held');
        assert.equal(await b.claim('dead', 'b'), true, 'not renewed: free again');
        assert.equal(await a.renew('dead', 'a'), false, 'taken by b: not a\'s to renew any more');
        await a.release('dead', 'a');
        assert.equal(await raw.get('rulestack:record:dead:run'), 'b');
      },
      { leaseSeconds: 0.3 },
    );
  } finally {
    raw.disconnect();
  }
});

test('redis store: a move is appended only while its room holds the claim', async () => {
  await twoProcesses(
    async (a, b) => {
      const move = (n) => ({ player: '0', move: { n } });
      await a.create('f', { game: 'tictactoe' });
      assert.equal(await a.claim('f', 'a'), true);
      await a.append('f', move(1), 'a');
      await assert.rejects(b.append('f', move(2), 'b'), { message: /the claim on 'f' is not this room's any more/ });
      await sleep(400); // (a's lease ran out, not renewed: nobody holds it now)
      await assert.rejects(a.append('f', move(3), 'a'), { message: /not this room's/ });
      await b.append('f', move(4)); // (no owner given: not checked)
      assert.deepEqual((await b.load('f')).moves, [move(1), move(4)]);
    },
    { leaseSeconds: 0.3 },
  );
});

test('redis store: a record is not retired by a room whose claim another room took up', async () => {
  // a record's expiry tells who set it last: a retires for 30 s, b keeps for 90 (60 + its lease)
  // and retires for 60 (a's lease runs out in the test; b's must not)
  const a = new RedisStore(redis.url, { leaseSeconds: 0.3, ttlSeconds: 30 });
  const b = new RedisStore(redis.url, { leaseSeconds: 30, ttlSeconds: 60 });
  const expiries = async () => [await raw.pttl('rulestack:record:ret'), await raw.pttl('rulestack:record:ret:moves')];
  try {
    await a.create('ret', { game: 'tictactoe' });
    assert.equal(await a.claim('ret', 'a'), true);
    await a.append('ret', { player: '0', move: {} }, 'a');
    await sleep(400); // (a's lease ran out unnoticed: its process stalled)
    assert.equal(await b.claim('ret', 'b'), true); // another room took the record up
    assert.equal(await b.keep('ret'), true);
    assert.equal(await a.retire('ret', 'a'), false);
    for (const ms of await expiries()) assert.ok(ms > 80_000 && ms <= 90_000, `kept by b, not retired by a: pttl ${ms}`);
    assert.equal(await a.renew('ret', 'a'), false);
    for (const ms of await expiries()) assert.ok(ms > 80_000, `a's renewal refused, the record left alone: pttl ${ms}`);
    assert.equal(await b.retire('ret', 'b'), true);
    for (const ms of await expiries()) assert.ok(ms > 50_000 && ms <= 60_000, `retired by b: pttl ${ms}`);
    // a lapsed room whose id nobody took up still retires it
    await b.release('ret', 'b');
    assert.equal(await a.retire('ret', 'a'), true);
    for (const ms of await expiries()) assert.ok(ms > 20_000 && ms <= 30_000, `retired by a: pttl ${ms}`);
    assert.equal(await a.retire('nothing', 'a'), false, 'no such record');
  } finally {
    await a.close();
    await b.close();
  }
});

test('redis store: a record whose room stopped renewing its claim is dropped ttlSeconds after the claim ran out (its process died)', async () => {
  await twoProcesses(
    async (a, b) => {
      const move = { player: '0', move: {} };
      await a.create('died', { game: 'tictactoe' });
      assert.equal(await a.claim('died', 'a'), true);
      await a.append('died', move, 'a');
      for (let t = 0; t < 6; t++) {
        await sleep(200);
        assert.equal(await a.renew('died', 'a'), true);
      }
      // 1.2 s after it was written, past its lease and time (1.1 s): its room's renewals kept it
      assert.deepEqual(await b.load('died'), { header: { game: 'tictactoe' }, moves: [move] });
      for (const key of ['rulestack:record:died', 'rulestack:record:died:moves']) {
        const ms = await raw.pttl(key);
        assert.ok(ms > 0 && ms <= 1100, `${key}: pttl ${ms}`);
      }
      // its process dies: nothing renews the claim any more
      await sleep(1300);
      assert.equal(await b.load('died'), null);
      assert.equal(await raw.exists('rulestack:record:died:moves'), 0);
      await assert.rejects(a.append('died', move), { message: "rulestack record store: no record 'died'" });
      assert.equal(await raw.exists('rulestack:record:died:moves'), 0, 'a dropped record is not written to');
    },
    { leaseSeconds: 0.6, ttlSeconds: 0.5 },
  );
});

test('memory store: one claim at a time, released only by its owner', async () => {
  const store = new MemoryStore();
  const got = await Promise.all([store.claim('m', 'a'), store.claim('m', 'b')]);
  assert.deepEqual(got, [true, false]);
  await store.release('m', 'b');
  assert.equal(await store.claim('m', 'b'), false);
  assert.equal(await store.renew('m', 'a'), true);
  assert.equal(await store.renew('m', 'b'), false);
  await store.create('m', { game: 'tictactoe' });
  await store.append('m', { n: 1 }, 'a');
  await store.release('m', 'a');
  assert.equal(await store.renew('m', 'a'), false);
  assert.equal(await store.claim('m', 'b'), true);
  await assert.rejects(store.append('m', { n: 2 }, 'a'), { message: /not this room's/ });
  assert.deepEqual((await store.load('m')).moves, [{ n: 1 }]);
  // not while another room holds the claim; by its holder, or once nobody holds it
  assert.equal(await store.retire('m', 'a'), false);
  assert.equal(await store.retire('m', 'b'), true);
  await store.release('m', 'b');
  assert.equal(await store.retire('m', 'a'), true);
  assert.equal(await store.retire('nothing', 'a'), false);
});

test('a lease that is not a number of seconds above 0 is refused', () => {
  for (const leaseSeconds of [0, -1, Number.NaN, 2147484, '20']) {
    assert.throws(() => createStore(undefined, { leaseSeconds }), { name: 'RangeError', message: /leaseSeconds must be a number of seconds above 0 and at most 2147483, not/ });
    assert.throws(() => new RedisStore('redis://127.0.0.1:1', { leaseSeconds }), RangeError);
  }
});

test('a new room claims its id and renews the claim: a resume elsewhere is refused before the room is listed', async () => {
  const created = await there({ game: 'duel', seed: 7 });
  const owner = await claimOf(created.roomId);
  assert.match(owner, new RegExp(`^${childId}:`), 'the child process holds it');
  await sleep(3000); // (past its lease)
  assert.equal(await claimOf(created.roomId), owner, 'renewed');
  await raw.hdel('roomcaches', created.roomId); // (as if not listed yet)
  await assert.rejects(here({ resume: created.roomId }), { message: still(created.roomId) });
  await matchMaker.remoteRoomCall(created.roomId, 'disconnect');
  assert.equal(await claimOf(created.roomId), null, 'released when it ended');
});

test('two resumes at once on two processes: one runs the record, the other is refused', async () => {
  for (let round = 0; round < 3; round++) {
    // the record of a whole game (bots: its replay takes a while, so that both resumes look
    // for a listing before either room is listed), resumed here and on the child at once
    const ended = await here({ game: 'duel', seed: round, bots: { 0: 'random', 1: 'random' } });
    const id = ended.roomId;
    const room = matchMaker.getLocalRoomById(id);
    for (let t = 0; t < 500 && room.game.view().result === null; t++) await sleep(20);
    assert.notEqual(room.game.view().result, null, 'the bots played the game to its end');
    await room.disconnect();
    const tries = await Promise.allSettled([here({ resume: id }), there({ resume: id })]);
    const won = tries.filter((t) => t.status === 'fulfilled');
    assert.equal(won.length, 1, `round ${round}: ${JSON.stringify(tries.map((t) => t.reason?.message ?? 'runs'))}`);
    assert.match(tries.find((t) => t.status === 'rejected').reason.message, still(id));
    const winner = tries[0].status === 'fulfilled' ? matchMaker.processId : childId;
    assert.match(await claimOf(id), new RegExp(`^${winner}:`), 'the running room holds the claim');
    // a refused resume did not free the winner's claim; the winner's end does
    await assert.rejects(here({ resume: id }), { message: still(id) });
    await matchMaker.remoteRoomCall(id, 'disconnect');
    assert.equal((await there({ resume: id })).roomId, id, 'resumed once its room ended');
    await matchMaker.remoteRoomCall(id, 'disconnect');
  }
});

test('a room whose claim another room took closes, leaving the claim and the record alone', async () => {
  const created = await there({ game: 'tictactoe', seed: 8 });
  const id = created.roomId;
  await raw.set(`rulestack:record:${id}:run`, 'another room'); // (its lease ran out, then a resume took it)
  // (as the other room would have it: a retire or a renewal by this one would set it to expire)
  await raw.persist(`rulestack:record:${id}`);
  for (let t = 0; t < 150 && (await raw.hexists('roomcaches', id)); t++) await sleep(20);
  assert.equal(await raw.hexists('roomcaches', id), 0, 'the room closed');
  assert.equal(await claimOf(id), 'another room');
  assert.equal(await raw.ttl(`rulestack:record:${id}`), -1, 'not retired: the other room runs it');
});

test('a room whose claim another room took cannot record a move: it is taken back', async () => {
  const created = await here({ game: 'tictactoe', seed: 9 });
  const id = created.roomId;
  const p0 = await join(env.url, id, { seat: '0' });
  p0.room.reconnection.enabled = false;
  try {
    await raw.set(`rulestack:record:${id}:run`, 'another room'); // (before this room's next renewal: 20 s)
    await assert.rejects(p0.apply('0', { action: 'Mark', targets: ['C'] }), { reason: 'runtime_error', message: /could not be recorded .*the claim on '.*' is not this room's any more/ });
    assert.deepEqual((await env.store.load(id)).moves, []);
  } finally {
    await p0.leave();
  }
});
