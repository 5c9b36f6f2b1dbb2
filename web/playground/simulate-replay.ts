// Opens a game the engine's simulate played, move by move, through the package: the engine
// deals game `seed` and draws each move's randomness from a generator seeded from that seed
// alone (session.cpp, simulate): with random bots, one of the legal moves of the player to act
// (in the engine's order) picked at random (search.cpp, randomPlayout); with an MCTS level,
// 64 random bits that seed that move's bot. The same generator here (rng.h: splitmix64,
// `below` by multiply-shift) makes the same picks, and a bot through the package takes the
// same 64-bit seed (as a bigint); the final state hash, which simulate reports, says whether
// the replay is that game.
import { IllegalMoveError } from 'rulestack';
import type { Move, Rulestack } from 'rulestack';
import type { SimBot } from './simulate-game.js';

const MASK = (1n << 64n) - 1n;
const GOLDEN = 0x9e3779b97f4a7c15n;

/** rng.h's Rng, seeded as simulate seeds game `seed`'s. */
function engineRng(seed: number): { next(): bigint; below(n: number): number } {
  let s = ((BigInt(seed) * GOLDEN + 0x632be59bd9b4e019n) & MASK) ^ GOLDEN;
  const next = () => {
    s = (s + GOLDEN) & MASK;
    let z = s;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK;
    return z ^ (z >> 31n);
  };
  return { next, below: (n) => Number(((next() >> 32n) * BigInt(n)) >> 32n) };
}


export interface Replayed {
  moves: Array<{ player: string; move: Move }>;
  /** The final state hash of the replay. */
  hash: string;
  /** A game that ended in an engine error: the move that failed (not made) and the engine's message. */
  failed?: { player: string; move: Move; message: string };
}

/** The game of this seed, as simulate played it with these bots for at most `maxMoves` moves. */
export function replayGame(rs: Rulestack, definition: string, seed: number, bot: SimBot, maxMoves: number): Replayed {
  const game = rs.createGame(definition, { seed });
  try {
    const rng = engineRng(seed);
    const moves: Replayed['moves'] = [];
    while (moves.length < maxMoves) {
      const view = game.view();
      const player = view.toAct[0];
      if (view.result || player === undefined) break;
      let move: Move;
      if (bot === 'random') {
        const legal = game.legalMoves(player);
        if (legal.length === 0) break;
        move = legal[rng.below(legal.length)]!;
      } else {
        // (the engine's seed is unsigned; the same 64 bits as a signed bigint)
        const chosen = rs.bot(game, { level: bot, seed: BigInt.asIntN(64, rng.next()) }).choose(player);
        if (chosen === null) break;
        move = chosen;
      }
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
