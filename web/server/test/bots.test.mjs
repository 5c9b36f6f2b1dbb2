// Bots off the server's thread (bot-pool.mjs): a bot's search, seconds long for 'hard' in
// Nexus, runs in a worker while every other room answers at once.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from 'rulestack';
import { join } from 'rulestack/client';
import { startServer, sleep } from './helpers.mjs';
import { BotPool } from '../bot-pool.mjs';
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
