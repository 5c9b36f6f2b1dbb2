// Seat keys (seat-keys.mjs): a room that closed may be resumed by anyone who knows its id (the
// lobby lists it), but its seats go back only to the clients that held them, each proving it
// with the key its client was given (OnlineGame.resumeKey): a stranger gets no seat, no hidden
// card and no seat's log.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { matchMaker } from '@colyseus/core';
import { loadEngine } from 'rulestack';
import { join, listRooms } from 'rulestack/client';
import { startServer, sleep } from './helpers.mjs';
import { exampleDefinition } from '../options.mjs';

let env, rs;
before(async () => {
  env = await startServer();
  rs = await loadEngine();
});
after(() => env.colyseus.shutdown());

/** Resolves once the room is gone from this process (its clients left: disposed). */
async function closed(roomId) {
  for (const end = Date.now() + 5000; matchMaker.getLocalRoomById(roomId); await sleep(20)) assert.ok(Date.now() < end, `room ${roomId} still open`);
  await sleep(50); // (its record retired, its claim released)
}

/** A Crazy Eights room (listed) with both seats taken and a few moves made, then closed: { roomId, keys, local }. */
async function closedGame(seed) {
  const local = rs.createGame(exampleDefinition('crazy-eights'), { seed });
  const a = await join(env.url, { game: 'crazy-eights', seed, listed: true });
  const b = await join(env.url, a.roomId);
  const seats = { 0: a, 1: b };
  for (let k = 0; k < 6; k++) {
    const p = local.view().toAct.find((q) => local.legalMoves(q).length > 0);
    const move = local.legalMoves(p)[0];
    assert.deepEqual(await seats[p].apply(p, move), local.apply(p, move));
  }
  const keys = { 0: a.resumeKey, 1: b.resumeKey };
  const roomId = a.roomId;
  await a.leave();
  await b.leave();
  await closed(roomId);
  return { roomId, keys, local };
}

test('a stranger who resumes a closed room gets no seat and nothing hidden; the players take theirs back with their keys', async () => {
  const { roomId, keys, local } = await closedGame(3);
  try {
    // a stranger with the id alone: a spectator, shown what a spectator is shown
    const stranger = await join(env.url, { resume: roomId });
    assert.equal(stranger.roomId, roomId);
    assert.equal(stranger.seat, null);
    assert.deepEqual(stranger.view(), local.view(null));
    assert.deepEqual([...stranger.log()], [...local.log(null)]);
    assert.equal(stranger.resumeKey, null);
    assert.match(keys[0], /^[\w-]{22}$/);
    assert.notEqual(keys[0], keys[1]);
    // the seats are not open to anyone (nor listed as open), whether asked for by name or not
    assert.deepEqual((await listRooms(env.url)).find((r) => r.roomId === roomId)?.openSeats, []);
    await assert.rejects(join(env.url, roomId, { seat: '0' }), { message: /rulestack room: seat '0' was held before this room was resumed: only its player takes it back, joining with the seat's resumeKey/ });
    assert.equal((await join(env.url, roomId)).seat, null, 'no seat given: a spectator');
    await assert.rejects(join(env.url, roomId, { resumeKey: 'x'.repeat(22) }), { message: /rulestack room: resumeKey is not the key of a seat of this room/ });
    await assert.rejects(join(env.url, roomId, { seat: '1', resumeKey: keys[0] }), { message: /rulestack room: resumeKey is the key of seat '0', not "1"/ });
    // the players, each with its key: its seat, its view and its whole log
    const a = await join(env.url, roomId, { resumeKey: keys[0] });
    const b = await join(env.url, roomId, { seat: '1', resumeKey: keys[1] });
    for (const [p, c] of [['0', a], ['1', b]]) {
      assert.equal(c.seat, p);
      assert.equal(c.resumeKey, keys[p], 'the same key: for the next resume');
      assert.deepEqual(c.view(), local.view(p));
      assert.deepEqual([...c.log()], [...local.log(p)]);
    }
    await assert.rejects(join(env.url, roomId, { resumeKey: keys[0] }), { message: /seat '0' is taken/ });
    const p = local.view().toAct.find((q) => local.legalMoves(q).length > 0);
    const move = local.legalMoves(p)[0];
    assert.deepEqual(await { 0: a, 1: b }[p].apply(p, move), local.apply(p, move), 'the game goes on');
    for (const c of [stranger, a, b]) await c.leave();
  } finally {
    local.dispose();
  }
});

test('the player who resumes passes its key with the resume: its seat at once, and a resumed room closed again resumes the same way', async () => {
  const { roomId, keys, local } = await closedGame(4);
  try {
    const a = await join(env.url, { resume: roomId }, { resumeKey: keys[0] });
    assert.equal(a.seat, '0');
    assert.deepEqual([...a.log()], [...local.log('0')]);
    await a.leave();
    await closed(roomId);
    const stranger = await join(env.url, { resume: roomId });
    assert.equal(stranger.seat, null, 'a stranger who resumes it again: still no seat');
    const b = await join(env.url, roomId, { resumeKey: keys[1] });
    assert.equal(b.seat, '1');
    assert.deepEqual(b.view(), local.view('1'));
    for (const c of [stranger, b]) await c.leave();
  } finally {
    local.dispose();
  }
});

test('a new room: each seat its own key, a spectator none; a key given to a live room takes its seat', async () => {
  const a = await join(env.url, { game: 'duel', seed: 1 });
  const watcher = await join(env.url, a.roomId, { seat: 'spectator' });
  assert.equal(watcher.resumeKey, null);
  await assert.rejects(join(env.url, a.roomId, { resumeKey: a.resumeKey }), { message: /seat '0' is taken/ }, 'the key of a seat held now');
  const c = await join(env.url, a.roomId);
  assert.equal(c.seat, '1');
  assert.notEqual(c.resumeKey, a.resumeKey);
  const header = (await env.store.load(a.roomId)).header;
  assert.deepEqual(Object.keys(header.seatKeys).sort(), ['0', '1']);
  assert.ok(!JSON.stringify(header).includes(a.resumeKey), 'the record keeps a hash, not the key');
  for (const x of [a, watcher, c]) await x.leave();
});

test('a record from before seat keys is resumed as before: its seats are open', async () => {
  const { roomId, local } = await closedGame(5);
  local.dispose();
  const { header, moves } = await env.store.load(roomId);
  delete header.seatKeys;
  await env.store.create('before-keys', header);
  for (const m of moves) await env.store.append('before-keys', m);
  const player = await join(env.url, { resume: 'before-keys' }, { seat: '0' });
  assert.equal(player.seat, '0');
  assert.equal(player.resumeKey, null);
  await player.leave();
});
