// The Simulate panel's games, off the main thread: each is played through the package
// (simulate-game.ts) and reported at once, so the page shows progress; the page stops a run
// by terminating the worker.
import { loadEngine } from 'rulestack';
import type { Move } from 'rulestack';
import { playOut, type GameOutcome, type SimBot } from './simulate-game.js';

export type SimRequest =
  | { type: 'run'; id: number; definition: string; games: number; bot: SimBot; seed: number }
  | { type: 'replay'; id: number; definition: string; bot: SimBot; seed: number };

export type SimResponse =
  | { type: 'progress'; id: number; outcomes: GameOutcome[] }
  | { type: 'done'; id: number }
  | { type: 'replayed'; id: number; outcome: GameOutcome; moves: Array<{ player: string; move: Move }> }
  | { type: 'error'; id: number; message: string };

const post = (r: SimResponse) => (self as unknown as Worker).postMessage(r);

self.addEventListener('message', async (e: MessageEvent<SimRequest>) => {
  const req = e.data;
  try {
    // the definition comes as the game's JSON text: no YAML reader needed here
    const rs = await loadEngine({ yaml: false });
    if (req.type === 'replay') {
      const moves: Array<{ player: string; move: Move }> = [];
      const outcome = playOut(rs, req.definition, req.seed, req.bot, moves);
      post({ type: 'replayed', id: req.id, outcome, moves });
      return;
    }
    let batch: GameOutcome[] = [];
    let last = performance.now();
    for (let i = 0; i < req.games; i++) {
      batch.push(playOut(rs, req.definition, req.seed + i, req.bot));
      // a few reports a second: enough for the progress bar, few enough messages
      if (performance.now() - last > 100 || i === req.games - 1) {
        post({ type: 'progress', id: req.id, outcomes: batch });
        batch = [];
        last = performance.now();
      }
    }
    post({ type: 'done', id: req.id });
  } catch (err) {
    post({ type: 'error', id: req.id, message: err instanceof Error ? err.message : String(err) });
  }
});
