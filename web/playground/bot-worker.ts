// Runs the bot off the main thread, so a slow MCTS search does not freeze the page. It uses
// only the public API: the game is restored from its snapshot, the bot chooses, the copy is
// disposed. The page applies the chosen move to its own game.
import { loadEngine } from 'rulestack';
import type { BotOptions, Move, Snapshot } from 'rulestack';

export interface BotRequest {
  id: number;
  definition: string;
  snapshot: Snapshot;
  player: string;
  /** As rs.bot takes them: `{ level, seed }` (MCTS with the engine's budget) or `{ kind: 'random', seed }`. */
  options: BotOptions;
}

export type BotResponse = { id: number; move: Move | null } | { id: number; error: string };

const post = (r: BotResponse) => (self as unknown as Worker).postMessage(r);

self.addEventListener('message', async (e: MessageEvent<BotRequest>) => {
  const { id, definition, snapshot, player, options } = e.data;
  try {
    // the definition comes as the game's JSON text: no YAML reader needed in the worker
    const rs = await loadEngine({ yaml: false });
    const game = rs.restore(definition, snapshot);
    try {
      post({ id, move: rs.bot(game, options).choose(player) });
    } finally {
      game.dispose();
    }
  } catch (err) {
    post({ id, error: err instanceof Error ? err.message : String(err) });
  }
});
