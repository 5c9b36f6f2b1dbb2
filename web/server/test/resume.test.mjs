// No lost games: the record goes to Redis as the game goes; a room whose process is killed
// is resumed by another process from it with the same state hash (once the dead room's claim
// on the record has run out); and two processes on one Redis share matchmaking (a room made
// on one is joined through the other).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from 'rulestack';
import { join } from 'rulestack/client';
import { startRedis, spawnServer, startServer, sleep } from './helpers.mjs';
import { exampleDefinition } from '../options.mjs';
import { RedisStore } from '../record-store.mjs';

let redis, rs;
const children = [];
before(async () => {
  redis = await startRedis();
  rs = await loadEngine();
});
after(() => {
  for (const c of children) c.kill('SIGKILL');
  redis.stop();
});

async function playSome(local, clients, n) {
  for (let i = 0; i < n && local.view().result === null; i++) {
    const player = local.view().toAct.find((p) => local.legalMoves(p).length > 0);
    const move = local.legalMoves(player)[i % local.legalMoves(player).length];
    assert.deepEqual(await clients[player].apply(player, move), local.apply(player, move));
  }
}

test('two processes on one Redis: a room created on one is joined through the other', async () => {
  const a = await spawnServer({ REDIS_URL: redis.url });
  const b = await spawnServer({ REDIS_URL: redis.url });
  children.push(a.child, b.child);
  const p0 = await join(a.url, { game: 'tictactoe', seed: 30 }, { seat: '0' });
  const p1 = await join(b.url, p0.roomId, { seat: '1' });
  assert.equal(p1.seat, '1');
  assert.equal(p1.room.roomId, p0.roomId);
  await p0.apply('0', { action: 'Mark', targets: ['C'] });
  assert.deepEqual(await p1.apply('1', { action: 'Mark', targets: ['N'] }), (() => {
    const local = rs.createGame(exampleDefinition('tictactoe'), { seed: 30 });
    local.apply('0', { action: 'Mark', targets: ['C'] });
    return local.apply('1', { action: 'Mark', targets: ['N'] });
  })());
  await p0.leave();
  await p1.leave();
  a.child.kill('SIGTERM');
  b.child.kill('SIGTERM');
});

test('a room killed with its process is resumed in another from the record, with the same state hash', async () => {
  // (a short lease: a resume waits for the claim of the room that died to run out)
  const first = await spawnServer({ REDIS_URL: redis.url, RECORD_LEASE_SECONDS: '2' });
  children.push(first.child);
  const local = rs.createGame(exampleDefinition('duel'), { seed: 31 });
  const p0 = await join(first.url, { game: 'duel', seed: 31 }, { seat: '0' });
  const p1 = await join(first.url, p0.roomId, { seat: '1' });
  p0.room.reconnection.enabled = p1.room.reconnection.enabled = false;
  await playSome(local, { 0: p0, 1: p1 }, 12);
  const roomId = p0.roomId;
  const store = new RedisStore(redis.url);
  const record = await store.load(roomId);
  assert.equal(record.moves.length, 12, 'every move is in Redis');
  assert.equal(record.header.seed, 31);
  assert.equal(record.header.game, 'duel');
  // another process (this one), already running when the first dies, resumes the room
  const env = await startServer({ redisUrl: redis.url, store });
  await assert.rejects(env.colyseus.sdk.create('rulestack', { resume: roomId }), { message: `rulestack room: room '${roomId}' is still running: join it instead of resuming it` });
  first.child.kill('SIGKILL');
  await new Promise((r) => first.child.once('exit', r));
  await assert.rejects(env.colyseus.sdk.create('rulestack', { resume: roomId }), { message: /is still running/ }, 'the dead room still holds its claim');
  await sleep(2000); // (its lease, renewed until the kill)
  try {
    const room = await env.colyseus.createRoom('rulestack', { resume: roomId });
    assert.equal(room.roomId, roomId, 'under the same id');
    assert.equal(room.stateHash, local.stateHash());
    // each seat back to its player, who proves it held it with the key its client was given
    const q0 = await join(env.url, roomId, { seat: '0', resumeKey: p0.resumeKey });
    await assert.rejects(join(env.url, roomId, { seat: '1' }), { message: /seat '1' was held before this room was resumed/ });
    const q1 = await join(env.url, roomId, { resumeKey: p1.resumeKey });
    assert.equal(q1.seat, '1');
    assert.deepEqual(q0.view(), local.view('0'));
    assert.deepEqual(q1.view(), local.view('1'));
    assert.deepEqual([...q0.log()], [...local.log('0')], 'the whole log, replayed');
    await playSome(local, { 0: q0, 1: q1 }, 5);
    assert.equal(room.stateHash, local.stateHash());
    assert.equal((await store.load(roomId)).moves.length, 17, 'the resumed room appends to the same record');
    await assert.rejects(env.colyseus.sdk.create('rulestack', { resume: roomId, seed: 3 }), { message: "rulestack room: resume takes the game, seed and bots from the record: do not pass 'seed' with it" });
  } finally {
    await env.colyseus.shutdown();
    await store.close();
    local.dispose();
  }
});
