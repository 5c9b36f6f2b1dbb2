// The wasm side of `npm run bench` (bench/run.mjs): the Duel in the shipped wasm module, in
// node, through the embind API. V8 does not swap optimized code into a loop that is already
// running (DESIGN.md), so the timed work is always a batch inside one engine call (simulate
// with N games; botChoose with N iterations), made repeatedly.
//   node bench/wasm.mjs DUEL.json [NEXUS.json] [--seconds S] [--rounds R]   prints one JSON object
// (with NEXUS.json also Nexus: random games, 20 a call, and MCTS from the bots bench's position)
// and what a UI pays for Session.view(p) in µs, from a mid-game position (seed 7, 12 moves of the
// random bot): fresh (the state just changed: apply a move, view, undo, less apply + undo),
// cached (the same state viewed again), and cached + JSON.parse.
import { readFileSync } from 'node:fs';
import { benchArgs, best } from './timing.mjs';
import { loadEngine } from '../dist/index.js';

// a view's JSON text (the module hands over its bytes; a module from before viewBytes, a string)
const utf8 = new TextDecoder();
const viewOf = (s, p) => (s.viewBytes ? utf8.decode(s.viewBytes(p)) : s.view(p));

const opts = benchArgs();
const { positionals } = opts;
const duel = readFileSync(positionals[0], 'utf8');

const rs = await loadEngine();
const m = rs.module;


// ---- random games: simulate() with `games` games per call (game i: seed + i)
async function randomRate(definition, games) {
  let seed = 1000;
  const batch = () => {
    const r = JSON.parse(m.simulate(definition, JSON.stringify({ games, seed })));
    if (r.errors !== 0 || r.unfinished !== 0) throw new Error(`simulate: ${JSON.stringify(r)}`);
    seed += games;
    return r.moves;
  };
  for (let i = 0; i < 5; i++) batch(); // warm up (tier-up of the wasm code)
  const r = await best(batch, games, opts);
  return { gamesPerCall: games, games: r.units, moves: r.extra, seconds: r.seconds, gamesPerSecond: r.perSecond, movesPerSecond: r.extraPerSecond };
}
const random = await randomRate(duel, 200);

// one game per call: what the per-call overhead (definition compile, JSON) costs
let seed = 1000;
const single = await best(() => JSON.parse(m.simulate(duel, JSON.stringify({ games: 1, seed: seed++ }))).moves, 1, opts);

// ---- MCTS: the bench position (bench/duel_bench.cpp `position`), reached through the JSON API
async function mctsRate(definition, positionSeed, minPlies) {
  const session = new m.Session();
  const loadErr = session.load(definition, String(positionSeed)); // the seed as JSON text
  if (loadErr) throw new Error(loadErr);
  let plies = 0, player = null;
  for (;;) {
    const view = JSON.parse(viewOf(session, ''));
    if (view.result !== null || view.toAct.length === 0) break;
    player = view.toAct[0];
    const moves = JSON.parse(session.legalMoves(player));
    if (plies >= minPlies && moves.length >= 2) break;
    const r = JSON.parse(session.apply(player, JSON.stringify(moves[(plies * 7 + 3) % moves.length])));
    if (!r.ok) throw new Error(`apply: ${JSON.stringify(r)}`);
    plies++;
  }
  const positionHash = session.stateHash();
  const ITER = 200;
  let botSeed = 2;
  const batch = () => {
    const move = session.botChoose(player, JSON.stringify({ kind: 'mcts', iterations: ITER, seed: botSeed++ }));
    if (move === 'null') throw new Error('botChoose: no move');
    return 0;
  };
  batch();
  batch();
  const r = await best(batch, ITER, opts);
  session.delete();
  return { perDecision: ITER, iterations: r.units, seconds: r.seconds, iterationsPerSecond: r.perSecond, positionPlies: plies, positionHash };
}
const mcts = await mctsRate(duel, 42, 12);

// ---- Session.view(p): µs per call, K calls a batch (the position as bench/boundary.mjs's)
async function viewCost(definition) {
  const session = new m.Session();
  const loadErr = session.load(definition, '7');
  if (loadErr) throw new Error(loadErr);
  for (let i = 0; i < 12; i++) {
    const v = JSON.parse(viewOf(session, ''));
    if (v.result || !v.toAct.length) break;
    session.apply(v.toAct[0], session.botChoose(v.toAct[0], JSON.stringify({ seed: i })));
  }
  const who = JSON.parse(viewOf(session, '')).toAct[0] ?? '0';
  const move = session.botChoose(who, JSON.stringify({ seed: 99 }));
  const K = 100;
  const us = async (f) => {
    for (let i = 0; i < 20; i++) f();
    const r = await best(() => (f(), 0), K, { seconds: opts.seconds / 4, rounds: opts.rounds });
    return 1e6 / r.perSecond;
  };
  const change = () => {
    for (let i = 0; i < K; i++) {
      session.apply(who, move);
      session.undo();
    }
  };
  const changeAndView = () => {
    for (let i = 0; i < K; i++) {
      session.apply(who, move);
      viewOf(session, who);
      session.undo();
    }
  };
  const applied = JSON.parse(session.apply(who, move));
  if (!applied.ok) throw new Error(`apply: ${JSON.stringify(applied)}`);
  session.undo();
  const changeUs = await us(change);
  const fresh = (await us(changeAndView)) - changeUs;
  const cached = await us(() => { for (let i = 0; i < K; i++) viewOf(session, who); });
  const cachedParsed = await us(() => { for (let i = 0; i < K; i++) JSON.parse(viewOf(session, who)); });
  const bytes = viewOf(session, who).length;
  session.delete();
  return { viewer: who, bytes, freshUs: fresh, cachedUs: cached, cachedParsedUs: cachedParsed, applyUndoUs: changeUs };
}
const nexusText = positionals[1] ? readFileSync(positionals[1], 'utf8') : null;
const views = { duel: await viewCost(duel), ...(nexusText ? { nexus: await viewCost(nexusText) } : {}) };
const nexus = nexusText ? { random: await randomRate(nexusText, 20), mcts: await mctsRate(nexusText, 7, 40) } : undefined;

console.log(
  JSON.stringify({
    node: process.version,
    random,
    randomOneGamePerCall: { gamesPerSecond: single.perSecond, movesPerSecond: single.extraPerSecond },
    mcts,
    views,
    ...(nexus ? { nexus } : {}),
  }),
);
