// One bot-vs-bot game of the Simulate panel as the engine played it: the panel runs
// `rs.simulateParallel` (what `rulestack simulate` runs) one game per batch, so each batch's
// result is one game's, and this turns it into the game's outcome.
import type { PlayerId, SimulateResult } from 'rulestack';

/** The bots the engine's simulate offers the panel: random, or MCTS with a level's budget. */
export type SimBot = 'random' | 'easy' | 'normal' | 'hard';

export interface GameOutcome {
  seed: number;
  /** Moves made. */
  length: number;
  winner: PlayerId | null;
  draw: boolean;
  /** Stopped at the run's most moves (the panel's Max moves) without a result. */
  unfinished: boolean;
  /** The engine's message when the game ended in an engine error (a run-time error in the rules). */
  error?: string;
  /** The final state hash (simulate's `hashes`), which a replay of the game must reach. */
  hash?: string;
}

/** The outcome of the one game of a one-game simulate result, dealt from `seed`. */
export function outcomeOf(result: SimulateResult, seed: number): GameOutcome {
  if (result.games !== 1) throw new Error(`rulestack playground: a batch of ${result.games} games where one was asked for`);
  const winner = Object.entries(result.wins).find(([, n]) => n > 0)?.[0] ?? null;
  const error = result.errors > 0 ? (result.errorList?.[0]?.message ?? 'engine error') : undefined;
  return {
    seed,
    length: result.moves,
    winner,
    draw: result.draws > 0,
    unfinished: (result.unfinished ?? 0) > 0,
    ...(error !== undefined ? { error } : {}),
    ...(result.hashes?.[0] !== undefined ? { hash: result.hashes[0] } : {}),
  };
}
