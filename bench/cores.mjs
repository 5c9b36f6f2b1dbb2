#!/usr/bin/env node
// rs.simulateParallel on one worker and on N: random games per second (wall clock: the point
// is the cores) and the ratio. The results must be identical, which is checked. Scaling is only
// worth reading on cores nobody else is using; on a shared machine the ratio says little.
//   node bench/cores.mjs [--game duel] [--games 4000] [--workers N] [--rounds 3] [--bot random|mcts] [--iterations N] [--json]
// (N: the cores os.availableParallelism() reports). Needs dist/ (node scripts/build.mjs lib).
import os from 'node:os';
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values } = parseArgs({
  options: {
    game: { type: 'string', default: 'duel' },
    games: { type: 'string', default: '4000' },
    workers: { type: 'string', default: String(os.availableParallelism()) },
    rounds: { type: 'string', default: '3' },
    bot: { type: 'string', default: 'random' },
    iterations: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const loadBefore = os.loadavg();
const { loadEngine } = await import(path.join(root, 'dist/index.js'));
const rs = await loadEngine();
const definition = readFileSync(path.join(root, 'examples', `${values.game}.yaml`), 'utf8');
const games = Number(values.games);
const many = Number(values.workers);
const opts = { games, seed: 1, bot: values.bot, ...(values.iterations ? { iterations: Number(values.iterations) } : {}) };

/** The best of the rounds, in games per wall-clock second (worker start-up included). */
async function rate(workers) {
  let best = 0, result;
  for (let r = 0; r < Number(values.rounds); r++) {
    const t0 = performance.now();
    result = await rs.simulateParallel(definition, { ...opts, workers });
    best = Math.max(best, games / ((performance.now() - t0) / 1000));
  }
  return { gamesPerSecond: best, result };
}

await rs.simulateParallel(definition, { ...opts, games: Math.min(games, 50), workers: 1 }); // warm up
const one = await rate(1);
const n = await rate(many);
if (JSON.stringify(one.result) !== JSON.stringify(n.result)) throw new Error('cores: 1 worker and N workers gave different results');
const load = os.loadavg().map((x) => x.toFixed(1)).join(' ');
if (values.json) {
  // one line for bench/run.mjs
  const figures = { game: values.game, games, bot: values.bot, workers: many, cores: os.availableParallelism(), loadBefore };
  console.log(JSON.stringify({ ...figures, one: one.gamesPerSecond, many: n.gamesPerSecond, ratio: n.gamesPerSecond / one.gamesPerSecond }));
  process.exit(0);
}
console.log(`${values.game}, ${games} ${values.bot} games, best of ${values.rounds} (wall clock; load average ${load}, ${os.availableParallelism()} cores)`);
const row = (label, text) => console.log(`${label.padEnd(22)} ${text}`);
row('1 worker (in-process)', `${one.gamesPerSecond.toFixed(1)} games/s`);
row(`${many} workers`, `${n.gamesPerSecond.toFixed(1)} games/s`);
row('ratio', `${(n.gamesPerSecond / one.gamesPerSecond).toFixed(2)}× (the same result, checked)`);
