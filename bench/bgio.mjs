// The boardgame.io side of `npm run bench` (bench/run.mjs): its Duel port (bench/bgio-duel.mjs)
// through the game reducer (random playouts) and its own MCTSBot with full playouts.
//   node bench/bgio.mjs [--seconds S] [--rounds R]   prints one JSON object
import { benchArgs, best } from './timing.mjs';
import { BGIO_VERSION, randomGames, mctsChoose } from './bgio-duel.mjs';

const opts = benchArgs();

// The port's statistics under random play (checked against duel-rules.md: 100.7 moves per
// game; 52.4 % / 33.7 % / 13.9 %), from a fixed 4,000-game sample.
const check = randomGames(4000, 99);

const GAMES = 20;
let seed = 1;
randomGames(GAMES, seed++); // warm up
const random = await best(() => randomGames(GAMES, seed++).moves, GAMES, opts);

const ITER = 50;
let mseed = 1;
await mctsChoose(ITER, 1000, 12); // warm up
const mcts = await best(() => mctsChoose(ITER, 1000 + mseed++, 12).then(() => 0), ITER, opts);

console.log(
  JSON.stringify({
    version: BGIO_VERSION,
    node: process.version,
    check: {
      games: check.games,
      meanLength: check.moves / check.games,
      winRate0: check.wins[0] / check.games,
      winRate1: check.wins[1] / check.games,
      drawRate: check.draws / check.games,
      unfinished: check.unfinished,
    },
    random: {
      games: random.units,
      moves: random.extra,
      seconds: random.seconds,
      gamesPerSecond: random.perSecond,
      movesPerSecond: random.extraPerSecond,
    },
    mcts: { perDecision: ITER, iterations: mcts.units, seconds: mcts.seconds, iterationsPerSecond: mcts.perSecond },
  }),
);
