// A worker of the bot pool (bot-pool.mjs): its own engine, which restores the game from the
// snapshot it is sent and answers with the bot's move, so that a bot's search (seconds, for
// 'hard' in a big game) never holds up the server's thread, where every room runs.
import { parentPort } from 'node:worker_threads';
import { loadEngine } from 'rulestack';

parentPort.on('message', async ({ definition, snapshot, player, level, seed }) => {
  try {
    // (after an engine crash, a fresh instance; the definition is the engine's JSON: no YAML reader)
    const rs = await loadEngine({ yaml: false });
    const game = rs.restore(definition, snapshot);
    try {
      parentPort.postMessage({ move: rs.bot(game, { level, seed }).choose(player) });
    } finally {
      game.dispose();
    }
  } catch (e) {
    parentPort.postMessage({ error: `${e?.name ?? 'Error'}: ${e?.message ?? e}` });
  }
});
