// Game records outlive their room a while (for a resume), then are dropped: a long-running
// server does not keep every game it hosted. The memory store and Redis, and the room's part.
import { test, before, after } from 'node:test';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import Redis from 'ioredis';
import { join } from 'rulestack/client';
import { MemoryStore, RedisStore, createStore } from '../record-store.mjs';
import { startServer, startRedis, spawnServer, freePort, sleep } from './helpers.mjs';

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
  assert.equal(await store.keep('b'), true);
  assert.equal(await store.keep('a'), false, 'dropped: nothing to keep');
  // a move recorded keeps it too (a room plays on it, whatever retired it)
  await store.retire('b');
  await store.append('b', { player: '1', move: {} });
  await sleep(400);
  assert.equal((await store.load('b')).moves.length, 1);
  await store.close();
});

test('a record time that is not a number of seconds above 0 is refused', () => {
  for (const ttlSeconds of [0, -1, Number.NaN, 2147484, '60'])
    assert.throws(() => createStore(undefined, { ttlSeconds }), { name: 'RangeError', message: /ttlSeconds must be a number of seconds above 0 and at most 2147483, not/ });
});

test('redis store: a record expires its time after its room last touched it', async () => {
  const redis = await startRedis();
  // (a record in play is kept its claim's lease and its time, 20 + 60 s; a retired one its time)
  const store = new RedisStore(redis.url, { ttlSeconds: 60, leaseSeconds: 20 });
  const raw = new Redis(redis.url);
  const keys = ['rulestack:record:a', 'rulestack:record:a:moves'];
  const shortened = () => Promise.all(keys.map((k) => raw.expire(k, 5))); // (as if touched long ago)
  const expiring = async (what, low, high) => {
    for (const key of keys) {
      const ttl = await raw.ttl(key);
      assert.ok(ttl > low && ttl <= high, `${what}: ${key}: ttl ${ttl}`);
    }
  };
  const renewed = (what) => expiring(what, 70, 80);
  try {
    await store.create('a', header);
    assert.ok((await raw.ttl(keys[0])) > 70, 'created: kept as in play');
    await store.append('a', { player: '0', move: {} });
    await renewed('a move recorded');
    await shortened();
    await store.retire('a');
    await expiring('retired', 50, 60);
    await shortened();
    assert.equal(await store.keep('a'), true);
    await renewed('kept again (resumed)');
    await shortened();
    await store.append('a', { player: '1', move: {} });
    await renewed('a move recorded');
    assert.equal((await store.load('a')).moves.length, 2);
    assert.equal(await store.keep('nobody'), false);
    // a server shut down (a deploy) does not retire its running games: they wait their time for a resume
    const server = await spawnServer({ REDIS_URL: redis.url, RECORD_TTL_SECONDS: '60' });
    const p0 = await join(server.url, { game: 'tictactoe', seed: 3 }, { seat: '0' });
    p0.room.reconnection.enabled = false;
    assert.notEqual(await store.load(p0.roomId), null);
    assert.notEqual(await raw.get(`rulestack:record:${p0.roomId}:run`), null, 'its room claims it');
    server.child.kill('SIGTERM');
    await new Promise((r) => server.child.once('exit', r));
    // (not retired: kept as its last renewal left it, its lease and RECORD_TTL_SECONDS)
    const ttl = await raw.ttl(`rulestack:record:${p0.roomId}`);
    assert.ok(ttl > 70 && ttl <= 80, `kept for a resume: ttl ${ttl}`);
    assert.equal(await raw.get(`rulestack:record:${p0.roomId}:run`), null, 'its claim released: resumable at once');
  } finally {
    raw.disconnect();
    await store.close();
    redis.stop();
  }
});

test('a server on Redis warns when Redis may evict records, and sets records of an earlier version to expire', async () => {
  const redis = await startRedis(['--maxmemory', '64mb', '--maxmemory-policy', 'volatile-lru']);
  const raw = new Redis(redis.url);
  const k = 'rulestack:record:';
  const ttl = (id) => raw.ttl(k + id);
  const spawned = [];
  const start = async () => {
    const s = await spawnServer({ REDIS_URL: redis.url, RECORD_TTL_SECONDS: '60' });
    spawned.push(s);
    let said = s.output;
    s.child.stderr.on('data', (d) => (said += d)); // (its stderr may come in after its stdout's last line)
    await sleep(200);
    s.child.kill('SIGTERM');
    await new Promise((r) => s.child.once('exit', r));
    return said;
  };
  try {
    // as a server before records expired left them: no expiry
    await raw.set(k + 'old', JSON.stringify(header));
    await raw.rpush(k + 'old:moves', '{}');
    await raw.rpush(k + 'orphan:moves', '{}'); // (a move appended after its header was dropped)
    await raw.set(k + 'played', JSON.stringify(header));
    await raw.set(k + 'played:run', 'a room of an older server', 'PX', 60000); // in play
    await raw.set(k + 'new', JSON.stringify(header), 'EX', 500);
    let said = await start();
    assert.match(said, /^rulestack server: warning: Redis evicts keys when its memory is full \(maxmemory-policy 'volatile-lru'\): it could drop the records of games in play, which carry an expiry; set maxmemory-policy to 'noeviction'$/m);
    assert.match(said, /^rulestack server: 2 game records of an earlier version \(kept forever\) set to expire in 60 s, as records of rooms that ended$/m);
    for (const id of ['old', 'old:moves', 'orphan:moves']) {
      const t = await ttl(id);
      assert.ok(t > 50 && t <= 60, `${id}: ttl ${t}`);
    }
    assert.equal(await ttl('played'), -1, 'claimed: left to its room');
    assert.ok((await ttl('new')) > 400, 'its own expiry kept');
    assert.deepEqual(JSON.parse(await raw.get(k + 'old')), header, 'kept as it was meanwhile');
    // at the default policy, nothing to say: and those records are not set again
    await raw.config('SET', 'maxmemory-policy', 'noeviction');
    await raw.expire(k + 'old', 30);
    said = await start();
    assert.doesNotMatch(said, /warning|earlier version/, said);
    assert.ok((await ttl('old')) <= 30, 'an expiry is not reset');
  } finally {
    for (const s of spawned) s.child.kill('SIGKILL');
    raw.disconnect();
    redis.stop();
  }
});

test('a server whose Redis does not answer exits 1 at start, saying so', async () => {
  const port = await freePort(); // (nothing listens there)
  const serverPort = await freePort();
  const main = fileURLToPath(new URL('../main.mjs', import.meta.url));
  const r = await new Promise((resolve) => {
    execFile(process.execPath, [main], { env: { ...process.env, PORT: String(serverPort), REDIS_URL: `redis://127.0.0.1:${port}` }, encoding: 'utf8', timeout: 30_000 }, (e, stdout, stderr) =>
      resolve({ status: e ? e.code : 0, stdout, stderr }),
    );
  });
  assert.equal(r.status, 1, r.stdout + r.stderr);
  assert.match(r.stderr, new RegExp(`^rulestack server: Redis at redis://127\\.0\\.0\\.1:${port} cannot be used: `, 'm'));
  assert.doesNotMatch(r.stdout, /listening/);
});

let env;
before(async () => {
  env = await startServer({ recordTtlSeconds: 0.3 });
});
after(() => env.colyseus.shutdown());

/** A room a player took a seat in (a room nobody sat in that made no move keeps no record). */
async function seatedRoom(options) {
  const room = await env.colyseus.createRoom('rulestack', options);
  await join(env.url, room.roomId, { seat: '0' });
  return room;
}

test('a room that ends retires its record; a room that resumes it keeps it', async () => {
  const room = await seatedRoom({ game: 'tictactoe', seed: 1 });
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

test('two resumes of one record at once: one runs it, the other is refused', async () => {
  const room = await seatedRoom({ game: 'tictactoe', seed: 2 });
  const id = room.roomId;
  await room.disconnect();
  await sleep(50);
  const tries = await Promise.allSettled([1, 2].map(() => env.colyseus.createRoom('rulestack', { resume: id })));
  const rooms = tries.filter((t) => t.status === 'fulfilled').map((t) => t.value);
  assert.equal(rooms.length, 1, JSON.stringify(tries.map((t) => t.reason?.message)));
  assert.match(tries.find((t) => t.status === 'rejected').reason.message, new RegExp(`room '${id}' is still running: join it instead of resuming it`));
  await sleep(700);
  assert.notEqual(await env.store.load(id), null, 'the running room keeps its record');
  await rooms[0].disconnect();
  await sleep(700);
  assert.equal(await env.store.load(id), null, 'dropped once its room ended and its time passed');
});

/** Polls until the record is gone (true) or ms pass (false). */
async function dropped(store, id, ms = 3000) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(50)) if ((await store.load(id)) === null) return true;
  return false;
}

test('a room nobody took a seat in that made no move drops its record when it ends: nothing to resume', async () => {
  const ttl = env.store.ttlSeconds;
  env.store.ttlSeconds = 3600; // (records of rooms that ended kept an hour, here)
  try {
    // created and watched only, then left: no seat was ever taken, no move made
    const watcher = await join(env.url, { game: 'tictactoe', seed: 3 }, { seat: 'spectator' });
    const id = watcher.roomId;
    assert.notEqual(await env.store.load(id), null, 'recorded while it runs');
    await watcher.leave();
    assert.ok(await dropped(env.store, id), 'dropped as its room ends, not kept an hour');
    // a room a player sat in, though no move was made, keeps its record for its time
    const player = await join(env.url, { game: 'tictactoe', seed: 4 });
    await player.leave();
    await sleep(300);
    assert.notEqual(await env.store.load(player.roomId), null, 'kept, for a resume');
    // resumed and only watched, then left: the record is its first room's, kept
    const again = await join(env.url, { resume: player.roomId }, { seat: 'spectator' });
    await again.leave();
    await sleep(300);
    assert.notEqual(await env.store.load(player.roomId), null, 'a resumed record is kept, whoever sat in this room');
  } finally {
    env.store.ttlSeconds = ttl;
  }
});

test('a store drops a record at once, unless another room holds its claim', async () => {
  const redis = await startRedis();
  const stores = [new MemoryStore(), new RedisStore(redis.url)];
  try {
    for (const store of stores) {
      await store.create('r1', { version: 1 });
      await store.claim('r1', 'mine');
      assert.equal(await store.drop('r1', 'theirs'), false, 'another room holds it');
      assert.notEqual(await store.load('r1'), null);
      assert.equal(await store.drop('r1', 'mine'), true);
      assert.equal(await store.load('r1'), null);
      assert.equal(await store.drop('r1', 'mine'), false, 'nothing left to drop');
    }
  } finally {
    for (const store of stores) await store.close();
    redis.stop();
  }
});
