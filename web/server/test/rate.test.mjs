// What a public server needs against a client that sends too much, over real WebSockets:
// the message rate limit (rate-limit.mjs: a burst, then a sustained rate, each seat on its own
// and each address's spectators together, at most 8 of them in a room; a flood is
// disconnected) and a message past the size limit (closed with 1009, said
// in one line on the server's stderr, no stack trace). Normal play never meets either.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { loadEngine } from 'rulestack';
import { join } from 'rulestack/client';
import { WebSocket } from 'ws';
import { startServer, spawnServer, nextMessage, sleep, fromAddress } from './helpers.mjs';
import { RATE_LIMIT, FLOOD_CLOSE_CODE, addressKey } from '../rate-limit.mjs';
import { MAX_SPECTATORS_PER_ADDRESS } from '../game-room.mjs';
import { exampleDefinition } from '../options.mjs';
import { createServer } from '../server.mjs';

let env, rs;
before(async () => {
  env = await startServer(); // the default limits
  rs = await loadEngine();
});
after(() => env.colyseus.shutdown());

const markC = { action: 'Mark', targets: ['C'] };

/** A room whose clients get these limits (the server's are the defaults; a room's own are set before anyone joins). */
async function roomWithLimits(options, limits) {
  const room = await env.colyseus.createRoom('rulestack', options);
  room.rateLimit = { ...RATE_LIMIT, ...limits };
  return room;
}

/** Every message of these types the SDK room receives, in order. */
function collect(sdkRoom, types) {
  const got = [];
  for (const type of types) sdkRoom.onMessage(type, (m) => got.push({ type, m }));
  return got;
}

const until = async (cond, what, ms = 5000) => {
  for (const end = Date.now() + ms; !cond(); await sleep(10)) if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
};

test('the default limits: a burst of 20 messages, then 10 a second, 50 refusals within 10 s before a disconnection', () => {
  assert.deepEqual(RATE_LIMIT, { burst: 20, perSecond: 10, floodRefusals: 50 });
});

test('a burst past the limit is refused and changes nothing; after a wait moves are accepted again', async () => {
  const local = rs.createGame(exampleDefinition('tictactoe'), { seed: 1 });
  const room = await roomWithLimits({ game: 'tictactoe', seed: 1 }, { burst: 3, perSecond: 2 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const got = collect(p0.room, ['update', 'rejected']);
  const hash = room.stateHash;
  // three messages spend the burst; the move and the sync after them are refused
  for (let i = 0; i < 3; i++) p0.room.send('sync', { since: p0.log().length });
  const refused = p0.apply('0', markC);
  p0.room.send('sync', { since: 0 });
  const tooFast = /^rulestack room: sending too fast \(at most 3 messages at once, then 2 a second\): this '(move|sync)' was not processed; send it again later$/;
  await assert.rejects(refused, { name: 'IllegalMoveError', reason: 'rate_limited', message: tooFast });
  await until(() => got.length === 5, 'five answers');
  assert.deepEqual(got.map((g) => g.type), ['update', 'update', 'update', 'rejected', 'rejected']);
  assert.equal(got[3].m.reason, 'rate_limited');
  assert.match(got[3].m.message, /this 'move' was not processed/);
  assert.deepEqual(got[4].m, { id: null, reason: 'rate_limited', message: got[4].m.message });
  assert.match(got[4].m.message, /this 'sync' was not processed/);
  assert.equal(room.stateHash, hash, 'the refused move changed nothing');
  assert.deepEqual((await env.store.load(room.roomId)).moves, []);
  assert.deepEqual(p0.view(), local.view('0'));
  // two tokens a second: after 600 ms the bucket holds one again
  await sleep(600);
  assert.deepEqual(await p0.apply('0', markC), local.apply('0', markC));
  assert.equal(room.stateHash, local.stateHash());
  assert.deepEqual((await env.store.load(room.roomId)).moves, [{ player: '0', move: markC }]);
  local.dispose();
});

test('a client that keeps flooding is disconnected (1008) after its earlier messages are answered; the others play on', async () => {
  const room = await roomWithLimits({ game: 'tictactoe', seed: 2, graceSeconds: 1 }, { burst: 3, perSecond: 0.01, floodRefusals: 10 });
  const flooder = await env.colyseus.sdk.joinById(room.roomId, { seat: '0' });
  await nextMessage(flooder, 'update');
  const p1 = await join(env.url, room.roomId, { seat: '1' });
  const got = collect(flooder, ['update', 'rejected']);
  const left = new Promise((resolve) => flooder.onLeave((code, reason) => resolve({ code, reason })));
  const logged = [];
  const consoleError = console.error;
  console.error = (...args) => logged.push(args.join(' '));
  try {
    // 40 copies of one move at once: the first three run (one is applied, two are not this
    // seat's turn any more), ten are refused, and the eleventh refusal closes the connection
    for (let id = 1; id <= 40; id++) flooder.send('move', { id, move: markC });
    assert.deepEqual(await left, { code: FLOOD_CLOSE_CODE, reason: 'rulestack room: too many messages, too fast' });
  } finally {
    console.error = consoleError;
  }
  const answers = got.map(({ type, m }) => (type === 'update' ? ['ack', m.ack] : [m.reason, m.id]));
  const expected = [['ack', 1], ['not_your_priority', 2], ['not_your_priority', 3], ...Array.from({ length: 10 }, (_, i) => ['rate_limited', 4 + i])];
  assert.deepEqual(answers, expected);
  assert.deepEqual((await env.store.load(room.roomId)).moves, [{ player: '0', move: markC }], 'the flood made one move, its first message');
  assert.equal(logged.length, 1, logged.join('\n'));
  assert.match(logged[0], /^rulestack room: \S+: client \S+ disconnected \(1008\): more than 10 messages refused within 10 s for the rate limit$/);
  // the other player's client has its own bucket, and the room goes on
  const events = await p1.apply('1', { action: 'Mark', targets: ['NW'] });
  assert.ok(events.length > 0);
  assert.equal((await env.store.load(room.roomId)).moves.length, 2);
});

test("a seat keeps its budget when its client leaves and joins again; a spectator of another address has its own, and one's is kept when it reconnects", async () => {
  const room = await roomWithLimits({ game: 'tictactoe', seed: 6, graceSeconds: 10 }, { burst: 2, perSecond: 0.001 });
  const other = await join(env.url, room.roomId, { seat: '1' }); // (keeps the room open meanwhile)
  const first = await join(env.url, room.roomId, { seat: '0' });
  const spent = collect(first.room, ['update']);
  for (let i = 0; i < 2; i++) first.room.send('sync', { since: first.log().length });
  await until(() => spent.length === 2, 'the two answers');
  await first.leave();
  const again = await join(env.url, room.roomId, { seat: '0' });
  await assert.rejects(again.apply('0', markC), { name: 'IllegalMoveError', reason: 'rate_limited' });
  assert.deepEqual((await env.store.load(room.roomId)).moves, [], 'the seat found its budget spent');
  // two spectators of two addresses: what the first spends, the second still has
  const a = await join(env.url, room.roomId, { seat: 'spectator' });
  const b = await fromAddress('127.0.0.2', () => join(env.url, room.roomId, { seat: 'spectator' }));
  const spentA = collect(a.room, ['update', 'rejected']);
  for (let i = 0; i < 2; i++) a.room.send('sync', { since: 0 });
  await until(() => spentA.length === 2, "the first spectator's answers");
  const answeredB = collect(b.room, ['update', 'rejected']);
  b.room.send('sync', { since: 0 });
  await until(() => answeredB.length === 1, "the second spectator's answer");
  assert.equal(answeredB[0].type, 'update');
  // a spectator that drops and comes back (within the grace period) finds its budget spent
  a.room.reconnection.minUptime = 0;
  const back = new Promise((resolve) => { const off = a.on('reconnect', () => { off(); resolve(); }); });
  a.room.connection.transport.ws.terminate();
  await back;
  const afterReconnect = collect(a.room, ['update', 'rejected']);
  a.room.send('sync', { since: 0 });
  await until(() => afterReconnect.some((g) => g.type === 'rejected'), 'the refusal after the reconnection');
  assert.equal(afterReconnect.find((g) => g.type === 'rejected').m.reason, 'rate_limited');
  // the other seat has a budget of its own
  const answered = collect(other.room, ['update', 'rejected']);
  other.room.send('sync', { since: 0 });
  await until(() => answered.length === 1, "the other seat's answer");
  assert.equal(answered[0].type, 'update');
  for (const c of [again, a, b, other]) await c.leave();
});

test('many spectators of as many addresses each sending one sync at once are each answered: none is refused, none disconnected', async () => {
  // (limits small enough that spectators sharing one budget, or one count of refusals, would meet them)
  const room = await roomWithLimits({ game: 'tictactoe', seed: 8 }, { burst: 2, perSecond: 0.001, floodRefusals: 3 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const watchers = [];
  for (let i = 0; i < 12; i++) watchers.push(await fromAddress(`127.0.0.${10 + i}`, () => join(env.url, room.roomId, { seat: 'spectator' })));
  const left = [];
  const got = watchers.map((w, i) => {
    w.on('leave', (code) => left.push([i, code]));
    return collect(w.room, ['update', 'rejected']);
  });
  for (const w of watchers) w.room.send('sync', { since: 0 });
  await until(() => got.every((g) => g.length === 1), 'an answer to each');
  await sleep(200); // (a disconnection would follow its answers)
  assert.deepEqual(got.map((g) => g[0].type), watchers.map(() => 'update'));
  assert.deepEqual(left, []);
  for (const c of [p0, ...watchers]) await c.leave();
});

test("an address's spectators share one budget: opening more connections sends no more; leaving and joining again refills nothing", async () => {
  const room = await roomWithLimits({ game: 'tictactoe', seed: 9 }, { burst: 2, perSecond: 0.001, floodRefusals: 1000 });
  const p0 = await join(env.url, room.roomId, { seat: '0' }); // (keeps the room open meanwhile)
  const watchers = [];
  for (let i = 0; i < 4; i++) watchers.push(await join(env.url, room.roomId, { seat: 'spectator' }));
  const got = watchers.map((w) => collect(w.room, ['update', 'rejected']));
  for (const w of watchers) w.room.send('sync', { since: 0 });
  await until(() => got.every((g) => g.length === 1), 'an answer to each');
  // four connections of one address, the burst of one: two answered, two refused
  const answers = got.map((g) => (g[0].type === 'update' ? 'update' : g[0].m.reason));
  assert.deepEqual([...answers].sort(), ['rate_limited', 'rate_limited', 'update', 'update'], answers.join(', '));
  // a spectator that leaves and joins anew from that address finds the budget as it was left
  await watchers[0].leave();
  const again = await join(env.url, room.roomId, { seat: 'spectator' });
  const afterRejoin = collect(again.room, ['update', 'rejected']);
  again.room.send('sync', { since: 0 });
  await until(() => afterRejoin.length === 1, 'the answer after joining again');
  assert.equal(afterRejoin[0].type, 'rejected');
  assert.equal(afterRejoin[0].m.reason, 'rate_limited');
  // a spectator of another address has a budget of its own, and the player's seat has its own
  const other = await fromAddress('127.0.0.2', () => join(env.url, room.roomId, { seat: 'spectator' }));
  for (const c of [other, p0]) {
    const answered = collect(c.room, ['update', 'rejected']);
    c.room.send('sync', { since: 0 });
    await until(() => answered.length === 1, 'its answer');
    assert.equal(answered[0].type, 'update');
  }
  for (const c of [...watchers.slice(1), again, other, p0]) await c.leave();
});

test(`at most ${MAX_SPECTATORS_PER_ADDRESS} spectators from one address in a room (a dropped one counts until its grace period ends); seats and other addresses are not counted`, async () => {
  assert.equal(MAX_SPECTATORS_PER_ADDRESS, 8);
  const room = await env.colyseus.createRoom('rulestack', { game: 'tictactoe', seed: 10, graceSeconds: 1 });
  const watchers = [];
  for (let i = 0; i < MAX_SPECTATORS_PER_ADDRESS; i++) watchers.push(await join(env.url, room.roomId, { seat: 'spectator' }));
  const refusal = `rulestack client: cannot join room '${room.roomId}' at ${env.url}: rulestack room: too many spectators from one address (at most 8 in a room) (526)`;
  await assert.rejects(join(env.url, room.roomId, { seat: 'spectator' }), { message: refusal });
  // a seat is not a spectator's place; another address has places of its own
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const elsewhere = await fromAddress('127.0.0.3', () => join(env.url, room.roomId, { seat: 'spectator' }));
  assert.equal(elsewhere.seat, null);
  // the address is the connection's own: a header the client writes (as a proxy would) is not believed
  const reservation = await fetch(`http://127.0.0.1:${env.port}/matchmake/joinById/${room.roomId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ seat: 'spectator' }),
  }).then((r) => r.json());
  const ws = new WebSocket(`ws://127.0.0.1:${env.port}/${reservation.processId}/${reservation.roomId}?sessionId=${reservation.sessionId}`, {
    headers: { 'x-forwarded-for': '10.9.9.9', 'x-real-ip': '10.9.9.9', 'x-client-ip': '10.9.9.9' },
  });
  let frames = '';
  ws.on('message', (d) => (frames += Buffer.from(d).toString('latin1')));
  const closed = await new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  assert.equal(closed, 4002);
  assert.match(frames, /too many spectators from one address/);
  // a spectator that left for good frees its place at once
  await watchers.pop().leave();
  watchers.push(await join(env.url, room.roomId, { seat: 'spectator' }));
  // one whose connection dropped keeps it for the grace period (1 s), then frees it
  const dropped = watchers.pop();
  dropped.room.reconnection.enabled = false;
  dropped.room.connection.transport.ws.terminate();
  await sleep(200);
  await assert.rejects(join(env.url, room.roomId, { seat: 'spectator' }), { message: refusal });
  await sleep(1500);
  watchers.push(await join(env.url, room.roomId, { seat: 'spectator' }));
  for (const c of [...watchers, p0, elsewhere]) await c.leave();
});

test('the address spectators are counted by: IPv4 as it is, IPv6 by its /64', () => {
  assert.equal(addressKey('203.0.113.7'), '203.0.113.7');
  assert.equal(addressKey('::ffff:203.0.113.7'), '203.0.113.7', 'an IPv4 client of a dual-stack socket');
  assert.equal(addressKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd'), '2001:db8:1:2::/64');
  assert.equal(addressKey('2001:db8:1:2::1'), '2001:db8:1:2::/64', 'another address of the same /64: the same');
  assert.equal(addressKey('2001:db8:1:3::1'), '2001:db8:1:3::/64');
  assert.equal(addressKey('2001:DB8::'), '2001:db8:0:0::/64');
  assert.equal(addressKey('fe80::1%eth0'), 'fe80:0:0:0::/64');
  assert.equal(addressKey(undefined), 'unknown');
  assert.equal(addressKey('not an address'), 'unknown');
});

test('a client whose sync is refused for coming too fast sends it again, and takes in the events it missed', async () => {
  const local = rs.createGame(exampleDefinition('tictactoe'), { seed: 5 });
  // (a token in 4 s: the spent budget stays spent while the next move is made, however slow the machine)
  const room = await roomWithLimits({ game: 'tictactoe', seed: 5 }, { burst: 3, perSecond: 0.25, floodRefusals: 1000 });
  const p0 = await join(env.url, room.roomId, { seat: '0' });
  const p1 = await join(env.url, room.roomId, { seat: '1' });
  const watcher = await join(env.url, room.roomId, { seat: 'spectator' });
  // the update of player 0's move is lost on its way to the spectator
  const dispatch = watcher.room.dispatchMessage.bind(watcher.room);
  let lose = 1;
  watcher.room.dispatchMessage = (type, m) => (type === 'update' && lose > 0 ? void lose-- : dispatch(type, m));
  const first = local.legalMoves('0')[0];
  assert.deepEqual(await p0.apply('0', first), local.apply('0', first));
  await until(() => lose === 0, 'the lost update');
  // the spectators' budget spent (a message of no known type costs a token like any other)
  const rejected = collect(watcher.room, ['rejected']);
  const limited = () => rejected.filter((r) => r.m.reason === 'rate_limited').length;
  for (let i = 0; i < 5; i++) watcher.room.send('noop');
  await until(() => rejected.length === 5, 'the five answers'); // (each answered: none still on its way)
  const refusedBefore = limited();
  assert.ok(refusedBefore >= 2, `the burst of 3 spent: ${refusedBefore} refused`);
  // the next update shows the gap: the spectator's sync for what it missed is refused at first
  const second = local.legalMoves('1')[0];
  assert.deepEqual(await p1.apply('1', second), local.apply('1', second));
  await until(() => limited() > refusedBefore, 'the sync refused');
  assert.ok(watcher.log().length < local.log(null).length, 'behind while its sync is refused');
  await until(() => watcher.log().length === local.log(null).length, 'the missed events', 20_000);
  assert.deepEqual([...watcher.log()], [...local.log(null)]);
  assert.deepEqual(watcher.view(), local.view(null));
  local.dispose();
});

test('a budget: a burst, then its rate; refusals come back over the window, so a flood stays one until they do', async () => {
  const { MessageBudget } = await import('../rate-limit.mjs');
  const budget = new MessageBudget({ burst: 2, perSecond: 1, floodRefusals: 2 }, 0);
  assert.deepEqual([0, 0, 0, 0, 0].map((t) => budget.take(t)), ['ok', 'ok', 'refused', 'refused', 'flood']);
  assert.deepEqual([1000, 1000].map((t) => budget.take(t)), ['ok', 'flood'], 'a second later: a token, and 0.2 of a refusal');
  assert.deepEqual([6000, 6000, 6000, 6000].map((t) => budget.take(t)), ['ok', 'ok', 'refused', 'flood'], '5 s more: the burst, and 1.2 refusals');
  assert.equal(budget.take(5000), 'flood', 'a clock that goes back gives nothing back');
  const open = new MessageBudget({ burst: Infinity, perSecond: Infinity, floodRefusals: Infinity }, 0);
  assert.deepEqual([0, 0, 5, 5].map((t) => open.take(t)), ['ok', 'ok', 'ok', 'ok']);
});

test('normal play at the default limits: a whole Duel, each seat moving every 100 ms, is never refused', async () => {
  const room = await env.colyseus.createRoom('rulestack', { game: 'duel', seed: 3 });
  const seats = [await join(env.url, room.roomId, { seat: '0' }), await join(env.url, room.roomId, { seat: '1' })];
  const watcher = await join(env.url, room.roomId, { seat: 'spectator' });
  const clients = [...seats, watcher];
  const refusals = [];
  const updates = clients.map(() => 0);
  clients.forEach((c, i) => {
    c.room.onMessage('rejected', (m) => refusals.push(m));
    c.on('update', () => (updates[i] += 1));
  });
  let moves = 0;
  while (seats[0].view().result === null && moves < 200) {
    const mover = seats.find((c) => c.legalMoves().length > 0);
    const options = mover.legalMoves();
    // (a person clicking ten times a second is faster than anyone plays)
    await sleep(100);
    const before = [...updates];
    await mover.apply(mover.seat, options[moves % options.length]);
    moves += 1;
    await until(() => updates.every((n, i) => n > before[i]), 'every client\'s update');
  }
  assert.ok(moves > 20, `${moves} moves: past the burst`);
  assert.deepEqual(refusals, []);
  assert.equal((await env.store.load(room.roomId)).moves.length, moves);
  assert.notEqual(watcher.view().result, null);
});

test('a message over 64 KiB closes that client with 1009, said in one line without a stack trace; the room plays on', async () => {
  const server = await spawnServer(); // main.mjs, as deployed: its stderr is what an operator reads
  let stderr = '';
  server.child.stderr.on('data', (d) => (stderr += d));
  try {
    const p0 = await join(server.url, { game: 'tictactoe', seed: 4 });
    const p1 = await join(server.url, p0.roomId, { seat: '1' });
    const closed = new Promise((resolve) => p1.on('leave', resolve));
    p1.room.send('move', { id: 1, move: 'x'.repeat(70 * 1024) });
    assert.equal(await closed, 1009);
    const events = await p0.apply('0', markC);
    assert.ok(events.length > 0, 'the other client still moves');
    await until(() => stderr.includes('\n'), 'the line on stderr', 2000);
    await sleep(200); // (anything printed after it would be seen too)
    assert.match(stderr, /^rulestack server: a message over 65536 bytes from \S+: its connection is closed \(1009\)\n$/);
    assert.doesNotMatch(stderr, /^\s+at /m);
    await p0.leave();
  } finally {
    server.child.kill('SIGTERM');
  }
});

test('npm run server takes its limits from RATE_BURST, RATE_PER_SECOND and RATE_FLOOD_REFUSALS', async () => {
  const server = await spawnServer({ RATE_BURST: '2', RATE_PER_SECOND: '0.001', RATE_FLOOD_REFUSALS: '1' });
  try {
    const p0 = await join(server.url, { game: 'tictactoe', seed: 5 });
    const left = new Promise((resolve) => p0.on('leave', resolve));
    for (let i = 0; i < 2; i++) p0.room.send('sync', { since: p0.log().length });
    await assert.rejects(p0.apply('0', markC), { reason: 'rate_limited', message: /\(at most 2 messages at once, then 0\.001 a second\)/ });
    p0.room.send('sync', { since: 0 }); // the second refusal: more than one
    const late = sleep(10_000).then(() => 'no close within 10 s');
    assert.equal(await Promise.race([left, late]), FLOOD_CLOSE_CODE);
  } finally {
    server.child.kill('SIGTERM');
  }
  // a bad one exits 2 with the reason (execFile, not spawnSync: the event loop runs meanwhile)
  const main = new URL('../main.mjs', import.meta.url).pathname;
  const cases = [
    [{ RATE_BURST: '0' }, /^rulestack server: RATE_BURST must be a whole number from 1 to 1000000, not '0'$/m],
    [{ RATE_BURST: '2.5' }, /^rulestack server: RATE_BURST must be a whole number from 1 to 1000000, not '2.5'$/m],
    [{ RATE_PER_SECOND: '0' }, /^rulestack server: RATE_PER_SECOND must be a number above 0 and at most 1000000, not '0'$/m],
    [{ RATE_PER_SECOND: 'fast' }, /not 'fast'/],
    [{ RATE_FLOOD_REFUSALS: '-1' }, /^rulestack server: RATE_FLOOD_REFUSALS must be a whole number from 1 to 1000000, not '-1'$/m],
    [{ REQUEST_BURST: '0' }, /^rulestack server: REQUEST_BURST must be a whole number from 1 to 1000000, not '0'$/m],
    [{ REQUEST_PER_SECOND: '-2' }, /^rulestack server: REQUEST_PER_SECOND must be a number above 0 and at most 1000000, not '-2'$/m],
    [{ REQUEST_READING_BYTES: '0' }, /^rulestack server: REQUEST_READING_BYTES must be a whole number from 1 to 9007199254740991, not '0'$/m],
    [{ REQUEST_READING_BYTES: '1e9' }, /^rulestack server: REQUEST_READING_BYTES must be a whole number from 1 to 9007199254740991, not '1e9'$/m],
    [{ REQUEST_ADDRESSES: '0' }, /^rulestack server: REQUEST_ADDRESSES must be a whole number from 1 to 9007199254740991, not '0'$/m],
    [{ RECORD_TTL_SECONDS: '0' }, /^rulestack server: RECORD_TTL_SECONDS must be a number of seconds from 1 to 2147483, not '0'$/m],
  ];
  await Promise.all(
    cases.map(async ([vars, message]) => {
      const r = await promisify(execFile)(process.execPath, [main], { env: { ...process.env, PORT: '1', ...vars }, timeout: 30_000 }).then(() => ({ code: 0, stderr: '' }), (e) => e);
      assert.equal(r.code, 2, `${JSON.stringify(vars)}: ${r.stderr}`);
      assert.match(r.stderr, message);
    }),
  );
});

test('npm run server takes its HTTP request limit from REQUEST_BURST and REQUEST_PER_SECOND', async () => {
  const server = await spawnServer({ REQUEST_BURST: '2', REQUEST_PER_SECOND: '0.001' });
  try {
    for (let i = 0; i < 2; i++) await (await join(server.url, { game: 'tictactoe', seed: i })).leave();
    await assert.rejects(join(server.url, { game: 'tictactoe' }), { code: 429, message: /too many requests from this address/ });
  } finally {
    server.child.kill('SIGTERM');
  }
});

test('createServer refuses a bad rate limit', () => {
  assert.throws(() => createServer({ rateLimit: { burst: 0 } }), { message: 'rulestack server: the rate limit burst must be a whole number from 1, not 0' });
  assert.throws(() => createServer({ rateLimit: { perSecond: -1 } }), { message: 'rulestack server: the rate limit perSecond must be a number above 0, not -1' });
  assert.throws(() => createServer({ rateLimit: { burts: 5 } }), { message: "rulestack server: unknown rate limit 'burts' (limits: burst, perSecond, floodRefusals)" });
});
