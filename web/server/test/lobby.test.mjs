// The lobby: rooms created with `listed: true` are listed (listRooms of rulestack/client)
// with their open seats as players come and go, and leave the list when their game ends;
// other rooms are found by their id alone.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join, listRooms, watchRooms } from 'rulestack/client';
import { CloseCode } from '@colyseus/core';
import { LOBBY_MESSAGES_PER_SECOND } from '../server.mjs';
import { startServer, startRedis, spawnServer, freePort, sleep } from './helpers.mjs';

let env;
before(async () => {
  env = await startServer();
});
after(() => env.colyseus.shutdown());

/** The list once it shows what `ok` waits for (the lobby hears of a change a moment later). */
async function listed(ok) {
  for (let i = 0; i < 50; i++) {
    const rooms = await listRooms(env.url);
    if (ok(rooms)) return rooms;
    await sleep(50);
  }
  return listRooms(env.url);
}

/** Plays a two-seat game to its end through its clients (each seat's first legal move). */
async function playToEnd(p0, p1) {
  const seats = { 0: p0, 1: p1 };
  while (p0.view().result === null) {
    const who = p0.view().toAct[0];
    const updated = new Promise((r) => seats[1 - who].on('update', r));
    await seats[who].apply(who, seats[who].legalMoves()[0]);
    await updated;
  }
}

test('a listed room is in the lobby with its open seats until its game ends; an unlisted one is not', async () => {
  assert.deepEqual(await listRooms(env.url), []);
  const p0 = await join(env.url, { game: 'tictactoe', seed: 5, listed: true });
  const hidden = await join(env.url, { game: 'tictactoe', seed: 6 });
  const custom = await join(env.url, { definition: hidden.definitionJson, listed: true, bots: { 1: 'random' } }, { seat: 'spectator' });
  const player = await join(env.url, custom.roomId);
  assert.equal(player.seat, '0');
  let rooms = await listed((r) => r.length === 2 && r[0].openSeats.length === 1);
  assert.deepEqual(rooms, [
    { roomId: p0.roomId, game: 'tictactoe', name: 'Tic-tac-toe', players: ['0', '1'], openSeats: ['1'], bots: {}, seedChosen: true, clients: 1 },
    { roomId: custom.roomId, game: null, name: 'Tic-tac-toe', players: ['0', '1'], openSeats: [], bots: { 1: 'random' }, seedChosen: false, clients: 2 },
  ]);
  // its second seat taken: listed still (to watch), with no open seat
  const p1 = await join(env.url, p0.roomId);
  rooms = await listed((r) => r[0]?.openSeats.length === 0);
  assert.deepEqual(rooms.map((r) => [r.roomId, r.openSeats, r.clients]), [[p0.roomId, [], 2], [custom.roomId, [], 2]]);
  // the game played to its end: out of the lobby
  await playToEnd(p0, p1);
  rooms = await listed((r) => r.length === 1);
  assert.deepEqual(rooms.map((r) => r.roomId), [custom.roomId]);
  // a seat left for good is open again (the spectator keeps the room)
  await player.leave();
  rooms = await listed((r) => r[0]?.openSeats.length === 1);
  assert.deepEqual(rooms.map((r) => [r.roomId, r.openSeats, r.clients]), [[custom.roomId, ['0'], 1]]);
  for (const g of [p0, p1, hidden, custom]) await g.leave();
  // the ended game resumed from its record (listed: true in it) stays out of the lobby
  await sleep(100);
  const resumed = await env.colyseus.createRoom('rulestack', { resume: p0.roomId });
  assert.equal(resumed.roomId, p0.roomId);
  assert.notEqual(resumed.game.view().result, null);
  await sleep(200);
  assert.deepEqual(await listRooms(env.url), []);
  await resumed.disconnect();
});

test('watchRooms: the list at once, then each room listed, changed or ended as it happens, until close()', async () => {
  const seen = [];
  let changed = () => {};
  const watch = await watchRooms(env.url, (rooms) => {
    seen.push(rooms);
    changed();
  });
  /** The list once the watch has been told what `ok` waits for. */
  const until = (ok) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`not seen: ${JSON.stringify(watch.rooms)}`)), 5000);
      changed = () => ok(watch.rooms) && (clearTimeout(timer), resolve(watch.rooms));
      changed();
    });
  try {
    assert.deepEqual(seen, [[]], 'called with the first list before it resolves');
    const p0 = await join(env.url, { game: 'tictactoe', seed: 5, listed: true });
    const hidden = await join(env.url, { game: 'tictactoe', seed: 6 });
    let rooms = await until((r) => r.length === 1 && r[0].openSeats.length === 1 && r[0].clients === 1);
    assert.deepEqual(rooms, [{ roomId: p0.roomId, game: 'tictactoe', name: 'Tic-tac-toe', players: ['0', '1'], openSeats: ['1'], bots: {}, seedChosen: true, clients: 1 }]);
    // a seat taken: the same room, changed
    const p1 = await join(env.url, p0.roomId);
    rooms = await until((r) => r[0]?.openSeats.length === 0);
    assert.deepEqual(rooms.map((r) => [r.roomId, r.clients]), [[p0.roomId, 2]]);
    // the game played to its end: out of the list
    await playToEnd(p0, p1);
    assert.deepEqual(await until((r) => r.length === 0), []);
    assert.ok(seen.every((list) => list.every((r) => r.roomId === p0.roomId)), 'the unlisted room never shown');
    // closed: no more calls
    await watch.close();
    const calls = seen.length;
    const later = await join(env.url, { game: 'tictactoe', seed: 7, listed: true });
    await listed((r) => r.length === 1);
    assert.equal(seen.length, calls);
    for (const g of [p0, p1, hidden, later]) await g.leave();
  } finally {
    await watch.close();
  }
});

test('watchRooms: bad arguments refused; onClose says when the server goes away', async () => {
  await assert.rejects(watchRooms(env.url, 'rooms'), { name: 'TypeError', message: 'rulestack: watchRooms: onChange must be a function, not "rooms"' });
  await assert.rejects(watchRooms(env.url, () => {}, { onClose: 1 }), { name: 'TypeError', message: 'rulestack: watchRooms: onClose must be a function, not 1' });
  await assert.rejects(watchRooms(env.url, () => {}, { timeout: 5 }), { name: 'RangeError', message: "rulestack: watchRooms: unknown option 'timeout' (options: timeoutMs, onClose)" });
  await assert.rejects(watchRooms(env.url, () => {}, { timeoutMs: -1 }), { name: 'RangeError', message: 'rulestack: watchRooms: timeoutMs must be a number of milliseconds above 0, not -1' });
  const server = await spawnServer();
  try {
    let closed;
    const gone = new Promise((r) => (closed = r));
    const watch = await watchRooms(server.url, () => {}, { onClose: closed });
    assert.deepEqual(watch.rooms, []);
    // (a lobby joined more than 5 s before: the SDK would otherwise try to rejoin it for about a minute)
    await sleep(5200);
    const t0 = Date.now();
    server.child.kill('SIGKILL');
    const error = await gone;
    assert.ok(Date.now() - t0 < 3000, `said at once (${Date.now() - t0} ms)`);
    assert.match(error.message, new RegExp(`^rulestack client: cannot list the rooms at ${server.url}: the lobby closed \\(\\d+\\)$`));
    await watch.close();
  } finally {
    server.child.kill('SIGKILL');
  }
});

test('listed must be a boolean; listRooms says where it could not list', async () => {
  await assert.rejects(join(env.url, { game: 'tictactoe', listed: 'yes' }), { message: /rulestack room: listed must be true or false, not "yes"/ });
  await assert.rejects(listRooms(env.url, { timeout: 5 }), { name: 'RangeError', message: "rulestack: listRooms: unknown option 'timeout' (options: timeoutMs)" });
  await assert.rejects(listRooms(env.url, { timeoutMs: 0 }), { name: 'RangeError', message: 'rulestack: listRooms: timeoutMs must be a number of milliseconds above 0, not 0' });
  // a lobby client that floods it (each 'filter' would send the whole list again) is cut off
  const lobby = await env.colyseus.sdk.joinOrCreate('lobby');
  lobby.onMessage('rooms', () => {});
  const closed = new Promise((r) => lobby.onLeave(r));
  for (let i = 0; i < 3 * LOBBY_MESSAGES_PER_SECOND; i++) lobby.send('filter', {});
  assert.equal(await closed, CloseCode.WITH_ERROR);
  const nobody = `ws://127.0.0.1:${await freePort()}`;
  await assert.rejects(listRooms(nobody), { message: new RegExp(`^rulestack client: cannot list the rooms at ${nobody}: `) });
});

test('with Redis, each process lists the listed rooms of all of them', async () => {
  const redis = await startRedis();
  const servers = [];
  try {
    for (let i = 0; i < 2; i++) servers.push(await spawnServer({ REDIS_URL: redis.url }));
    const [a, b] = servers;
    const game = await join(a.url, { game: 'tictactoe', seed: 9, listed: true });
    let rooms = [];
    for (let i = 0; i < 50 && rooms.length === 0; i++) {
      rooms = await listRooms(b.url);
      if (rooms.length === 0) await sleep(50);
    }
    assert.deepEqual(rooms.map((r) => [r.roomId, r.openSeats]), [[game.roomId, ['1']]]);
    // its second seat taken through the other process
    const other = await join(b.url, rooms[0].roomId);
    assert.equal(other.seat, '1');
    for (let i = 0; i < 50 && rooms[0]?.openSeats.length; i++) {
      rooms = await listRooms(a.url);
      await sleep(50);
    }
    assert.deepEqual(rooms.map((r) => [r.roomId, r.openSeats, r.clients]), [[game.roomId, [], 2]]);
    await other.leave();
    await game.leave();
  } finally {
    for (const s of servers) s.child.kill('SIGKILL');
    redis.stop();
  }
});
