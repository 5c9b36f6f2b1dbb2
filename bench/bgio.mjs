// The boardgame.io side of `npm run bench` (bench/run.mjs): its Duel port (bench/bgio-duel.mjs)
// through the game reducer (random playouts) and its own MCTSBot with full playouts.
//   node bench/bgio.mjs [--seconds S] [--rounds R]   prints one JSON object
import { parseArgs } from 'node:util';
import { BGIO_VERSION, randomGames, mctsChoose } from './bgio-duel.mjs';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '2' }, rounds: { type: 'string', default: '3' } },
});
const seconds = Number(values.seconds);
/** CPU time of this process (user + system): far less disturbed than wall time on a shared machine. */
const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};
const rounds = Number(values.rounds);

async function best(f, units) {
  let top = null;
  for (let r = 0; r < rounds; r++) {
    let done = 0, extra = 0;
    const t0 = cpuSeconds();
    let t;
    do {
      extra += await f();
      done += units;
      t = cpuSeconds();
    } while (t - t0 < seconds);
    const s = t - t0;
    const round = { units: done, extra, seconds: s, perSecond: done / s, extraPerSecond: extra / s };
    if (!top || round.perSecond > top.perSecond) top = round;
  }
  return top;
}

// The port's statistics under random play (checked against duel-rules.md: 100.7 moves per
// game; 52.4 % / 33.7 % / 13.9 %), from a fixed 4,000-game sample.
const check = randomGames(4000, 99);

const GAMES = 20;
let seed = 1;
randomGames(GAMES, seed++); // warm up
const random = await best(() => randomGames(GAMES, seed++).moves, GAMES);

const ITER = 50;
let mseed = 1;
await mctsChoose(ITER, 1000, 12); // warm up
const mcts = await best(() => mctsChoose(ITER, 1000 + mseed++, 12).then(() => 0), ITER);

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
