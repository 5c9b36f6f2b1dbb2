// The wasm side of `npm run bench` (bench/run.mjs): the Duel in the shipped wasm module, in
// node, through the embind API. V8 does not swap optimized code into a loop that is already
// running (DESIGN.md), so the timed work is always a batch inside one engine call (simulate
// with N games; botChoose with N iterations), made repeatedly.
//   node bench/wasm.mjs DUEL.json [--seconds S] [--rounds R]   prints one JSON object
import { readFileSync } from 'node:fs';
import { benchArgs, best } from './timing.mjs';
import { loadEngine } from '../dist/index.js';

const opts = benchArgs();
const { positionals } = opts;
const duel = readFileSync(positionals[0], 'utf8');

const rs = await loadEngine();
const m = rs.module;


// ---- random games: simulate() with GAMES games per call (game i: seed + i)
const GAMES = 200;
let seed = 1000;
const simulateBatch = () => {
  const r = JSON.parse(m.simulate(duel, JSON.stringify({ games: GAMES, seed })));
  if (r.errors !== 0 || r.unfinished !== 0) throw new Error(`simulate: ${JSON.stringify(r)}`);
  seed += GAMES;
  return r.moves;
};
for (let i = 0; i < 5; i++) simulateBatch(); // warm up (tier-up of the wasm code)
const random = await best(simulateBatch, GAMES, opts);

// one game per call: what the per-call overhead (definition compile, JSON) costs
const single = await best(() => JSON.parse(m.simulate(duel, JSON.stringify({ games: 1, seed: seed++ }))).moves, 1, opts);

// ---- MCTS: the bench position (bench/duel_bench.cpp `position`), reached through the JSON API
const session = new m.Session();
const loadErr = session.load(duel, '42'); // the seed as JSON text (a number, or a string of digits)
if (loadErr) throw new Error(loadErr);
let plies = 0, player = null;
for (;;) {
  const view = JSON.parse(session.view(''));
  if (view.result !== null || view.toAct.length === 0) break;
  player = view.toAct[0];
  const moves = JSON.parse(session.legalMoves(player));
  if (plies >= 12 && moves.length >= 2) break;
  const r = JSON.parse(session.apply(player, JSON.stringify(moves[(plies * 7 + 3) % moves.length])));
  if (!r.ok) throw new Error(`apply: ${JSON.stringify(r)}`);
  plies++;
}
const positionHash = session.stateHash();
const ITER = 200;
let botSeed = 2;
const mctsBatch = () => {
  const move = session.botChoose(player, JSON.stringify({ kind: 'mcts', iterations: ITER, seed: botSeed++ }));
  if (move === 'null') throw new Error('botChoose: no move');
  return 0;
};
mctsBatch();
mctsBatch();
const mcts = await best(mctsBatch, ITER, opts);
session.delete();

console.log(
  JSON.stringify({
    node: process.version,
    random: {
      gamesPerCall: GAMES,
      games: random.units,
      moves: random.extra,
      seconds: random.seconds,
      gamesPerSecond: random.perSecond,
      movesPerSecond: random.extraPerSecond,
    },
    randomOneGamePerCall: { gamesPerSecond: single.perSecond, movesPerSecond: single.extraPerSecond },
    mcts: {
      perDecision: ITER,
      iterations: mcts.units,
      seconds: mcts.seconds,
      iterationsPerSecond: mcts.perSecond,
      positionPlies: plies,
      positionHash,
    },
  }),
);
