// The Simulate panel's games, off the main thread. They are the package's own simulate
// (`rs.simulateParallel`, what `rulestack simulate` runs: game i dealt from seed + i, the
// engine's bots), one game per batch so that the page gets each game's outcome (for the
// lengths chart and the odd games) and a progress bar, and the totals are the command line's
// for the same seed and count whatever the number of workers. With `workers` > 1 the package
// plays the batches in Web Workers of its own, started from this one (nested workers); with
// 1, in this worker's thread. The page stops a run by terminating this worker, which ends the
// nested ones with it (a dedicated worker's workers live only as long as it does).
// A game is opened by replaying it (simulate-replay.ts).
import { loadEngine } from 'rulestack';
import type { Move, SimulateResult } from 'rulestack';
import { outcomeOf, type GameOutcome, type SimBot } from './simulate-game.js';
import { replayGame, type Replayed } from './simulate-replay.js';

export type SimRequest =
  | { type: 'run'; id: number; definition: string; games: number; bot: SimBot; seed: number; maxMoves: number; workers: number }
  | { type: 'replay'; id: number; definition: string; seed: number; bot: SimBot; maxMoves: number; hash?: string };

export type SimResponse =
  | { type: 'progress'; id: number; outcomes: GameOutcome[] }
  | { type: 'done'; id: number; result: SimulateResult }
  | { type: 'replayed'; id: number; moves: Array<{ player: string; move: Move }>; failed?: Replayed['failed'] }
  | { type: 'error'; id: number; message: string };

const post = (r: SimResponse) => (self as unknown as Worker).postMessage(r);

self.addEventListener('message', async (e: MessageEvent<SimRequest>) => {
  const req = e.data;
  try {
    // the definition comes as the game's JSON text: no YAML reader needed here
    const rs = await loadEngine({ yaml: false });
    if (req.type === 'replay') {
      const { moves, hash, failed } = replayGame(rs, req.definition, req.seed, req.bot, req.maxMoves);
      if (req.hash !== undefined && hash !== req.hash) throw new Error(`the replay of seed ${req.seed} ends in state ${hash}, simulate's in ${req.hash}`);
      post({ type: 'replayed', id: req.id, moves, failed });
      return;
    }
    let batch: GameOutcome[] = [];
    let last = -Infinity; // the first game at once: the bar moves even in a run shorter than a report's interval
    const result = await rs.simulateParallel(req.definition, {
      games: req.games,
      seed: req.seed,
      bot: req.bot,
      maxMoves: req.maxMoves,
      hashes: true,
      batch: 1,
      workers: req.workers,
      onProgress: (done, total, { first, result: one }) => {
        batch.push(outcomeOf(one, req.seed + first));
        // a few reports a second: enough for the progress bar, few enough messages
        if (performance.now() - last > 100 || done === total) {
          post({ type: 'progress', id: req.id, outcomes: batch });
          batch = [];
          last = performance.now();
        }
      },
    });
    post({ type: 'done', id: req.id, result });
  } catch (err) {
    post({ type: 'error', id: req.id, message: err instanceof Error ? err.message : String(err) });
  }
});
