// Opens a game the engine's simulate played with random bots, move by move, through the
// package: the engine deals game `seed` and picks each move with a generator seeded from that
// seed alone (session.cpp, simulate; search.cpp, randomPlayout): the player to act, one of their
// legal moves (in the engine's order) at random. The same generator here (rng.h: splitmix64,
// `below` by multiply-shift) makes the same picks; the final state hash, which simulate
// reports, says whether the replay is that game.
// MCTS games cannot be replayed so: the engine seeds each of their moves with 64 random bits,
// and a bot's seed through the package is a number, exact only to 53 bits.
import { IllegalMoveError } from 'rulestack';
import type { Move, Rulestack } from 'rulestack';

const MASK = (1n << 64n) - 1n;
const GOLDEN = 0x9e3779b97f4a7c15n;

/** rng.h's Rng, seeded as simulate seeds game `seed`'s. */
function engineRng(seed: number): { below(n: number): number } {
  let s = ((BigInt(seed) * GOLDEN + 0x632be59bd9b4e019n) & MASK) ^ GOLDEN;
  const next = () => {
    s = (s + GOLDEN) & MASK;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  };
  return { below: (n) => Number(((next() >> 32n) * BigInt(n)) >> 32n) };
}

/** The engine's cap on a simulated game's moves (randomPlayout's maxMoves in simulate). */
const MAX_MOVES = 100_000;

export interface Replayed {
  moves: Array<{ player: string; move: Move }>;
  /** The final state hash of the replay. */
  hash: string;
  /** A game that ended in an engine error: the move that failed (not made) and the engine's message. */
  failed?: { player: string; move: Move; message: string };
}

/** The random-bot game of this seed, as simulate played it. */
export function replayRandomGame(rs: Rulestack, definition: string, seed: number): Replayed {
  const game = rs.createGame(definition, { seed });
  try {
    const rng = engineRng(seed);
    const moves: Replayed['moves'] = [];
    while (moves.length < MAX_MOVES) {
      const view = game.view();
      const player = view.toAct[0];
      if (view.result || player === undefined) break;
      const legal = game.legalMoves(player);
      if (legal.length === 0) break;
      const move = legal[rng.below(legal.length)]!;
      try {
        game.apply(player, move);
      } catch (e) {
        // a run-time error of the rules: simulate counts the game as an engine error there
        if (!(e instanceof IllegalMoveError) || e.reason !== 'runtime_error') throw e;
        return { moves, hash: game.stateHash(), failed: { player, move, message: e.message } };
      }
      moves.push({ player, move });
    }
    return { moves, hash: game.stateHash() };
  } finally {
    game.dispose();
  }
}
