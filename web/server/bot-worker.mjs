// A worker of the bot pool (bot-pool.mjs): its own engine, which restores the game from the
// snapshot it is sent and answers with the bot's move, so that a bot's search (seconds, for
// 'hard' in a big game) never holds up the server's thread, where every room runs.
//
// Restoring a game compiles its definition (tens of ms for a large one, far more than an easy
// bot's choice). So the worker keeps the last few games it restored (CACHED_GAMES, with at
// most CACHED_DEFINITION_CHARS of definitions among them), each in the state of the choice it
// made last: a job that says which state its room's last choice was made in and the moves
// made since (`since`: { stateHash, moves }) has them played in the kept game instead, which
// is used only if its snapshot is then exactly the job's (else, and for a job without
// `since`, the game is restored from the snapshot as before). The choice is the same either
// way: the bot sees the same state, and its seed is the job's.
import { parentPort } from 'node:worker_threads';
import { loadEngine } from 'rulestack';
import { CACHED_DEFINITION_CHARS, CACHED_GAMES, MAX_REPLAYED_MOVES } from './bot-pool.mjs';

/** { definition, game, stateHash, replayed, owner }, the one used last first (owner: the room it was kept for). */
const kept = [];

// For the tests only (bots.test.mjs), in a worker started with RULESTACK_BOT_WORKER_TEST=1 in
// its environment: the job { test: 'crash' } makes the engine's next game.apply trap, as an
// engine crash (reliability.test.ts provokes one so), and { test: 'kept' } is answered with the
// owners of the games kept, the one used last first. Elsewhere `test` is not read.
const TEST_HOOKS = process.env.RULESTACK_BOT_WORKER_TEST === '1';

parentPort.on('message', async ({ definition, snapshot, player, level, seed, since, owner, drop, test }) => {
  if (drop !== undefined) {
    // its room ended (bot-pool.mjs, cancel): its kept games go, and no answer is sent
    for (let i = kept.length; i-- > 0; ) if (kept[i].owner === drop) dispose(kept.splice(i, 1)[0].game);
    return;
  }
  if (TEST_HOOKS && test !== undefined) return parentPort.postMessage({ move: await testHook(test) });
  try {
    // (after an engine crash, a fresh instance; the definition is the engine's JSON: no YAML reader)
    const rs = await loadEngine({ yaml: false });
    const { game, compiled } = gameFor(rs, definition, snapshot, since, owner);
    parentPort.postMessage({ move: rs.bot(game, { level, seed }).choose(player), compiled });
  } catch (e) {
    if (e?.name === 'EngineCrashedError') dropAll();
    parentPort.postMessage({ error: `${e?.name ?? 'Error'}: ${e?.message ?? e}` });
  }
});

/**
 * The game in the job's state: a kept one brought there by the moves since its room's last
 * choice, or one restored from the snapshot (compiled: true), which is kept in turn.
 */
function gameFor(rs, definition, snapshot, since, owner) {
  const at = since === undefined ? -1 : kept.findIndex((k) => k.stateHash === since.stateHash && k.definition === definition);
  if (at >= 0) {
    const [k] = kept.splice(at, 1);
    if (k.replayed + since.moves.length <= MAX_REPLAYED_MOVES) {
      try {
        for (const { player, move } of since.moves) k.game.apply(player, move);
        k.replayed += since.moves.length;
        if (JSON.stringify(k.game.snapshot()) === JSON.stringify(snapshot)) {
          k.stateHash = k.game.stateHash();
          k.owner = owner; // (whose it is now, should two rooms have reached one state)
          kept.unshift(k);
          return { game: k.game, compiled: false };
        }
      } catch (e) {
        // (a move refused: restored below; after an engine crash, in a fresh engine, and the
        // other kept games, which were in the dead one, go at once)
        if (e?.name === 'EngineCrashedError') dropAll();
      }
    }
    dispose(k.game);
  }
  const game = rs.restore(definition, snapshot);
  kept.unshift({ definition, game, stateHash: game.stateHash(), replayed: 0, owner });
  let chars = kept.reduce((n, k) => n + k.definition.length, 0);
  while (kept.length > CACHED_GAMES || (kept.length > 1 && chars > CACHED_DEFINITION_CHARS)) {
    const gone = kept.pop();
    chars -= gone.definition.length;
    dispose(gone.game);
  }
  return { game, compiled: true };
}

async function testHook(test) {
  if (test === 'kept') return kept.map((k) => k.owner);
  // (the engine instance's own Session class: a fresh instance, after the crash, has the real apply)
  (await loadEngine({ yaml: false })).module.Session.prototype.apply = () => {
    throw new WebAssembly.RuntimeError('unreachable');
  };
  return null;
}

/** Drops every kept game (lost with the engine when it crashed: its memory is freed with them). */
function dropAll() {
  for (const k of kept.splice(0)) dispose(k.game);
}

function dispose(game) {
  try {
    game.dispose();
  } catch {
    // (a game lost in an engine crash)
  }
}
