// One fixed amount of Duel work in a given wasm module (bench/vs.mjs runs it for two builds,
// one after the other, and compares their CPU times). The same games and the same MCTS
// decisions in every build: simulate() with fixed seeds; botChoose from a fixed position.
//   node bench/vs-work.mjs ENGINE_DIR DUEL.json random|mcts BATCHES
// ENGINE_DIR holds engine.mjs and engine.wasm (any version of this project's module: older
// ones took the seed as a number and had no `omniscient` bot option).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

// a view's JSON text (the module hands over its bytes; a module from before viewBytes, a string)
const utf8 = new TextDecoder();
const viewOf = (s, p) => (s.viewBytes ? utf8.decode(s.viewBytes(p)) : s.view(p));

const [dir, duelPath, mode, batchesArg] = process.argv.slice(2);
const batches = Number(batchesArg);
const create = (await import(pathToFileURL(path.resolve(dir, 'engine.mjs')).href)).default;
const m = await create({ wasmBinary: readFileSync(path.join(dir, 'engine.wasm')) });
const duel = readFileSync(duelPath, 'utf8');

if (mode === 'random') {
  let seed = 1000, moves = 0;
  for (let i = 0; i < batches; i++) {
    const r = JSON.parse(m.simulate(duel, JSON.stringify({ games: 200, seed })));
    if (r.errors || r.unfinished) throw new Error(`simulate: ${JSON.stringify(r)}`);
    moves += r.moves;
    seed += 200;
  }
  console.log(JSON.stringify({ moves }));
} else if (mode === 'mcts') {
  const s = new m.Session();
  let err;
  try {
    err = s.load(duel, '42');
  } catch {
    err = s.load(duel, 42); // a module from before seeds were JSON text
  }
  if (err) throw new Error(err);
  let plies = 0, player = null;
  for (;;) {
    player = JSON.parse(viewOf(s, '')).toAct[0];
    const moves = JSON.parse(s.legalMoves(player));
    if (plies >= 12 && moves.length >= 2) break;
    s.apply(player, JSON.stringify(moves[(plies * 7 + 3) % moves.length]));
    plies++;
  }
  // the search that every version has: MCTS over the true state (omniscient: true since
  // hidden information; older modules ignore the key)
  for (let i = 0; i < batches; i++) s.botChoose(player, JSON.stringify({ kind: 'mcts', iterations: 200, omniscient: true, seed: i + 2 }));
  console.log(JSON.stringify({ hash: s.stateHash(), plies }));
} else {
  throw new Error(`unknown mode ${mode}`);
}
