// The rulestack room over real WebSockets (@colyseus/testing): seats, moves, rejected moves,
// spectators, bad options and messages. Each step checks the exact messages that follow
// against a local game with the same seed and moves (the server's game is the same game).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFile } from 'node:child_process';
import { loadEngine } from 'rulestack';
import { join } from 'rulestack/client';
import { startServer, nextMessage } from './helpers.mjs';

const text = (name) => fs.readFileSync(new URL(`../../../examples/${name}.yaml`, import.meta.url), 'utf8');
let env, rs;
before(async () => {
  env = await startServer();
  rs = await loadEngine();
});
after(() => env.colyseus.shutdown());

test('seats: the first free seat, a named seat, a taken seat, a spectator', async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 1 });
  const a = await env.colyseus.sdk.joinById(room.roomId);
  assert.equal((await nextMessage(a, 'update')).seat, '0');
  await assert.rejects(env.colyseus.sdk.joinById(room.roomId, { seat: '0' }), { message: "rulestack room: seat '0' is taken" });
  await assert.rejects(env.colyseus.sdk.joinById(room.roomId, { seat: '7' }), { message: "rulestack room: seat must be a player (0, 1) or 'spectator', not \"7\"" });
  // a key the room does not take (here a typo of seat) is refused, not ignored: no seat is taken
  await assert.rejects(env.colyseus.sdk.joinById(room.roomId, { seet: '1' }), {
    message: /^rulestack room: unknown option 'seet' \(options: game, definition, .*; when joining: seat, resumeKey\)$/,
  });
  const b = await env.colyseus.sdk.joinById(room.roomId);
  assert.equal((await nextMessage(b, 'update')).seat, '1');
  const c = await env.colyseus.sdk.joinById(room.roomId);
  const spectator = await nextMessage(c, 'update');
  assert.equal(spectator.seat, null);
  assert.deepEqual(spectator.legalMoves, []);
  assert.deepEqual(room.metadata.seats, { 0: true, 1: true });
  // a seat left for good (consented) is free again
  await a.leave(true);
  await new Promise((r) => setTimeout(r, 100));
  assert.deepEqual(room.metadata.seats, { 1: true });
  const d = await env.colyseus.sdk.joinById(room.roomId, { seat: 0 });
  assert.equal((await nextMessage(d, 'update')).seat, '0');
});

test("the client's on(): an unknown event name (toString too) or a callback that is not a function is refused", async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 1 });
  const game = await join(env.url, room.roomId, { seat: '0' });
  try {
    for (const name of ['moves', 'toString']) {
      assert.throws(() => game.on(name, () => {}), { name: 'TypeError', message: `rulestack client: unknown event '${name}' (events: event, update, timeout, reconnect, leave)` });
    }
    assert.throws(() => game.on('update', 5), { name: 'TypeError', message: 'rulestack client: callback must be a function, not 5' });
  } finally {
    await game.leave();
  }
});

test('moves: each client gets exactly its view, its new events and its legal moves', async () => {
  const local = rs.createGame(text('duel'), { seed: 11 });
  const room = await env.colyseus.createRoom('rulestack', { game: 'duel', seed: 11 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const p1 = await join(env.url, room.roomId, { seat: '1' });
  const watcher = await join(env.url, room.roomId, { seat: 'spectator' });
  assert.equal(p0.seat, '0');
  assert.equal(watcher.seat, null);
  assert.deepEqual(p0.players, ['0', '1']);
  // the definition is public: every seat and the spectator get the room's, as the engine's JSON
  for (const c of [p0, p1, watcher]) assert.equal(c.definitionJson, local.definitionJson);
  const check = () => {
    assert.deepEqual(p0.view(), local.view('0'));
    assert.deepEqual(p1.view('1'), local.view('1'));
    assert.deepEqual(watcher.view(), local.view(null));
    assert.deepEqual(p0.legalMoves(), local.legalMoves('0'));
    assert.deepEqual(p1.legalMoves(), local.legalMoves('1'));
    assert.deepEqual([...p0.log()], [...local.log('0')]);
    assert.deepEqual([...p1.log()], [...local.log('1')]);
    assert.deepEqual([...watcher.log()], [...local.log(null)]);
  };
  check();
  const bot = rs.bot(local, { seed: 5 });
  const seen = [];
  p1.on('event', (e) => seen.push(e));
  for (let i = 0; i < 12 && local.view().result === null; i++) {
    const player = local.view().toAct[0];
    const move = bot.choose(player);
    const expected = local.apply(player, move);
    const client = player === '0' ? p0 : p1;
    const other = player === '0' ? p1 : p0;
    // every other client (the other player, the spectator) is sent its update too
    const updates = [other, watcher].map((c) => new Promise((r) => { const off = c.on('update', () => { off(); r(); }); }));
    assert.deepEqual(await client.apply(player, move), expected, `move ${i + 1}: the mover's events`);
    await Promise.all(updates);
    check();
  }
  assert.deepEqual(seen, [...local.log('1')].slice(local.log('1').length - seen.length), "'event' gave each new event of the seat's log");
  assert.ok(seen.length > 0);
  assert.equal(room.stateHash, local.stateHash());
  local.dispose();
});

test('a rejected move gets the reason and changes nothing', async () => {
  const local = rs.createGame(text('tictactoe'), { seed: 2 });
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 2 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const p1 = await join(env.url, room.roomId, { seat: '1' });
  const watcher = await join(env.url, room.roomId, { seat: 'spectator' });
  const hash = room.stateHash;
  await assert.rejects(p1.apply('1', { action: 'Mark', targets: ['C'] }), { name: 'IllegalMoveError', reason: 'not_your_priority', message: 'player 1 does not have priority' });
  await assert.rejects(p0.apply('0', { action: 'Mark', targets: ['nowhere'] }), { name: 'IllegalMoveError', reason: 'bad_target' });
  await assert.rejects(p0.apply('0', { action: 'Fly' }), { name: 'IllegalMoveError', reason: 'unknown_action' });
  await assert.rejects(p0.apply('0', 'Mark C'), { name: 'IllegalMoveError', reason: 'bad_move' });
  await assert.rejects(p0.apply('1', { action: 'pass' }), { name: 'IllegalMoveError', reason: 'unknown_player', message: "rulestack client: this client plays '0', not '1'" });
  await assert.rejects(watcher.apply('0', { action: 'pass' }), { name: 'IllegalMoveError', reason: 'unknown_player', message: 'rulestack client: a spectator cannot move' });
  assert.equal(room.stateHash, hash);
  assert.deepEqual(p0.view(), local.view('0'));
  // a legal move after all that
  assert.deepEqual(await p0.apply('0', { action: 'Mark', targets: ['C'] }), local.apply('0', { action: 'Mark', targets: ['C'] }));
  assert.equal(room.stateHash, local.stateHash());
  local.dispose();
});

test('malformed messages get a clear answer and change nothing', async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 3 });
  const raw = await env.colyseus.sdk.joinById(room.roomId, { seat: '0' });
  await nextMessage(raw, 'update');
  const hash = room.stateHash;
  raw.send('move', 'C');
  assert.deepEqual(await nextMessage(raw, 'rejected'), { id: null, reason: 'bad_move', message: "rulestack room: a 'move' message is { id: <integer>, move: <a move object> }, not \"C\"" });
  raw.send('move', { id: 4, move: [1, 2] });
  assert.deepEqual(await nextMessage(raw, 'rejected'), { id: 4, reason: 'bad_move', message: 'a move must be a JSON object' });
  raw.send('teleport', {});
  assert.deepEqual(await nextMessage(raw, 'rejected'), { id: null, reason: 'bad_move', message: "rulestack room: unknown message 'teleport' (messages: move, sync)" });
  raw.send('sync', { since: -1 });
  assert.match((await nextMessage(raw, 'rejected')).message, /^rulestack room: a 'sync' message is \{ since: <integer ≥ 0> \}/);
  // a long move (here 10 KB of targets) is answered, not cut off: messages up to 64 KiB
  raw.send('move', { id: 5, move: { action: 'Mark', targets: Array.from({ length: 1000 }, (_, i) => `cell${i}`) } });
  assert.equal((await nextMessage(raw, 'rejected')).id, 5);
  raw.send('move', { id: 6, move: 'x'.repeat(70 * 1024) });
  await new Promise((r) => raw.onLeave(r)); // past the limit: this client's connection is closed
  assert.equal(room.stateHash, hash);
});

test('npm run server takes no arguments, PORT is a port number, RECORD_TTL_SECONDS and RECORD_LEASE_SECONDS numbers of seconds', async () => {
  const main = new URL('../main.mjs', import.meta.url).pathname;
  const cases = [
    [['--port', '3000'], {}, /^rulestack server: it takes no arguments, not --port 3000 \(set PORT, REDIS_URL, PUBLIC_ADDRESS, RECORD_TTL_SECONDS, RECORD_LEASE_SECONDS, RATE_BURST, RATE_PER_SECOND, RATE_FLOOD_REFUSALS, REQUEST_BURST, REQUEST_PER_SECOND, REQUEST_READING_BYTES and REQUEST_ADDRESSES in its environment\)$/m],
    [[], { PORT: '0' }, /^rulestack server: PORT must be a port number from 1 to 65535, not '0'$/m],
    [[], { PORT: '0x64f1' }, /not '0x64f1'/],
    [[], { PORT: '' }, /not ''/],
    [[], { RECORD_TTL_SECONDS: '0' }, /^rulestack server: RECORD_TTL_SECONDS must be a number of seconds from 1 to 2147483, not '0'$/m],
    [[], { RECORD_TTL_SECONDS: '2147484' }, /not '2147484'/],
    [[], { RECORD_TTL_SECONDS: '1.5' }, /not '1.5'/],
    [[], { RECORD_LEASE_SECONDS: '0' }, /^rulestack server: RECORD_LEASE_SECONDS must be a number of seconds from 1 to 2147483, not '0'$/m],
    [[], { RECORD_LEASE_SECONDS: '0.5' }, /not '0.5'/],
  ];
  // (the servers run as children the event loop waits for: blocked for seconds, as spawnSync
  // did, this process's own server let its clients' idle connections lapse, and the next
  // test's first request could meet one closing)
  const run = (args, env) =>
    new Promise((resolve) => {
      execFile(process.execPath, [main, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 30_000 }, (e, stdout, stderr) =>
        resolve({ status: e ? e.code : 0, stdout, stderr }),
      );
    });
  const results = await Promise.all(cases.map(([args, env]) => run(args, env)));
  cases.forEach(([args, env, message], i) => {
    const r = results[i];
    assert.equal(r.status, 2, `${args.join(' ')} ${JSON.stringify(env)}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr, message);
  });
});

test('bad room options are refused with what is wrong', async () => {
  const create = (o) => env.colyseus.sdk.create('rulestack', o);
  await assert.rejects(create({ game: 'duel', colour: 'red' }), { message: /^rulestack room: unknown option 'colour' \(options: game, definition, seed, bots, botsForEmptySeats, decisionSeconds, graceSeconds, botDelayMs, listed, resume; when joining: seat, resumeKey\)$/ });
  await assert.rejects(create({}), { message: /^rulestack room: give exactly one of 'game' \(an example name: ambush, crazy-eights, duel/ });
  await assert.rejects(create({ game: 'chess' }), { message: /^rulestack room: unknown game 'chess' \(examples: ambush, / });
  await assert.rejects(create({ game: 'duel', seed: 1.5 }), { message: 'rulestack room: seed must be a safe integer or a string, not 1.5' });
  await assert.rejects(create({ game: 'duel', bots: { 1: 'genius' } }), { message: 'rulestack room: bots[\'1\'] must be one of random, easy, normal, hard, not "genius"' });
  await assert.rejects(create({ game: 'duel', bots: { 5: 'easy' } }), { message: "rulestack room: bots names player '5', but the game's players are 0, 1" });
  await assert.rejects(create({ game: 'duel', decisionSeconds: 0 }), { message: 'rulestack room: decisionSeconds must be a number of seconds above 0 and at most 86400, not 0' });
  await assert.rejects(create({ definition: { name: 'x', flwo: 1 } }), { message: /unknown key 'flwo'/ });
  await assert.rejects(create({ resume: 'no-such-room' }), { message: "rulestack room: no game record 'no-such-room' to resume" });
  const live = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 1 });
  await assert.rejects(create({ resume: live.roomId }), { message: `rulestack room: room '${live.roomId}' is still running: join it instead of resuming it` });
  // through rulestack/client: what was asked, where, then the room's answer
  await assert.rejects(join(env.url, { game: 'chess' }), { message: /^rulestack client: cannot create a room at ws:\/\/127\.0\.0\.1:\d+: rulestack room: unknown game 'chess' \(examples: .*\) \(526\)$/ });
  // a join takes a seat and a resumeKey only: a room's options given to a join are refused before anything is sent
  await assert.rejects(join(env.url, live.roomId, { seat: '0', seed: 3 }), {
    name: 'RangeError',
    message: `rulestack: join: unknown option 'seed' (options: seat, resumeKey): joining room '${live.roomId}' takes a seat and a resumeKey only (a new room's options are join's second argument)`,
  });
  await assert.rejects(join(env.url, 'no-such-room'), { message: /^rulestack client: cannot join room 'no-such-room' at ws:\/\/127\.0\.0\.1:\d+: room "no-such-room" not found \(522\)$/ });
});

test('a custom definition, and bots that play their seats', async () => {
  const room = await env.colyseus.createRoom('rulestack', { definition: text('tictactoe'), seed: 4, bots: { 1: 'random' } });
  const p0 = await join(env.url, room.roomId);
  assert.equal(p0.seat, '0');
  while (p0.view().result === null) {
    const turn = p0.view().turn;
    const next = new Promise((r) => {
      const off = p0.on('update', (u) => {
        if (u.view.turn > turn + 1 || u.view.result !== null) {
          off();
          r();
        }
      });
    });
    await p0.apply('0', p0.legalMoves()[0]);
    if (p0.view().result === null) await next; // the bot answers by itself
  }
  const record = await env.store.load(room.roomId);
  assert.equal(record.header.seed, 4);
  assert.equal(record.header.game, null);
  assert.match(record.header.definitionHash, /^[0-9a-f]{64}$/);
  assert.deepEqual(record.moves.map((m) => [m.player, m.by ?? 'player']), record.moves.map((_, i) => (i % 2 === 0 ? ['0', 'player'] : ['1', 'bot'])));
});

test('bots for empty seats: with one player in, a bot plays the seat nobody took', async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 5, botsForEmptySeats: 'random' });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const answered = new Promise((r) => { const off = p0.on('update', (u) => { if (u.view.toAct[0] === '0' && u.view.turn === 3) { off(); r(); } }); });
  await p0.apply('0', { action: 'Mark', targets: ['C'] });
  await answered;
  const record = await env.store.load(room.roomId);
  assert.deepEqual(record.moves.map((m) => [m.player, m.by ?? 'player']), [['0', 'player'], ['1', 'bot']]);
  // someone who joins now takes the seat from the bot
  const p1 = await join(env.url, room.roomId);
  assert.equal(p1.seat, '1');
});

test('a move the store cannot record is taken back and refused', async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 6 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const hash = room.stateHash;
  const append = env.store.append;
  env.store.append = async () => {
    throw new Error('disk full');
  };
  try {
    await assert.rejects(p0.apply('0', { action: 'Mark', targets: ['C'] }), { name: 'IllegalMoveError', reason: 'runtime_error', message: 'rulestack room: the move could not be recorded (disk full); it was taken back' });
  } finally {
    env.store.append = append;
  }
  assert.equal(room.stateHash, hash);
  assert.deepEqual((await env.store.load(room.roomId)).moves, []);
  await p0.apply('0', { action: 'Mark', targets: ['C'] });
  assert.deepEqual((await env.store.load(room.roomId)).moves, [{ player: '0', move: { action: 'Mark', targets: ['C'] } }]);
});

test('a seed the creator chose is told to every client (they can work out the hidden cards); a drawn one is not', async () => {
  const chosen = await env.colyseus.createRoom('rulestack', { game: 'duel', seed: 5 });
  const drawn = await env.colyseus.createRoom('rulestack', { game: 'duel' });
  for (const [room, seedChosen] of [[chosen, true], [drawn, false]]) {
    assert.equal(room.metadata.seedChosen, seedChosen);
    const p1 = await join(env.url, room.roomId, { seat: '1' });
    const watcher = await join(env.url, room.roomId, { seat: 'spectator' });
    assert.equal(p1.seedChosen, seedChosen);
    assert.equal(watcher.seedChosen, seedChosen);
    assert.equal((await env.store.load(room.roomId)).header.seedChosen, seedChosen);
    await room.disconnect();
  }
});

/** A ROOM_DATA frame (13) of type `type` whose payload is `payload` (msgpack bytes), as the SDK's send builds it. */
const frame = (type, payload) => new Uint8Array([13, 0xa0 | type.length, ...Buffer.from(type), ...payload]);
const msgpackStr = (s) => [0xa0 | s.length, ...Buffer.from(s)];
/** msgpack's uint64 (0xcf) of n: what a client in another language sends for an integer of 2^32 or more. */
const uint64 = (n) => [0xcf, ...Array.from({ length: 8 }, (_, i) => Number((BigInt(n) >> BigInt(8 * (7 - i))) & 0xffn))];

/** Runs fn with console.error collected (what the server logs); returns the lines. */
async function logged(fn) {
  const lines = [];
  const consoleError = console.error;
  console.error = (...args) => lines.push(args.map(String).join(' '));
  try {
    await fn();
  } finally {
    console.error = consoleError;
  }
  return lines;
}

test('64-bit integers (msgpack uint64, a BigInt once decoded): an id or since is read as the integer; past 2^53 refused; nothing throws', async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 9 });
  const raw = await env.colyseus.sdk.joinById(room.roomId, { seat: '0' });
  await nextMessage(raw, 'update');
  const id = 2 ** 40 + 5;
  const lines = await logged(async () => {
    // { id: uint64, move: { action: 'Mark', targets: ['C'] } }: applied, acknowledged with its id
    const update = nextMessage(raw, 'update');
    raw.connection.send(frame('move', [0x82, ...msgpackStr('id'), ...uint64(id), ...msgpackStr('move'), 0x82, ...msgpackStr('action'), ...msgpackStr('Mark'), ...msgpackStr('targets'), 0x91, ...msgpackStr('C')]));
    assert.equal((await update).ack, id);
    // an id past the safe integers: a bad message, quoted with its digits
    const refused = nextMessage(raw, 'rejected');
    raw.connection.send(frame('move', [0x82, ...msgpackStr('id'), ...uint64(2n ** 63n), ...msgpackStr('move'), 0x80]));
    assert.deepEqual(await refused, { id: null, reason: 'bad_move', message: `rulestack room: a 'move' message is { id: <integer>, move: <a move object> }, not {"id":"${2n ** 63n}","move":{}}` });
    // a uint64 inside the move is its number too: the engine answers about the move itself
    const answered = nextMessage(raw, 'rejected');
    raw.connection.send(frame('move', [0x82, ...msgpackStr('id'), 7, ...msgpackStr('move'), 0x82, ...msgpackStr('action'), ...msgpackStr('pass'), ...msgpackStr('x'), ...uint64(1)]));
    assert.deepEqual(await answered, { id: 7, reason: 'malformed_move', message: "a pass takes no 'x'" });
    // { since: uint64 0 }: the whole log again
    const synced = nextMessage(raw, 'update');
    raw.connection.send(frame('sync', [0x81, ...msgpackStr('since'), ...uint64(0)]));
    assert.equal((await synced).from, 0);
    const badSync = nextMessage(raw, 'rejected');
    raw.connection.send(frame('sync', [0x81, ...msgpackStr('since'), ...uint64(2n ** 64n - 1n)]));
    assert.match((await badSync).message, /^rulestack room: a 'sync' message is \{ since: <integer ≥ 0> \}, not \{"since":"18446744073709551615"\}$/);
  });
  assert.deepEqual(lines, [], 'nothing logged');
  assert.equal((await env.store.load(room.roomId)).moves.length, 1);
});

test('a frame that is not msgpack closes its connection with a reason, logged in one line; a deep one too', async () => {
  const { MALFORMED_CLOSE_CODE, MALFORMED_CLOSE_REASON } = await import('../game-room.mjs');
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 10 });
  const other = await join(env.url, room.roomId, { seat: '1' });
  const frames = {
    truncated: frame('move', [0x82, 0xa2]),
    // nested deeper than msgpackr's stack
    deep: frame('move', [0x82, ...msgpackStr('id'), 1, ...msgpackStr('move'), ...Array(20000).fill(0x91), 1]),
  };
  for (const [what, bytes] of Object.entries(frames)) {
    const raw = await env.colyseus.sdk.joinById(room.roomId, { seat: 'spectator' });
    await nextMessage(raw, 'update');
    const left = new Promise((resolve) => raw.onLeave((code, reason) => resolve({ code, reason })));
    const lines = await logged(async () => {
      raw.connection.send(bytes);
      assert.deepEqual(await left, { code: MALFORMED_CLOSE_CODE, reason: MALFORMED_CLOSE_REASON }, what);
    });
    assert.equal(lines.length, 1, `${what}: ${lines.join('\n')}`);
    assert.match(lines[0], /^rulestack room: \S+: client \S+ disconnected \(4002\): a malformed message \([^\n]+\)$/);
  }
  // the room plays on for its other clients
  const update = nextMessage(other.room, 'update');
  other.room.send('sync', { since: 0 });
  assert.equal((await update).seat, '1');
});

test('a move sent as raw bytes is told to be msgpack; a seat given as a number is quoted as one', async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 11 });
  const raw = await env.colyseus.sdk.joinById(room.roomId, { seat: '0' });
  await nextMessage(raw, 'update');
  raw.sendBytes('move', new Uint8Array([1, 2, 3]));
  assert.deepEqual(await nextMessage(raw, 'rejected'), { id: null, reason: 'bad_move', message: "rulestack room: a 'move' message is msgpack data (the SDK's send), not raw bytes" });
  await assert.rejects(env.colyseus.sdk.joinById(room.roomId, { seat: 5 }), { message: "rulestack room: seat must be a player (0, 1) or 'spectator', not 5" });
  assert.equal((await env.colyseus.sdk.joinById(room.roomId, { seat: 1 }).then((r) => nextMessage(r, 'update'))).seat, '1', 'a number names that player');
});

test("a definition's errors: createGame's message, then each other error once, the root written '/'", async () => {
  const { DefinitionError } = await import('rulestack');
  const { definitionErrorMessage } = await import('../options.mjs');
  let local;
  try {
    rs.createGame('name: x');
  } catch (e) {
    local = e;
  }
  assert.equal(local.errors.length, 2);
  await assert.rejects(env.colyseus.sdk.create('rulestack', { definition: 'name: x' }), {
    message: `rulestack room: ${local.message}: /: missing required key 'flow' (line 1, column 1)`,
  });
  // the same error many times is said once
  const same = { path: '', message: 'YAML syntax error: Maximum call stack size exceeded', line: 1, column: 7 };
  const many = new DefinitionError([...Array(35).fill(same), { path: '/flow', message: 'bad' }]);
  assert.equal(definitionErrorMessage(many), `${many.message}: /flow: bad`);
  assert.equal(definitionErrorMessage(new DefinitionError([same])), 'invalid definition: /: YAML syntax error: Maximum call stack size exceeded (line 1, column 7)');
});

test('a definition over 8 MB is refused with the engine\'s message before the engine reads it', async () => {
  const calls = [];
  const createGame = rs.createGame;
  rs.createGame = function (definition, ...rest) {
    calls.push(typeof definition === 'string' ? definition.length : 'object');
    return createGame.call(this, definition, ...rest);
  };
  try {
    const message = 'rulestack room: invalid definition: /: the definition is larger than 8 MB';
    // (9 MB in UTF-8: 4.6 M two-byte characters, fewer than 8 M of them)
    const yaml = `name: x\nplayers: ["${'é'.repeat(4.6 * 2 ** 20)}"]\n`;
    await assert.rejects(env.colyseus.sdk.create('rulestack', { definition: yaml }), { message });
    await assert.rejects(env.colyseus.sdk.create('rulestack', { definition: { name: 'x'.repeat(9 * 2 ** 20) } }), { message });
    assert.deepEqual(calls, [], 'the engine never saw them');
    // a definition within the limit is the engine's to judge: YAML by the definition reader's
    // worker (definition-reader.test.mjs), JSON text here
    await assert.rejects(env.colyseus.sdk.create('rulestack', { definition: 'name: x' }), { message: /missing required key 'players'/ });
    assert.equal(calls.length, 0);
    await assert.rejects(env.colyseus.sdk.create('rulestack', { definition: '{"name": "x"}' }), { message: /missing required key 'players'/ });
    assert.equal(calls.length, 1);
  } finally {
    rs.createGame = createGame;
  }
});
