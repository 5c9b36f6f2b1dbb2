// One bot-vs-bot game through the package's public API, the same whether the Simulate
// panel's worker counts it or replays it to open it: the game's seed deals it and seeds the
// bot, so a seed is that game again, move for move.
import { IllegalMoveError } from 'rulestack';
import type { Move, PlayerId, Rulestack } from 'rulestack';

/** The bots the package offers: random, or MCTS with a level's budget. */
export type SimBot = 'random' | 'easy' | 'normal' | 'hard';

export interface GameOutcome {
  seed: number;
  /** Moves made. */
  length: number;
  winner: PlayerId | null;
  draw: boolean;
  /** Stopped at MAX_MOVES, or nobody could act, without a result. */
  unfinished: boolean;
  /** The engine refused a move the bot chose (a run-time error in the rules). */
  error?: string;
}

/** A game longer than this is cut (counted unfinished): a simulation must end. */
export const MAX_MOVES = 5000;

/** A small seeded generator (mulberry32): the random bot's picks, the same for the same seed. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Plays one game to its end; `record` (when given) receives every move. Each move is made by
 * the first player (in the game's order) who has one: the random bot picks one of their legal
 * moves (what rs.bot's random kind does, without asking the engine for a view each time, which
 * would make it several times slower), an MCTS level asks rs.bot.
 */
export function playOut(rs: Rulestack, definition: string, seed: number, bot: SimBot, record?: Array<{ player: string; move: Move }>): GameOutcome {
  const game = rs.createGame(definition, { seed });
  try {
    const random = seeded(seed);
    const mcts = bot === 'random' ? null : rs.bot(game, { level: bot, seed });
    let length = 0;
    let error: string | undefined;
    for (; length < MAX_MOVES; length++) {
      let player: PlayerId | undefined;
      let moves: Move[] = [];
      for (const p of game.players) {
        moves = game.legalMoves(p);
        if (moves.length) {
          player = p;
          break;
        }
      }
      if (player === undefined) break; // the game is over, or nobody can act
      const move = mcts ? mcts.choose(player)! : moves[Math.floor(random() * moves.length)]!;
      try {
        game.apply(player, move);
      } catch (e) {
        if (!(e instanceof IllegalMoveError)) throw e;
        error = `${e.reason}: ${e.message}`;
        break;
      }
      record?.push({ player, move });
    }
    const result = game.view().result;
    return {
      seed,
      length,
      winner: result && 'winner' in result ? result.winner : null,
      draw: !!result && 'draw' in result,
      unfinished: !result && error === undefined,
      error,
    };
  } finally {
    game.dispose();
  }
}
