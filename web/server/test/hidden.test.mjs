// Hidden information through the server: over 200 random games (random clients, one per
// seat, plus a spectator), every message a client receives is exactly what view(p),
// log(p) and legalMoves(p) of the same game give at that moment (the game replayed from
// the room's record), and never names a card of an opponent's hidden hand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from 'rulestack';
import { join } from 'rulestack/client';
import { startServer } from './helpers.mjs';
import { exampleDefinition } from '../options.mjs';

let env, rs;
before(async () => {
  // its clients move as fast as the room answers, hundreds of moves a second: far past the
  // rate limit a person's client is held to (rate.test.mjs), which is off here
  env = await startServer({ rateLimit: { burst: Infinity } });
  rs = await loadEngine();
});
after(() => env.colyseus.shutdown());

/** Every message of every type the client's room receives, in order; got.next() waits for one more. */
function recordMessages(game) {
  const got = [];
  let wake = null;
  const push = (type, m) => {
    got.push({ type, m });
    wake?.();
  };
  for (const type of ['update', 'rejected', 'timeout']) game.room.onMessage(type, (m) => push(type, m));
  game.room.onMessage('*', (type, m) => push(type, m));
  got.next = (count) => (got.length > count ? Promise.resolve() : new Promise((r) => (wake = () => ((wake = null), r()))));
  return got;
}

/** Ids that seat p cannot see now: the entities in the players' views that p's view lacks. */
function hiddenFrom(views, p) {
  const ids = (view) => Object.values(view.zones).flatMap((z) => (z.entities ?? []).map((e) => e.id));
  const visible = new Set(ids(views.get(p)));
  const hidden = new Set();
  for (const [q, view] of views) if (q !== null && q !== p) for (const id of ids(view)) if (!visible.has(id)) hidden.add(id);
  return hidden;
}

async function playRandomGame(name, seed) {
  const room = await env.colyseus.createRoom('rulestack', { game: name, seed });
  const seats = [await join(env.url, room.roomId, { seat: '0' }), await join(env.url, room.roomId, { seat: '1' })];
  const watcher = await join(env.url, room.roomId, { seat: 'spectator' });
  const clients = [...seats, watcher];
  // the first update (sent on joining) is already in: record from the next one on
  const got = clients.map(recordMessages);
  // every id each client has been told of so far (a card it saw in the open and that went
  // back into a hidden zone is no secret to it)
  const told = clients.map((c) => new Set(JSON.stringify([c.view(), c.log()]).match(/"[^"]*"/g)));
  const first = rs.createGame(exampleDefinition(name), { seed });
  clients.forEach((c) => {
    assert.deepEqual(c.view(), first.view(c.seat), 'the view sent on joining');
    assert.deepEqual([...c.log()], [...first.log(c.seat)], 'the events sent on joining');
  });
  first.dispose();
  let rng = seed * 7919 + 1;
  const random = (n) => ((rng = (rng * 1103515245 + 12345) % 2147483648), rng % n);
  let moves = 0;
  while (seats[0].view().result === null && moves < 400) {
    const mover = seats.find((c) => c.legalMoves().length > 0);
    assert.ok(mover, `${name} ${seed}: someone must be able to move`);
    const options = mover.legalMoves();
    const count = got.map((g) => g.length);
    await mover.apply(mover.seat, options[random(options.length)]);
    moves += 1;
    // all updates of one move are sent together: wait until each client has its own
    await Promise.all(got.map((g, i) => g.next(count[i])));
  }
  await room.disconnect();
  // replay the record move by move and compare each client's k-th message with the game then
  const record = await env.store.load(room.roomId);
  assert.equal(record.moves.length, moves);
  const local = rs.createGame(exampleDefinition(name), { seed, logLimit: 128 });
  let leaks = 0;
  for (let k = 0; k < moves; k++) {
    local.apply(record.moves[k].player, record.moves[k].move);
    // each seat's view and log once per step (JSON from the engine is what costs)
    const views = new Map(clients.map((c) => [c.seat, local.view(c.seat)]));
    const logs = new Map(clients.map((c) => [c.seat, local.log(c.seat)]));
    clients.forEach((c, i) => {
      const p = c.seat;
      const { type, m } = got[i][k];
      assert.equal(type, 'update', `${name} ${seed}: message ${k} of ${p ?? 'spectator'}`);
      const log = logs.get(p);
      assert.ok(m.from >= log.dropped);
      const expected = { seat: p, view: views.get(p), legalMoves: p === null ? [] : local.legalMoves(p), from: m.from, dropped: 0, events: log.slice(m.from - log.dropped) };
      if (m.ack !== undefined) expected.ack = m.ack;
      assert.deepEqual(m, expected, `${name} ${seed}: message ${k} of ${p ?? 'spectator'} is view/log/legalMoves`);
      const strings = new Set(JSON.stringify(m).match(/"[^"]*"/g));
      for (const id of hiddenFrom(views, p)) if (strings.has(`"${id}"`) && !told[i].has(`"${id}"`)) leaks += 1;
      for (const str of strings) told[i].add(str);
    });
  }
  clients.forEach((c, i) => {
    assert.equal(got[i].length, moves, 'one message per move, nothing else');
    const log = local.log(c.seat);
    assert.deepEqual([...c.log()].slice(log.dropped), [...log], 'the events add up to log(p)');
    assert.equal(c.log().length, log.dropped + log.length);
  });
  assert.equal(leaks, 0, `${name} ${seed}: an opponent's hidden card was named to a client`);
  local.dispose();
  await Promise.all(clients.map((c) => c.leave().catch(() => {})));
  return moves;
}

test('200 random games: each client receives only its view, its log and its legal moves', async () => {
  let total = 0;
  const games = [...Array(180)].map((_, i) => ['duel', i + 1]).concat([...Array(20)].map((_, i) => ['crazy-eights', i + 1]));
  // eight games at a time
  for (let i = 0; i < games.length; i += 8) {
    const counts = await Promise.all(games.slice(i, i + 8).map(([name, seed]) => playRandomGame(name, seed)));
    total += counts.reduce((a, b) => a + b, 0);
  }
  console.log(`hidden: 200 games, ${total} moves, every message checked`);
  assert.ok(total > 2000);
});
