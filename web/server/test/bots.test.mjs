// Bots off the server's thread (bot-pool.mjs): a bot's search, seconds long for 'hard' in
// Nexus, runs in a worker while every other room answers at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from 'rulestack';
import { join } from 'rulestack/client';
import { fromAddress, startServer, sleep } from './helpers.mjs';
import { BotPool, CACHED_GAMES, botPool } from '../bot-pool.mjs';
import { FairQueue } from '../fair-queue.mjs';
import { exampleDefinition } from '../options.mjs';

let env, rs;
before(async () => {
  env = await startServer();
  rs = await loadEngine();
});
after(() => env.colyseus.shutdown());

test('a worker chooses a legal move of the game it is sent; a bad request is an error, and the pool goes on', async () => {
  const pool = new BotPool(1);
  const game = rs.createGame(exampleDefinition('duel'), { seed: 3 });
  try {
    const job = { definition: game.definitionJson, snapshot: game.snapshot(), player: '0', level: 'easy', seed: 1 };
    const move = await pool.choose(job);
    assert.ok(game.legalMoves('0').some((m) => JSON.stringify(m) === JSON.stringify(move)), JSON.stringify(move));
    await assert.rejects(pool.choose({ ...job, player: '9' }), /RangeError/);
    assert.deepEqual(await pool.choose(job), move, 'the same state and seed: the same move');
  } finally {
    game.dispose();
    await pool.close();
  }
});

test("hard bots playing Nexus do not hold up another room: its answers come at once", { timeout: 60_000 }, async () => {
  const probe = await join(env.url, { game: 'tictactoe', seed: 1 });
  const bots = await join(env.url, { game: 'nexus', seed: 2, bots: { 0: 'hard', 1: 'hard' } }, { seat: 'spectator' });
  const latencies = [];
  const end = Date.now() + 6000;
  while (Date.now() < end) {
    const t = performance.now();
    const answered = new Promise((resolve) => { const off = probe.room.onMessage('update', () => { off(); resolve(); }); });
    probe.room.send('sync', { since: 0 });
    await answered;
    latencies.push(performance.now() - t);
    await sleep(150); // (within the rate limit: 10 messages a second)
  }
  const moves = (await env.store.load(bots.roomId)).moves;
  assert.ok(moves.length >= 1 && moves.every((m) => m.by === 'bot'), `the bots moved: ${moves.length}`);
  // (a hard Nexus move takes seconds of the engine: on the server's thread the probe would wait as long)
  assert.ok(Math.max(...latencies) < 500, `the probe's slowest answer: ${Math.round(Math.max(...latencies))} ms`);
  for (const c of [probe, bots]) await c.leave();
});

test("cancel drops an owner's choices, waiting and running, and the pool goes on for others", { timeout: 60_000 }, async () => {
  const pool = new BotPool(1);
  const nexus = rs.createGame(exampleDefinition('nexus'), { seed: 2 });
  const duel = rs.createGame(exampleDefinition('duel'), { seed: 3 });
  try {
    const slow = { definition: nexus.definitionJson, snapshot: nexus.snapshot(), player: nexus.view().toAct[0], level: 'hard', seed: 1 };
    const gone = {};
    const running = pool.choose(slow, gone);
    const waiting = pool.choose(slow, gone);
    const t = performance.now();
    pool.cancel(gone);
    await assert.rejects(waiting, /cancelled/);
    await assert.rejects(running, /exited|terminated/);
    // the next owner's choice does not wait for the cancelled searches (a hard Nexus move: seconds)
    const move = await pool.choose({ definition: duel.definitionJson, snapshot: duel.snapshot(), player: '0', level: 'easy', seed: 1 }, {});
    assert.ok(duel.legalMoves('0').some((m) => JSON.stringify(m) === JSON.stringify(move)));
    assert.ok(performance.now() - t < 2500, `${performance.now() - t} ms`);
  } finally {
    nexus.dispose();
    duel.dispose();
    await pool.close();
  }
});

/** What the worker chose before it kept games: a fresh restore of the snapshot, and a bot of that level and seed. */
function freshChoice(definition, snapshot, player, level, seed) {
  const game = rs.restore(definition, snapshot);
  try {
    return rs.bot(game, { level, seed }).choose(player);
  } finally {
    game.dispose();
  }
}

test("a worker keeps the game it restored: a room's successive choices compile the definition once, and are a fresh restore's", { timeout: 60_000 }, async () => {
  const pool = new BotPool(1);
  const local = rs.createGame(exampleDefinition('duel'), { seed: 5 });
  const definition = local.definitionJson;
  const played = [];
  let last = null;
  const choices = [];
  try {
    // the bot plays seat 0; seat 1 (a person, as far as the worker knows) plays its first legal move
    while (local.view().result === null && choices.length < 12) {
      const p = local.view().toAct.find((q) => local.legalMoves(q).length > 0);
      let move;
      if (p === '0') {
        const job = { definition, snapshot: local.snapshot(), player: p, level: 'easy', seed: played.length };
        if (last) job.since = { stateHash: last.stateHash, moves: played.slice(last.moves) };
        last = { moves: played.length, stateHash: local.stateHash() };
        move = await pool.choose(job);
        assert.deepEqual(move, freshChoice(definition, job.snapshot, p, 'easy', job.seed), `choice ${choices.length}`);
        choices.push(move);
      } else {
        move = local.legalMoves(p)[0];
      }
      local.apply(p, move);
      played.push({ player: p, move });
    }
    assert.equal(choices.length, 12);
    assert.ok(played.length > choices.length, 'moves the worker was told of only in the next choice');
    assert.equal(pool.compilations, 1, 'the definition compiled for the first choice only');

    // a state the worker did not keep, or moves that do not lead to the snapshot: restored again, and the same choice
    const p = local.view().toAct.find((q) => local.legalMoves(q).length > 0);
    assert.notEqual(p, undefined, 'the game goes on');
    const job = { definition, snapshot: local.snapshot(), player: p, level: 'easy', seed: 99 };
    const expected = freshChoice(definition, job.snapshot, p, 'easy', 99);
    assert.deepEqual(await pool.choose({ ...job, since: { stateHash: '0000000000000000', moves: [] } }), expected);
    assert.equal(pool.compilations, 2);
    assert.deepEqual(await pool.choose({ ...job, since: { stateHash: local.stateHash(), moves: [{ player: p, move: local.legalMoves(p)[0] }] } }), expected);
    assert.equal(pool.compilations, 3, 'a replay that does not give the snapshot is not used');
    assert.deepEqual(await pool.choose({ ...job, since: { stateHash: local.stateHash(), moves: [] } }), expected);
    assert.equal(pool.compilations, 3, 'the same state again: the kept game');

    // the worker keeps a few games: past CACHED_GAMES others, the first is restored again
    const others = ['tictactoe', 'crazy-eights', 'ambush', 'seed-playcard'].slice(0, CACHED_GAMES).map((name) => rs.createGame(exampleDefinition(name), { seed: 1 }));
    for (const g of others) {
      const q = g.view().toAct.find((x) => g.legalMoves(x).length > 0);
      assert.deepEqual(await pool.choose({ definition: g.definitionJson, snapshot: g.snapshot(), player: q, level: 'easy', seed: 1 }), freshChoice(g.definitionJson, g.snapshot(), q, 'easy', 1));
      g.dispose();
    }
    assert.equal(pool.compilations, 3 + CACHED_GAMES);
    assert.deepEqual(await pool.choose({ ...job, since: { stateHash: local.stateHash(), moves: [] } }), expected);
    assert.equal(pool.compilations, 4 + CACHED_GAMES, 'evicted: restored again');
  } finally {
    local.dispose();
    await pool.close();
  }
});

test("a room that ends has the games kept for it dropped: its next choice would restore again", { timeout: 60_000 }, async () => {
  const pool = new BotPool(1);
  const local = rs.createGame(exampleDefinition('duel'), { seed: 5 });
  const definition = local.definitionJson;
  const [room, other] = [{}, {}];
  try {
    const p = local.view().toAct[0];
    const job = { definition, snapshot: local.snapshot(), player: p, level: 'easy', seed: 1 };
    const again = { ...job, since: { stateHash: local.stateHash(), moves: [] } };
    const expected = freshChoice(definition, job.snapshot, p, 'easy', 1);
    assert.deepEqual(await pool.choose(job, room), expected);
    assert.deepEqual(await pool.choose(again, room), expected);
    assert.equal(pool.compilations, 1, 'kept for the room');
    pool.cancel(room); // the room ends
    assert.deepEqual(await pool.choose(again, other), expected);
    assert.equal(pool.compilations, 2, "the ended room's game was dropped: restored again");
  } finally {
    local.dispose();
    await pool.close();
  }
});

/** A pool of one worker that also takes bot-worker.mjs's test jobs: { test: 'kept' } (the owners of its kept games), { test: 'crash' } (the engine's next game.apply traps). */
async function hookedPool() {
  const pool = new BotPool(1);
  process.env.RULESTACK_BOT_WORKER_TEST = '1'; // (read by the worker, started by this first choice, as it starts)
  const first = pool.choose({ test: 'kept' });
  delete process.env.RULESTACK_BOT_WORKER_TEST;
  assert.deepEqual(await first, [], 'the worker takes the test jobs');
  return pool;
}

test('an engine crash while a kept game is brought forward drops every kept game at once; a refused move, only its own', { timeout: 60_000 }, async () => {
  const pool = await hookedPool();
  const games = ['duel', 'tictactoe', 'crazy-eights'].map((name) => rs.createGame(exampleDefinition(name), { seed: 1 }));
  const rooms = games.map(() => ({}));
  try {
    /** Room i's next choice (a fresh restore's), its kept game brought forward by `moves`, which are played here when `played`. */
    const next = async (i, moves, played = true) => {
      const g = games[i];
      const since = { stateHash: g.stateHash(), moves };
      if (played) for (const { player, move } of moves) g.apply(player, move);
      const player = g.view().toAct.find((q) => g.legalMoves(q).length > 0);
      const job = { definition: g.definitionJson, snapshot: g.snapshot(), player, level: 'easy', seed: 2, since };
      assert.deepEqual(await pool.choose(job, rooms[i]), freshChoice(job.definition, job.snapshot, player, 'easy', 2));
    };
    const firstMove = (g) => {
      const player = g.view().toAct.find((q) => g.legalMoves(q).length > 0);
      return { player, move: g.legalMoves(player)[0] };
    };
    for (const i of games.keys()) await next(i, []); // (each room's first: restored)
    const [c, b, a] = await pool.choose({ test: 'kept' }); // (the owners' ids, the one used last first)
    assert.equal(pool.compilations, 3);

    // a move the kept game refuses: that game is restored anew, the others are kept
    await next(1, [{ player: firstMove(games[1]).player, move: { action: 'no such action' } }], false);
    assert.equal(pool.compilations, 4);
    assert.deepEqual(await pool.choose({ test: 'kept' }), [b, c, a]);

    // the engine crashes as the kept game plays the moves: the choice is answered (restored in a fresh engine)
    assert.equal(await pool.choose({ test: 'crash' }), null);
    await next(0, [firstMove(games[0])]);
    assert.equal(pool.compilations, 5);
    assert.deepEqual(await pool.choose({ test: 'kept' }), [a], "the other games, lost with the crashed engine, are dropped at once");
    await next(0, []);
    assert.equal(pool.compilations, 5, 'the game restored in the fresh engine is kept, and serves the next choice');
  } finally {
    for (const g of games) g.dispose();
    await pool.close();
  }
});

/** A duel (seed 3) and a choice of its seat 0 (easy, seed 1): { local, job, expected } (expected: a fresh restore's choice). */
function duelChoice() {
  const local = rs.createGame(exampleDefinition('duel'), { seed: 3 });
  const job = { definition: local.definitionJson, snapshot: local.snapshot(), player: '0', level: 'easy', seed: 1 };
  return { local, job, expected: freshChoice(job.definition, job.snapshot, '0', 'easy', 1) };
}

test("a room's choice asked after it ended is refused at once, and no game is kept for it", { timeout: 60_000 }, async () => {
  const pool = await hookedPool();
  const { local, job, expected } = duelChoice();
  const [room, unseen, other] = [{}, {}, {}];
  try {
    assert.deepEqual(await pool.choose(job, room), expected);
    pool.cancel(room); // the room ends (its game kept is dropped) ...
    pool.cancel(unseen); // (one that never asked)
    for (const owner of [room, unseen]) await assert.rejects(pool.choose(job, owner), /the room ended: its bot choice was cancelled/); // ... as its bot's choice is asked
    assert.deepEqual(await pool.choose({ test: 'kept' }), [], 'nothing kept for them: no drop would ever come');
    assert.equal(pool.compilations, 1);
    assert.deepEqual(await pool.choose(job, other), expected, 'another room is served');
    pool.cancel(null); // (choices of no owner are not refused after it)
    assert.deepEqual(await pool.choose(job), expected);
  } finally {
    local.dispose();
    await pool.close();
  }
});

test("a worker ended for a room as it answers is given no other room's choice", { timeout: 60_000 }, async () => {
  const pool = new BotPool(1);
  const { local, job, expected } = duelChoice();
  const [room, other] = [{}, {}];
  try {
    assert.deepEqual(await pool.choose(job, other), expected); // (the worker started)
    const answered = pool.choose(job, room);
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1500); // this thread busy: the worker's answer waits, sent
    pool.cancel(room); // the worker is ended, its answer not yet read ...
    const others = pool.choose(job, other); // ... and another room asks at once
    const [mine, theirs] = await Promise.allSettled([answered, others]);
    assert.equal(theirs.status, 'fulfilled', `the other room's choice: ${theirs.reason}`);
    assert.deepEqual(theirs.value, expected, 'the other room is answered by a new worker');
    assert.match(String(mine.reason), /exited|terminated/, "the ended room's answer is not taken");
  } finally {
    local.dispose();
    await pool.close();
  }
});

test('a choice that cannot be sent to a worker is refused, and the worker goes on choosing', { timeout: 20_000 }, async () => {
  const pool = new BotPool(1);
  const { local, job, expected } = duelChoice();
  try {
    const unsendable = { ...job, snapshot: () => job.snapshot }; // (a function: no structured clone of it)
    await assert.rejects(pool.choose(unsendable), /could not be cloned/);
    assert.deepEqual(await pool.choose(job), expected, 'the worker was freed');
    // (one that waited: sent as another choice is answered)
    const [first, second] = [pool.choose(job, {}), pool.choose(unsendable, {})];
    assert.deepEqual(await first, expected);
    await assert.rejects(second, /could not be cloned/);
    assert.deepEqual(await pool.choose(job), expected);
  } finally {
    local.dispose();
    await pool.close();
  }
});

test("a room's bots: each choice is a fresh restore's, and the room's definition is compiled once for all of them", { timeout: 60_000 }, async () => {
  const pool = botPool(); // (the one the rooms use)
  const before = pool.compilations;
  const watcher = await join(env.url, { game: 'crazy-eights', seed: 4, bots: { 0: 'easy', 1: 'easy' } }, { seat: 'spectator' });
  const record = async () => (await env.store.load(watcher.roomId)).moves;
  for (const end = Date.now() + 30_000; (await record()).length < 40 && watcher.view().result === null; await sleep(50)) {
    assert.ok(Date.now() < end, `40 bot moves within 30 s: ${(await record()).length}`);
  }
  await watcher.leave(); // (the room ends: its bots stop)
  const moves = await record();
  assert.ok(moves.length >= 2 && moves.every((m) => m.by === 'bot'), `${moves.length} moves`);
  // replayed here: each move is what a fresh restore of the state before it chose (seeded with the moves so far)
  const local = rs.createGame(exampleDefinition('crazy-eights'), { seed: 4 });
  try {
    moves.forEach(({ player, move }, k) => {
      assert.deepEqual(move, freshChoice(local.definitionJson, local.snapshot(), player, 'easy', k), `move ${k}`);
      local.apply(player, move);
    });
  } finally {
    local.dispose();
  }
  assert.equal(pool.compilations - before, 1, `${moves.length} choices, compilations: ${pool.compilations - before}`);
});

test('a pool of no workers is refused; a worker that cannot start fails the choices waiting (none would take them), and the next one is tried anew', async () => {
  for (const size of [0, -1, 1.5, '2']) assert.throws(() => new BotPool(size), { name: 'RangeError', message: `rulestack server: a pool's size must be a whole number from 1, not ${size}` });
  const pool = new BotPool(1, new URL('http://example.org/bot-worker.mjs')); // (the Worker constructor throws for it)
  const game = rs.createGame(exampleDefinition('tictactoe'), { seed: 1 });
  try {
    const job = { definition: game.definitionJson, snapshot: game.snapshot(), player: '0', level: 'random', seed: 1 };
    const settled = await Promise.allSettled([pool.choose(job), pool.choose(job)]);
    for (const s of settled) assert.equal(s.reason?.code, 'ERR_INVALID_URL_SCHEME', JSON.stringify(s));
    await assert.rejects(pool.choose(job), { code: 'ERR_INVALID_URL_SCHEME' });
    await pool.close(); // (nothing waits: it settles)
  } finally {
    game.dispose();
  }
});

test('the waiting choices are served by fair share: the address, then the room, that has had the least of the workers\' time', () => {
  let now = 0;
  const q = new FairQueue(() => now);
  const task = (name, owner, group = owner) => ({ name, owner, group });
  /** The next task, run for `ms`. */
  const serve = (ms) => {
    const t = q.shift();
    now += ms;
    q.done(t);
    return t.name;
  };
  for (const t of [task('a1', 'A', 'x'), task('a2', 'A', 'x'), task('b1', 'B', 'x'), task('c1', 'C', 'y')]) q.push(t);
  assert.equal(q.size, 4);
  assert.equal(q.peek().name, 'a1', 'none has had any: the first to come');
  // x has had 100 ms: y's turn; then in x, room B (none yet) before room A
  assert.deepEqual([serve(100), serve(10), serve(10), serve(10)], ['a1', 'c1', 'b1', 'a2']);
  assert.equal(q.shift(), undefined);

  // three rooms of one address searching 3 s a choice, each asking again as soon as it has its move
  const heavy = ['H1', 'H2', 'H3'];
  for (const h of heavy) q.push(task(h, h, 'h'));
  const round = () => {
    const name = serve(3000);
    if (heavy.includes(name)) q.push(task(name, name, 'h'));
    return name;
  };
  assert.deepEqual([round(), round(), round(), round()], ['H1', 'H2', 'H3', 'H1']);
  // a room of another address asks (a quick bot): it goes next, not after the three; so does a room of the same address
  for (const v of [task('V', 'V', 'v'), task('W', 'W', 'h')]) {
    q.push(v);
    assert.equal(q.peek().name, v.name);
    assert.equal(serve(30), v.name);
    assert.ok(heavy.includes(round()));
  }
  // a room that asked nothing for long does not save up time: once served it waits its turn again
  q.push(task('V', 'V', 'v'));
  q.push(task('V2', 'V', 'v'));
  const [first, second, third] = [serve(3000), round(), serve(30)];
  assert.deepEqual([first, heavy.includes(second), third], ['V', true, 'V2']);

  assert.deepEqual(q.clear().map((t) => t.name).sort(), heavy);
  q.push(task('a', 'A', 'x'));
  q.push(task('b', 'B', 'x'));
  assert.deepEqual(q.remove((t) => t.owner === 'B').map((t) => t.name), ['b']);
  assert.equal(q.size, 1);
});

test("the pool serves rooms in turn: a room's many choices do not all go before another room's, nor one address's rooms before another address's", { timeout: 20_000 }, async () => {
  const pool = new BotPool(1, new URL('./fake-bot-worker.mjs', import.meta.url));
  const served = [];
  const ask = (move, owner, group) => pool.choose({ move, ms: 30 }, owner, group).then((m) => served.push(m));
  try {
    // room a asks four times (the first is chosen at once), then room b once: b's comes next, not after all of a's
    const [a, b] = [{}, {}];
    await Promise.all([ask('a1', a), ask('a2', a), ask('a3', a), ask('a4', a), ask('b1', b)]);
    assert.deepEqual(served, ['a1', 'b1', 'a2', 'a3', 'a4']);
    // four rooms of one address (one choice each, as a room asks), then a room of another: its choice comes next
    served.length = 0;
    const rooms = [{}, {}, {}, {}, {}];
    await Promise.all([...[1, 2, 3, 4].map((i) => ask(`x${i}`, rooms[i - 1], 'x')), ask('y1', rooms[4], 'y')]);
    assert.deepEqual(served, ['x1', 'y1', 'x2', 'x3', 'x4']);
  } finally {
    await pool.close();
  }
});

test("a room's bots take the share of the address its first client joined from; before anyone joined, one share for all such rooms", { timeout: 60_000 }, async () => {
  const pool = botPool();
  const choose = pool.choose;
  const groups = new Map(); // room id → the groups its choices were asked with
  pool.choose = function (job, owner, group) {
    if (owner?.roomId) groups.set(owner.roomId, [...(groups.get(owner.roomId) ?? []), group]);
    return choose.call(this, job, owner, group);
  };
  const watch = () => join(env.url, { game: 'duel', bots: { 0: 'easy', 1: 'easy' }, botDelayMs: 20 }, { seat: 'spectator' });
  try {
    const watchers = [...(await fromAddress('127.0.0.2', async () => [await watch(), await watch()])), await fromAddress('127.0.0.3', watch)];
    const joined = (w) => (groups.get(w.roomId) ?? []).filter((g) => g !== 'nobody');
    for (const end = Date.now() + 20_000; watchers.some((w) => joined(w).length < 2); await sleep(50)) assert.ok(Date.now() < end, 'each room asked twice since its watcher joined');
    // (a room of bots alone starts at once: its first choices may come before its watcher joins, as nobody's)
    for (const [i, w] of watchers.entries()) {
      const asked = groups.get(w.roomId);
      const first = asked.findIndex((g) => g !== 'nobody');
      assert.ok(asked.slice(0, first).every((g) => g === 'nobody'));
      assert.deepEqual([...new Set(asked.slice(first))], [i < 2 ? '127.0.0.2' : '127.0.0.3'], "from its watcher's join on, its address's");
    }
    for (const w of watchers) await w.leave();
  } finally {
    pool.choose = choose;
  }
});
