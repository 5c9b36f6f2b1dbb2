// Sessions: a dropped player keeps the seat for the grace period and, back, gets the current
// view and the events missed; after it the seat is free (or a bot's). The decision timer.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from 'rulestack';
import { join, rejoin } from 'rulestack/client';
import { startServer, nextMessage, sleep } from './helpers.mjs';
import { exampleDefinition } from '../options.mjs';

let env, rs;
before(async () => {
  env = await startServer();
  rs = await loadEngine();
});
after(() => env.colyseus.shutdown());

/** Cuts the client's socket without a close frame, as a lost network does. */
function cut(game) {
  game.room.connection.transport.ws.terminate();
}
const once = (game, name) => new Promise((r) => { const off = game.on(name, (x) => { off(); r(x); }); });

/** Plays local moves of `player` (the first legal one) through its client while it may move. */
async function playWhileAble(local, client, player, max) {
  let n = 0;
  while (n < max && local.legalMoves(player).length > 0) {
    const move = local.legalMoves(player)[0];
    assert.deepEqual(await client.apply(player, move), local.apply(player, move));
    n += 1;
  }
  return n;
}

test('a player who drops and comes back within the grace period keeps the seat and gets what was missed', async () => {
  const local = rs.createGame(exampleDefinition('duel'), { seed: 21 });
  const room = await env.colyseus.createRoom('rulestack', { game: 'duel', seed: 21, graceSeconds: 10 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const p1 = await join(env.url, room.roomId, { seat: '1' });
  p0.room.reconnection.minUptime = 0; // the SDK waits 5 s after joining before it reconnects by itself
  assert.ok((await playWhileAble(local, p0, '0', 1)) === 1, 'player 0 passes priority on');
  const before = p0.log().length;
  const dropped = new Promise((r) => p0.room.onDrop(r));
  cut(p0);
  await dropped;
  await sleep(100);
  assert.deepEqual(room.metadata.seats, { 0: true, 1: true }, 'the seat is kept');
  const missed = await playWhileAble(local, p1, '1', 3);
  assert.ok(missed > 0);
  const back = once(p0, 'update');
  await back; // the SDK reconnected; the room sent the view and the missed events
  assert.equal(p0.seat, '0');
  assert.deepEqual(p0.view(), local.view('0'));
  assert.deepEqual([...p0.log()], [...local.log('0')]);
  assert.ok(p0.log().length > before);
  // and it plays on
  if (local.legalMoves('0').length > 0) await playWhileAble(local, p0, '0', 1);
  assert.equal(room.stateHash, local.stateHash());
  local.dispose();
});

test('a spectator who drops and comes back within the grace period gets the view and the events missed', { timeout: 20000 }, async () => {
  const local = rs.createGame(exampleDefinition('duel'), { seed: 23 });
  const room = await env.colyseus.createRoom('rulestack', { game: 'duel', seed: 23, graceSeconds: 10 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const p1 = await join(env.url, room.roomId, { seat: '1' });
  const watcher = await join(env.url, room.roomId, { seat: 'spectator' });
  watcher.room.reconnection.minUptime = 0;
  assert.equal(await playWhileAble(local, p0, '0', 1), 1);
  await sleep(100);
  const before = watcher.log().length;
  assert.deepEqual([...watcher.log()], [...local.log(null)]);
  const dropped = new Promise((r) => watcher.room.onDrop(r));
  const left = [];
  watcher.on('leave', (code) => left.push(code));
  cut(watcher);
  await dropped;
  const back = once(watcher, 'reconnect');
  await sleep(100);
  const missed = await playWhileAble(local, p1, '1', 3);
  assert.ok(missed > 0);
  await back;
  for (let i = 0; i < 100 && watcher.log().length < local.log(null).length; i++) await sleep(20);
  assert.equal(watcher.seat, null);
  assert.deepEqual(watcher.view(), local.view(null));
  assert.deepEqual([...watcher.log()], [...local.log(null)], 'the events missed, once each');
  assert.ok(watcher.log().length > before);
  assert.deepEqual(left, [], 'the connection never closed for good');
  // and it keeps following the game
  if (local.legalMoves('0').length > 0) {
    const next = once(watcher, 'update');
    await playWhileAble(local, p0, '0', 1);
    await next;
    assert.deepEqual(watcher.view(), local.view(null));
  }
  local.dispose();
});

test('a page reload: rejoin with the reconnection token gets the whole log and the view', async () => {
  const local = rs.createGame(exampleDefinition('duel'), { seed: 22 });
  const room = await env.colyseus.createRoom('rulestack', { game: 'duel', seed: 22, graceSeconds: 10 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const p1 = await join(env.url, room.roomId, { seat: '1' });
  await playWhileAble(local, p0, '0', 1);
  p0.room.reconnection.enabled = false;
  const token = p0.reconnectionToken;
  cut(p0);
  await sleep(100);
  await playWhileAble(local, p1, '1', 2);
  const again = await rejoin(env.url, token);
  assert.equal(again.seat, '0');
  assert.deepEqual(again.view(), local.view('0'));
  assert.deepEqual([...again.log()], [...local.log('0')], 'a fresh client asks for every event');
  assert.equal(again.definitionJson, local.definitionJson, 'a fresh client is sent the definition again');
  local.dispose();
});

test('after the grace period the seat is free, and a bot for empty seats plays it', async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'duel', seed: 23, graceSeconds: 0.5 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  await join(env.url, room.roomId, { seat: '1' });
  p0.room.reconnection.enabled = false;
  const token = p0.reconnectionToken;
  cut(p0);
  await sleep(1000);
  assert.deepEqual(room.metadata.seats, { 1: true }, 'seat 0 is free after 0.5 s');
  await assert.rejects(rejoin(env.url, token));
  const other = await join(env.url, room.roomId);
  assert.equal(other.seat, '0', 'a newcomer takes the free seat');

  const withBot = await env.colyseus.createRoom('rulestack', { game: 'duel', seed: 24, graceSeconds: 0.3, botsForEmptySeats: 'random' });
  const q0 = await join(env.url, withBot.roomId, { seat: '0' });
  const q1 = await join(env.url, withBot.roomId, { seat: '1' });
  q0.room.reconnection.enabled = false;
  cut(q0);
  // player 0 is to act: once the grace period is over, the bot moves for them
  const moved = await nextMessage(q1.room, 'update', 5000);
  assert.equal(moved.from > 0, true);
  const record = await env.store.load(withBot.roomId);
  assert.deepEqual(record.moves[0].player, '0');
  assert.equal(record.moves[0].by, 'bot');
});

test('the decision timer passes for a player who does not move, and says so', async () => {
  const local = rs.createGame(exampleDefinition('duel'), { seed: 25 });
  const room = await env.colyseus.createRoom('rulestack', { game: 'duel', seed: 25, decisionSeconds: 0.4 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const p1 = await join(env.url, room.roomId, { seat: '1' });
  const t0 = Date.now();
  const [mine, theirs] = await Promise.all([once(p0, 'timeout'), once(p1, 'timeout')]);
  const waited = Date.now() - t0;
  assert.ok(waited >= 350 && waited < 2000, `the timer ran ${waited} ms`);
  assert.deepEqual(mine, { player: '0', passed: true, move: { action: 'pass' } });
  assert.deepEqual(theirs, { player: '0', passed: true }, 'the others are not told the move');
  const record = await env.store.load(room.roomId);
  assert.deepEqual(record.moves[0], { player: '0', move: { action: 'pass' }, by: 'timeout' });
  local.apply('0', { action: 'pass' });
  await room.disconnect();
  local.dispose();
});

test('where a pass is not allowed the timer plays a random legal move', async () => {
  const local = rs.createGame(exampleDefinition('tictactoe'), { seed: 26 });
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 26, decisionSeconds: 0.3 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  await join(env.url, room.roomId, { seat: '1' });
  const mine = await once(p0, 'timeout');
  assert.equal(mine.passed, false);
  assert.ok(local.legalMoves('0').some((m) => JSON.stringify(m) === JSON.stringify(mine.move)), 'a legal move of player 0');
  const record = await env.store.load(room.roomId);
  assert.deepEqual(record.moves[0], { player: '0', move: mine.move, by: 'timeout' });
  await room.disconnect();
  local.dispose();
});

test('a move in time resets the timer', async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 27, decisionSeconds: 0.6 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const p1 = await join(env.url, room.roomId, { seat: '1' });
  await sleep(400);
  await p0.apply('0', { action: 'Mark', targets: ['C'] });
  await sleep(400); // 0.8 s after the start, 0.4 s into player 1's turn
  const record = await env.store.load(room.roomId);
  assert.deepEqual(record.moves, [{ player: '0', move: { action: 'Mark', targets: ['C'] } }]);
  const t = await once(p1, 'timeout');
  assert.equal(t.player, '1');
  await room.disconnect();
});

test('players and spectators joining and leaving do not restart the decision timer', async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 28, decisionSeconds: 0.6 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const timedOut = once(p0, 'timeout');
  await join(env.url, room.roomId, { seat: '1' }); // the game starts: the timer counts from here
  const t0 = Date.now();
  const comings = (async () => {
    for (let i = 0; i < 4; i++) {
      await sleep(200);
      const w = await join(env.url, room.roomId, { seat: 'spectator' });
      if (i % 2 === 1) await w.leave();
    }
  })();
  const t = await timedOut;
  const waited = Date.now() - t0;
  assert.equal(t.player, '0');
  assert.ok(waited >= 500 && waited < 1000, `the timer ran ${waited} ms (0.6 s from the start of the turn)`);
  await comings;
  await room.disconnect();
});

/** Runs `fn` while the server's store takes `ms` to record a move (a slow Redis). */
async function withSlowStore(ms, fn) {
  const append = env.store.append;
  env.store.append = async function (id, entry) {
    await sleep(ms);
    return append.call(this, id, entry);
  };
  try {
    await fn();
  } finally {
    env.store.append = append;
  }
}

test('a timer that ran out while a move was being recorded does nothing: the next turn has its own', async () => {
  await withSlowStore(500, async () => {
    const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 29, decisionSeconds: 0.4 });
    const p0 = await join(env.url, room.roomId, { seat: '0' });
    const p1 = await join(env.url, room.roomId, { seat: '1' });
    await sleep(250);
    await p0.apply('0', { action: 'Mark', targets: ['C'] }); // recorded 0.5 s later: the timer ran out meanwhile
    const recorded = Date.now();
    const t = await once(p1, 'timeout');
    const after = Date.now() - recorded;
    assert.equal(t.player, '1');
    assert.ok(after >= 800, `player 1's timeout came ${after} ms after player 0's move (its own 0.4 s, then 0.5 s to record it)`);
    const record = await env.store.load(room.roomId);
    assert.deepEqual(record.moves.map((m) => [m.player, m.by]), [['0', undefined], ['1', 'timeout']]);
    await room.disconnect();
  });
});

test('a move in flight when the connection drops is answered once it is back; one the room never got is rejected', async () => {
  await withSlowStore(1000, async () => {
    const local = rs.createGame(exampleDefinition('tictactoe'), { seed: 30 });
    const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 30, graceSeconds: 10 });
    const p0 = await join(env.url, room.roomId, { seat: '0' });
    const p1 = await join(env.url, room.roomId, { seat: '1' });
    p0.room.reconnection.minUptime = 0;
    const token = p0.reconnectionToken;
    // the room has the move and is recording it when the connection drops, and until after the
    // client is back: it answers the client's new connection
    const move = local.legalMoves('0')[0];
    const answered = p0.apply('0', move);
    await sleep(100);
    const back = once(p0, 'reconnect');
    const dropped = new Promise((r) => p0.room.onDrop(r));
    cut(p0);
    await dropped;
    // while the connection is down a move is refused at once (the SDK would keep only the last 10)
    await assert.rejects(p0.apply('0', local.legalMoves('0')[1]), /^Error: rulestack client: the connection to the room is down/);
    assert.deepEqual(await answered, local.apply('0', move), 'resolved with its events once the connection is back');
    const newToken = await back;
    assert.notEqual(newToken, token);
    assert.equal(newToken, p0.reconnectionToken, 'the event gives the token rejoin now takes');
    // a move lost on the way, then a drop: rejected once the connection is back, and nothing changed
    const theirs = local.legalMoves('1')[0];
    assert.deepEqual(await p1.apply('1', theirs), local.apply('1', theirs));
    const hash = room.stateHash;
    const connection = p0.room.connection;
    const send = connection.send;
    connection.send = () => {}; // (the network loses the next message)
    const lost = p0.apply('0', local.legalMoves('0')[0]);
    connection.send = send;
    cut(p0);
    await assert.rejects(lost, /^Error: rulestack client: the connection dropped before the room answered this move, and its answer was lost/);
    assert.equal(room.stateHash, hash);
    // and the seat plays on
    const next = local.legalMoves('0')[0];
    assert.deepEqual(await p0.apply('0', next), local.apply('0', next));
    assert.equal(room.stateHash, local.stateHash());
    // a seated client holds no spectator view
    assert.throws(() => p0.view(null), /^RangeError: rulestack client: view: this client holds only the player 0 view, not the spectator view$/);
    local.dispose();
    await room.disconnect();
  });
});

test('clients that join late get the whole log past the live 128 events, each seat its own', async () => {
  const local = rs.createGame(exampleDefinition('duel'), { seed: 31 });
  const room = await env.colyseus.createRoom('rulestack', { game: 'duel', seed: 31 });
  const players = [await join(env.url, room.roomId, { seat: '0' }), await join(env.url, room.roomId, { seat: '1' })];
  while (local.log(null).length <= 300 && local.view().result === null) {
    const p = local.view().toAct[0];
    const move = local.legalMoves(p)[0];
    await players[Number(p)].apply(p, move);
    local.apply(p, move);
  }
  assert.ok(local.log(null).length > 300, 'more events than the room keeps live');
  // two spectators, then player 0 again after a reload: each the whole log of its seat
  for (const seat of ['spectator', 'spectator']) {
    const late = await join(env.url, room.roomId, { seat });
    assert.deepEqual([...late.log()], [...local.log(null)]);
    await late.leave();
  }
  players[0].room.reconnection.enabled = false;
  const token = players[0].reconnectionToken;
  cut(players[0]);
  await sleep(100);
  const again = await rejoin(env.url, token);
  assert.deepEqual([...again.log()], [...local.log('0')]);
  assert.equal(room.stateHash, local.stateHash());
  local.dispose();
  await room.disconnect();
});

test('a bot move the store could not record is tried again: the game does not wait for someone to join', async () => {
  const append = env.store.append;
  let failures = 0;
  env.store.append = async function (id, entry) {
    if (entry.by === 'bot' && failures++ === 0) throw new Error('the store is down');
    return append.call(this, id, entry);
  };
  try {
    const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 32, bots: { 1: 'random' } });
    const p0 = await join(env.url, room.roomId, { seat: '0' });
    await p0.apply('0', { action: 'Mark', targets: ['C'] });
    await sleep(1500); // the bot's first try failed; it tried again a second later
    const record = await env.store.load(room.roomId);
    assert.equal(failures, 2);
    assert.deepEqual(record.moves.map((m) => [m.player, m.by]), [['0', undefined], ['1', 'bot']]);
    await room.disconnect();
  } finally {
    env.store.append = append;
  }
});

test('a reconnection token used while its connection is open (a second tab): the seat moves to the new connection, the old one is told why', async () => {
  const { REPLACED_CLOSE_REASON } = await import('../game-room.mjs');
  const room = await env.colyseus.createRoom('rulestack', { game: 'duel', seed: 25, graceSeconds: 10 });
  const tab1 = await join(env.url, room.roomId, { seat: '0' });
  const p1 = await join(env.url, room.roomId, { seat: '1' });
  const closed = new Promise((resolve) => tab1.room.onLeave((code, reason) => resolve({ code, reason })));
  const tab2 = await rejoin(env.url, tab1.reconnectionToken);
  assert.deepEqual(await closed, { code: 4002, reason: REPLACED_CLOSE_REASON });
  assert.equal(tab2.seat, '0');
  const local = rs.createGame(exampleDefinition('duel'), { seed: 25 });
  assert.equal(await playWhileAble(local, tab2, '0', 1), 1, 'the new connection plays the seat');
  for (const c of [tab2, p1]) await c.leave();
  local.dispose();
});
