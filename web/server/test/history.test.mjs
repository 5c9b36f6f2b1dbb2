// Old events (log-history.mjs): a client that asks for the log from its start — a late
// spectator, a page rejoining after a reload, or one asking on purpose after every move — is
// sent each viewer's events exactly as log(p) gives them, and never makes the room replay the
// record (compiling the definition and playing every move, on the thread all rooms share) for
// each move: the rooms' engine compiles nothing while they ask.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { loadEngine } from 'rulestack';
import { join } from 'rulestack/client';
import { startServer, nextMessage } from './helpers.mjs';
import { exampleDefinition } from '../options.mjs';
import { definitionHash } from '../game-record.mjs';
import { LogHistory } from '../log-history.mjs';

let env, rs;
before(async () => {
  // (these clients ask after every move, faster than the rate limit lets a person's client)
  env = await startServer({ rateLimit: { burst: Infinity } });
  rs = await loadEngine(); // (the rooms' engine: this process's one)
});
after(() => env.colyseus.shutdown());

/** Runs fn, counting the games the engine makes meanwhile (each compiles its definition): { value, games }. */
async function countingGames(fn) {
  const createGame = rs.createGame;
  let games = 0;
  rs.createGame = function (...args) {
    games += 1;
    return createGame.apply(this, args);
  };
  try {
    return { value: await fn(), games };
  } finally {
    rs.createGame = createGame;
  }
}

/** Resolves once the client holds `n` events (its update for the last move is in). */
function holding(client, n) {
  if (client.log().length >= n) return Promise.resolve();
  return new Promise((resolve) => {
    const off = client.on('update', () => client.log().length >= n && (off(), resolve()));
  });
}

/** Each client's answer to a `sync { since: 0 }`, once it has its update for the last move of `local`. */
async function syncAll(clients, local) {
  await Promise.all(clients.map((c) => holding(c, local.log(c.seat).length)));
  return Promise.all(
    clients.map((c) => {
      const answer = nextMessage(c.room, 'update');
      c.room.send('sync', { since: 0 });
      return answer;
    }),
  );
}

/** A game whose Deal makes `count` cards in each hidden hand: a move of about 4 × count events for every viewer. */
function floodDefinition() {
  const deal = (name, count) => ({
    name,
    queue: false,
    condition: '$player.current == $player.active',
    mutations: [{ operation: 'Create', template: 'C', count, destination: '$item.zone.@Hand', for_each: '$player.all' }, { operation: 'EndTurn' }],
  });
  return {
    name: 'Flood',
    players: { count: 2 },
    zones: [{ name: 'Hand', per_player: true, visibility: 'owner' }],
    entities: [{ id: 'C', type: 'card' }],
    actions: [deal('Deal', 40), deal('Flood', 200), { name: 'Wait', queue: false, condition: '$player.current == $player.active', mutations: [{ operation: 'EndTurn' }] }],
    flow: { phases: [{ name: 'Main', valid_actions: ['Deal', 'Flood', 'Wait'], pass: false }] },
    end_conditions: [{ when: '$turn > 100', draw: true }],
  };
}

/** Two players and a spectator in a new room: { room, clients, local } (local: the same game, its whole log kept). */
async function seated(options, local) {
  const room = await env.colyseus.createRoom('rulestack', options);
  const clients = [await join(env.url, room.roomId, { seat: '0' }), await join(env.url, room.roomId, { seat: '1' }), await join(env.url, room.roomId, { seat: 'spectator' })];
  return { room, clients, local };
}

test('a sync from 0 after every move is answered from the logs kept: no replay, and each viewer its own log(p) exactly', async () => {
  // (Crazy Eights deals 140 events: more than the live game keeps, so the first join already needs the old ones)
  const local = rs.createGame(exampleDefinition('crazy-eights'), { seed: 5 });
  const { room, clients } = await seated({ game: 'crazy-eights', seed: 5 });
  assert.ok(local.log(null).length > 128, 'the deal alone is past the live log');
  try {
    const { games } = await countingGames(async () => {
      for (let k = 0; k < 30 && local.view().result === null; k++) {
        const p = local.view().toAct.find((q) => local.legalMoves(q).length > 0);
        const move = local.legalMoves(p)[k % local.legalMoves(p).length];
        assert.deepEqual(await clients[Number(p)].apply(p, move), local.apply(p, move));
        const answers = await syncAll(clients, local);
        answers.forEach((u, i) => {
          const seat = clients[i].seat;
          assert.equal(u.from, 0);
          assert.equal(u.dropped, 0);
          assert.deepEqual(u.events, [...local.log(seat)], `move ${k}: the whole log of ${seat ?? 'the spectator'}`);
        });
      }
    });
    assert.equal(games, 0, 'no game made (no definition compiled) for the syncs');
    // a late spectator: the log kept, not a replay
    const late = await countingGames(() => join(env.url, room.roomId, { seat: 'spectator' }));
    assert.deepEqual([...late.value.log()], [...local.log(null)]);
    assert.equal(late.games, 0);
    await late.value.leave();
  } finally {
    local.dispose();
    await room.disconnect();
  }
});

test('moves with more events than the live log keeps: every client gets them all, and the room replays only as the largest move grows', async () => {
  const local = rs.createGame(floodDefinition(), { seed: 1 });
  const { room, clients } = await seated({ definition: floodDefinition(), seed: 1 });
  try {
    const play = async (action) => {
      const p = local.view().toAct[0];
      assert.deepEqual(await clients[Number(p)].apply(p, { action }), local.apply(p, { action }));
    };
    await play('Deal'); // 169 events: every client is behind the live log, whose viewers' logs are replayed once
    const { games } = await countingGames(async () => {
      for (let k = 0; k < 6; k++) await play('Deal');
      await play('Flood'); // 809: the wide game is made again, larger
      for (let k = 0; k < 6; k++) await play(k % 2 ? 'Flood' : 'Deal');
      for (let k = 0; k < 20; k++) await play('Wait');
    });
    assert.equal(games, 2, 'the wide game: made at the first move past the live log, then once more for a larger one');
    const answers = await syncAll(clients, local);
    for (const c of clients) assert.deepEqual([...c.log()], [...local.log(c.seat)], `the log of ${c.seat ?? 'the spectator'}, move by move`);
    answers.forEach((u, i) => assert.deepEqual(u.events, [...local.log(clients[i].seat)]));
  } finally {
    local.dispose();
    await room.disconnect();
  }
});

test('a kept log past its limit drops its oldest events, and says how many', () => {
  const definition = exampleDefinition('duel');
  const live = rs.createGame(definition, { seed: 2, logLimit: 16 });
  const local = rs.createGame(definition, { seed: 2 });
  const header = { game: 'duel', definition: null, definitionHash: definitionHash(live.definitionJson), seed: 2 };
  const moves = [];
  const history = new LogHistory(rs, () => ({ header, moves }), 200);
  try {
    assert.deepEqual(history.since('0', 0), { from: 0, dropped: 0, events: [...local.log('0')] });
    while (local.log('0').length < 400 && local.view().result === null) {
      const p = local.view().toAct.find((q) => local.legalMoves(q).length > 0);
      const move = local.legalMoves(p)[0];
      live.apply(p, move);
      local.apply(p, move);
      moves.push({ player: p, move });
      history.moved({ player: p, move }, (v) => live.log(v));
    }
    const all = [...local.log('0')];
    assert.ok(all.length >= 400, `${all.length} events`);
    const { from, dropped, events } = history.since('0', 0);
    assert.ok(dropped > 0 && dropped <= all.length - 200, `${dropped} dropped`);
    assert.equal(from, dropped);
    assert.deepEqual(events, all.slice(dropped));
    assert.deepEqual(history.since('0', all.length - 3).events, all.slice(-3));
  } finally {
    history.dispose();
    live.dispose();
    local.dispose();
  }
});
