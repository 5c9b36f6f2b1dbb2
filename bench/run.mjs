#!/usr/bin/env node
// `npm run bench`: the Duel benchmark, native vs wasm (node) vs boardgame.io (node), and the
// hand-written Duel (the speed limit) when ../shared/limit/duel is there, in one run; writes
// bench/RESULTS.md. Not part of `npm test`.
//   node bench/run.mjs [--seconds S] [--rounds R] [--no-build] [--no-profile]
//                      [--no-bots] [--bot-games N] [--bot-slow-games M] [--vs COMMIT [--vs-runs N]]
// R rounds of S seconds per engine, the engines taking turns (see "measurements" below). The
// bots section (rulestack-bots-bench) plays whole games between bots (N games per Duel
// pairing, M per Crazy Eights pairing) and times bot decisions in rounds of S/4 seconds, the
// median of max(R, 5) rounds. --vs COMMIT adds the engine against that commit of itself
// (bench/vs.mjs: paired runs, median ratio).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '2' },
    rounds: { type: 'string', default: '3' },
    'no-build': { type: 'boolean' },
    'no-profile': { type: 'boolean' },
    'no-bots': { type: 'boolean' },
    'bot-games': { type: 'string', default: '100' },
    'bot-slow-games': { type: 'string', default: '10' },
    vs: { type: 'string' },
    'vs-runs': { type: 'string', default: '9' },
  },
});
const SECONDS = values.seconds;
const ROUNDS = values.rounds;
const log = (s) => process.stderr.write(`bench: ${s}\n`);

function run(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, ...opts });
  if (r.error) throw new Error(`${cmd}: ${r.error.message}`);
  if (r.status !== 0) {
    process.stderr.write(r.stderr ?? '');
    throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status ?? r.signal})`);
  }
  return r.stdout;
}
const json = (text) => JSON.parse(text.trim().split('\n').pop());

// ------------------------------------------------------------------ build + inputs
if (!values['no-build']) {
  log('building (native, wasm, lib) and the native bench');
  run(process.execPath, ['scripts/build.mjs', 'native', 'wasm', 'lib'], { stdio: ['ignore', 'ignore', 'inherit'] });
  run('cmake', ['--build', 'build/native', '--target', 'rulestack_bench', 'rulestack_bots_bench'], { stdio: ['ignore', 'ignore', 'inherit'] });
}
const BENCH = 'build/native/rulestack-bench';
const BOTS_BENCH = 'build/native/rulestack-bots-bench';
for (const b of values['no-bots'] ? [BENCH] : [BENCH, BOTS_BENCH]) {
  if (!fs.existsSync(b)) throw new Error(`${b} is missing: run without --no-build`);
}

const { parseDefinition, loadYaml } = await import(path.join(root, 'dist/definition.js'));
await loadYaml();
fs.mkdirSync('build/bench', { recursive: true });
for (const name of ['duel', 'nexus', 'crazy-eights']) {
  const parsed = parseDefinition(fs.readFileSync(`examples/${name}.yaml`, 'utf8'), 'yaml');
  fs.writeFileSync(`build/bench/${name}.json`, JSON.stringify(parsed.value));
}

// ------------------------------------------------------------------ measurements
// The engines take turns, one round each, ROUNDS times (native, wasm, boardgame.io, the limit;
// then again): this machine's speed drifts from minute to minute, and engines measured one
// after the other in blocks of rounds were each timed at a different speed, which moved the
// ratios by a third from one run to the next. Each figure is then the best of its rounds (the
// machine may be shared: the best round is the least disturbed one).
const loadBefore = os.loadavg();

// The speed limit: a Duel written by hand in C++ (native and wasm), a measuring instrument kept
// beside the repository, not in it. When its folder is there it is built into build/bench/limit
// and run (`make json`: one JSON line per build and mode), and each figure is also given as a
// ratio to it. This is the only place the project looks outside the repository.
const LIMIT_DIR = path.resolve(root, '..', 'shared', 'limit', 'duel');
const LIMIT_SHOWN = path.relative(root, LIMIT_DIR);
let limitOk = fs.existsSync(LIMIT_DIR);
if (!limitOk) log(`no ${LIMIT_SHOWN}: the hand-written Duel (the speed limit) is not measured`);

const rounds = { native: [], wasm: [], bgio: [], limit: [] };
for (let r = 1; r <= Number(ROUNDS); r++) {
  log(`round ${r} of ${ROUNDS}: native (rulestack-bench)`);
  rounds.native.push(json(run(BENCH, ['build/bench/duel.json', 'build/bench/nexus.json', '--seconds', SECONDS, '--rounds', '1'])));
  log(`round ${r} of ${ROUNDS}: wasm in node`);
  rounds.wasm.push(json(run(process.execPath, ['bench/wasm.mjs', 'build/bench/duel.json', 'build/bench/nexus.json', '--seconds', SECONDS, '--rounds', '1'])));
  log(`round ${r} of ${ROUNDS}: boardgame.io in node`);
  rounds.bgio.push(json(run(process.execPath, ['bench/bgio.mjs', '--seconds', SECONDS, '--rounds', '1'])));
  if (limitOk) {
    log(`round ${r} of ${ROUNDS}: the speed limit (${LIMIT_SHOWN}: make json)`);
    try {
      const out = run('make', ['-s', '-C', LIMIT_DIR, `B=${path.join(root, 'build/bench/limit')}`, 'json'], { stdio: ['ignore', 'pipe', 'inherit'] });
      rounds.limit.push(limitFigures(out));
    } catch (e) {
      log(`the speed limit could not be measured (${e.message})`);
      limitOk = false;
    }
  }
}
const native = bestOf(rounds.native);
const wasm = bestOf(rounds.wasm);
const bgio = bestOf(rounds.bgio);
const limit = limitOk && rounds.limit.length ? bestOf(rounds.limit) : null;
log('simulate on every core (bench/cores.mjs)');
const cores = json(run(process.execPath, ['bench/cores.mjs', '--games', '20000', '--rounds', ROUNDS, '--json']));

/** `make json`'s lines as { native, wasm }: games/s and moves/s (playouts), MCTS iterations/s. */
function limitFigures(out) {
  const sides = {};
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const r = JSON.parse(line);
    const kind = /^wasm/.test(r.variant) ? 'wasm' : 'native';
    const side = (sides[kind] ??= { variant: r.variant, compiler: r.compiler });
    if (r.mode === 'playouts') Object.assign(side, { gamesPerSecond: r.games_per_s, movesPerSecond: r.moves_per_s });
    if (r.mode === 'mcts') Object.assign(side, { iterationsPerSecond: r.mcts_iterations_per_s, perDecision: r.mcts?.iterations });
  }
  if (!sides.native?.gamesPerSecond || !sides.wasm?.gamesPerSecond) throw new Error(`make json gave no playouts of both builds: ${out.slice(0, 200)}`);
  return sides;
}

/**
 * The best of several rounds' reports (objects of the same shape): a rate (…PerSecond) the
 * highest, a time (…Us, …Ns, …ms) the lowest; a figure counted with a rate (games, seconds) is
 * taken from the round of that rate; anything else from the first round.
 */
function bestOf(reports) {
  const first = reports[0];
  if (typeof first !== 'object' || first === null || Array.isArray(first)) return first;
  const rate = Object.keys(first).find((k) => k.endsWith('PerSecond'));
  const from = rate ? reports.reduce((a, b) => (b[rate] > a[rate] ? b : a)) : first;
  const out = {};
  for (const k of Object.keys(first)) {
    const vs = reports.map((o) => o[k]).filter((v) => v !== undefined);
    if (typeof first[k] === 'object') out[k] = bestOf(vs);
    else if (k.endsWith('PerSecond')) out[k] = Math.max(...vs);
    else if (/(Us|Ns|ms)$/.test(k)) out[k] = Math.min(...vs);
    else out[k] = from[k];
  }
  return out;
}

const loadAfter = os.loadavg();
let bots = null;
if (!values['no-bots']) {
  log('bots (rulestack-bots-bench): whole games between bots, then timed decisions; a few minutes');
  const t0 = Date.now();
  bots = json(
    run(BOTS_BENCH, [
      'build/bench/duel.json', 'build/bench/crazy-eights.json', 'build/bench/nexus.json',
      '--games', values['bot-games'], '--slow-games', values['bot-slow-games'],
      '--seconds', String(Number(SECONDS) / 4), '--rounds', String(Math.max(5, Number(ROUNDS))),
    ], { stdio: ['ignore', 'pipe', 'inherit'] }),
  );
  bots.wallSeconds = (Date.now() - t0) / 1000;
  bots.loadAfter = os.loadavg();
}

const sizes = ['engine.wasm', 'engine.mjs'].map((f) => {
  const buf = fs.readFileSync(path.join('dist/wasm', f));
  return { f, raw: buf.length, gz: zlib.gzipSync(buf, { level: 9 }).length };
});
const gzTotal = sizes.reduce((a, s) => a + s.gz, 0);

// ------------------------------------------------------------------ profile (perf)
function symbolFile(sym) {
  // rulestack::Game::evalNode(...) -> the engine source that defines it
  const m = /rulestack::(?:\w+::)*?(\w+)::(\w+)(?:\(|$)/.exec(sym) || /rulestack::(\w+)(?:\(|$)/.exec(sym);
  if (!m) return '';
  const name = m.length === 3 ? `${m[1]}::${m[2]}` : m[1];
  const definition = new RegExp(`^[A-Za-z].*\\b${name}\\(`, 'm'); // a definition starts its line
  for (const f of fs.readdirSync('engine/src').sort()) {
    if (!f.endsWith('.cpp')) continue;
    const text = fs.readFileSync(path.join('engine/src', f), 'utf8');
    if (definition.test(text)) return `engine/src/${f}`;
  }
  return '';
}
function perfTop(only) {
  const data = `build/bench/perf-${only}.data`;
  // DWARF unwinding: the -O3 engine has no frame pointers, so -g alone loses the callers.
  run('perf', ['record', '-F', '1000', '--call-graph', 'dwarf', '-o', data, BENCH, 'build/bench/duel.json', 'build/bench/nexus.json', '--seconds', '1.5', '--only', only], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const report = run('perf', ['report', '-i', data, '--children', '--stdio', '--sort', 'symbol', '-g', 'none'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const all = [];
  for (const line of report.split('\n')) {
    const m = /^\s+([\d.]+)%\s+([\d.]+)%\s+\[[.k]\]\s+(.+?)\s*$/.exec(line);
    if (m) all.push({ total: Number(m[1]), self: Number(m[2]), sym: m[3].replace(/(\s+-)+\s*$/, '').replace(/\s+\(inlined\)$/, '').trim() });
  }
  const engine = all.filter((r) => /rulestack::/.test(r.sym) && !/anonymous namespace/.test(r.sym));
  for (const r of engine) r.file = symbolFile(r.sym);
  return {
    bySelf: [...all].sort((x, y) => y.self - x.self).slice(0, 12).map((r) => ({ ...r, file: symbolFile(r.sym) })),
    byTotal: engine.slice(0, 14),
  };
}
let profile = null;
if (!values['no-profile']) {
  try {
    log('profiling the native random playouts and MCTS with perf');
    profile = { random: perfTop('random'), mcts: perfTop('mcts') };
  } catch (e) {
    log(`perf failed (${e.message}); no profile`);
  }
}

// ------------------------------------------------------------------ RESULTS.md
const n = (x, d = 0) => Number(x).toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const r2 = (x) => (x >= 100 ? n(x, 0) : x >= 10 ? n(x, 1) : n(x, 2));
const BGIO_MOVES_PER_GAME = bgio.check.meanLength;
const equiv = (gps) => gps * BGIO_MOVES_PER_GAME;
const rows = [
  ['rulestack native (C++ Game API)', native.random, native.mcts.iterationsPerSecond],
  ['rulestack wasm in node (embind `simulate` / `botChoose`)', wasm.random, wasm.mcts.iterationsPerSecond],
  [`boardgame.io ${bgio.version} in node (reducer / MCTSBot)`, bgio.random, bgio.mcts.iterationsPerSecond],
];
if (limit) {
  rows.push(
    [`the speed limit: the Duel by hand, native (${limit.native.variant}, wall-clock)`, limit.native, limit.native.iterationsPerSecond],
    [`the speed limit: the Duel by hand, wasm in node (${limit.wasm.variant}, wall-clock)`, limit.wasm, limit.wasm.iterationsPerSecond],
  );
}
/** A rate, or a dash where there is none. */
const rate = (x) => (typeof x === 'number' && x > 0 ? n(x) : '—');
const git = (args) => spawnSync('git', args, { encoding: 'utf8' }).stdout.trim();
const commit = git(['rev-parse', '--short', 'HEAD']);
const dirtyEngine = git(['status', '--porcelain', '--', 'engine', 'wasm', 'CMakeLists.txt']) !== '';
const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
const cxx = `g++ ${/\d+\.\d+\.\d+/.exec(spawnSync('c++', ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[0] ?? '?'}`;
const emcc = `emcc ${/\d+\.\d+\.\d+/.exec(spawnSync('emcc', ['--version'], { encoding: 'utf8' }).stdout ?? '')?.[0] ?? '?'}`;

const T = { moves: 5.8e6, mcts: 60e3, wasmRatio: 0.75, copyUs: 1, loadMs: 2, gzKB: 150, viewUs: 10 };
const wasmMovesEq = equiv(wasm.random.gamesPerSecond);
const nativeMovesEq = equiv(native.random.gamesPerSecond);
const ok = (b) => (b ? '**met**' : '**not met**');
const nexusCopyUs = native.stateCopy.nexus.assignNs / 1000;
const nexusLoadMs = native.definitionLoad.nexus.ms;

const md = [];
md.push('# Benchmark results: the Duel');
md.push('');
md.push(
  `Written by \`npm run bench\` (bench/run.mjs) on ${new Date().toISOString().slice(0, 10)}: commit ${commit}` +
    `${dirtyEngine ? ' with uncommitted engine changes in the working tree' : ''}; ${cpu}, ${os.cpus().length} CPUs; ` +
    `node ${process.version}; native: ${cxx} -O3 with LTO and profile feedback (scripts/build.mjs); wasm: ${emcc} -O3. Load average ${loadBefore.map((x) => x.toFixed(1)).join(' ')} before, ` +
    `${loadAfter.map((x) => x.toFixed(1)).join(' ')} after: the machine was shared with other work and loaded, so read the ratios of one run, not the absolute figures. ` +
    `Rates are per second of CPU time of the benchmark process (less disturbed than wall time on a shared machine), the best of ${ROUNDS} rounds of ${SECONDS} CPU-seconds, the engines taking turns (a round of each, then the next round) so that the machine's drift reaches them alike.`,
);
md.push('');
md.push('## Random playouts and MCTS');
md.push('');
md.push(
  'rulestack counts a move only where a player had a choice: a player whose only move is to pass is passed for ' +
    '(`auto_pass`), and ending the turn is that pass. The boardgame.io port (and `duel-rules.md`) counts every ' +
    `pass and every finishTurn, ${r2(BGIO_MOVES_PER_GAME)} moves per game against rulestack's ` +
    `${r2(native.random.moves / native.random.games)}. The fair rate is games/s; "Duel moves/s" is games/s × ` +
    `${r2(BGIO_MOVES_PER_GAME)} (boardgame.io's moves per game), the unit DESIGN.md's targets are written in. ` +
    'A game includes its setup (create 40 cards, shuffle, deal).',
);
md.push('');
md.push('| engine | games/s | engine-counted moves/s | Duel moves/s (bgio-equivalent) | MCTS iterations/s (full playouts) |');
md.push('|---|---:|---:|---:|---:|');
for (const [name, r, it] of rows) {
  md.push(`| ${name} | ${n(r.gamesPerSecond)} | ${name.startsWith('the speed limit') ? `${n(r.movesPerSecond)} (every pass counted)` : n(r.movesPerSecond)} | ${n(equiv(r.gamesPerSecond))} | ${rate(it)} |`);
}
for (const [name, r] of [['native', native.nexus], ['wasm in node', wasm.nexus]]) {
  if (r) md.push(`| **Nexus**, rulestack ${name} (20 games a call; MCTS from seed 7, ${r.mcts.positionPlies} plies in) | ${n(r.random.gamesPerSecond, 1)} | ${n(r.random.movesPerSecond)} | — | ${n(r.mcts.iterationsPerSecond)} |`);
}
md.push('');
const x = (a, b) => (a > 0 && b > 0 ? `${r2(a / b)}×` : '—');
/** A ratio below 1 with two significant digits and as 1/k (rulestack against the limit). */
const fraction = (a, b) => (a > 0 && b > 0 ? (a < b ? `${(a / b).toPrecision(2)}× (1/${r2(b / a)})` : x(a, b)) : '—');
md.push(
  limit
    ? `Each rulestack build against boardgame.io and against the speed limit of the same kind (native against the hand-written native, wasm against the hand-written wasm); the limit's rates are wall-clock, rulestack's CPU time, so on a loaded machine the limit is if anything under-rated.`
    : `Each rulestack build against boardgame.io (no speed limit in this run: ${LIMIT_SHOWN} is not there).`,
);
md.push('');
md.push('| rulestack | random games: / boardgame.io | / the limit | MCTS iterations: / boardgame.io | / the limit |');
md.push('|---|---:|---:|---:|---:|');
for (const [name, r, lim] of [['native', native, limit?.native], ['wasm', wasm, limit?.wasm]]) {
  md.push(
    `| ${name} | ${x(r.random.gamesPerSecond, bgio.random.gamesPerSecond)} | ${lim ? fraction(r.random.gamesPerSecond, lim.gamesPerSecond) : '—'} | ` +
      `${x(r.mcts.iterationsPerSecond, bgio.mcts.iterationsPerSecond)} | ${lim ? fraction(r.mcts.iterationsPerSecond, lim.iterationsPerSecond) : '—'} |`,
  );
}
md.push('');
md.push(`wasm / native: ${r2(wasm.random.gamesPerSecond / native.random.gamesPerSecond)}× the random games, ${r2(wasm.mcts.iterationsPerSecond / native.mcts.iterationsPerSecond)}× the MCTS iterations` +
  (limit ? `; the hand-written Duel's wasm / native: ${x(limit.wasm.gamesPerSecond, limit.native.gamesPerSecond)} and ${x(limit.wasm.iterationsPerSecond, limit.native.iterationsPerSecond)}.` : '.'));
md.push('');
md.push('How each is timed (a timed batch is always one call of a function called repeatedly):');
md.push('');
md.push(
  `- native: \`bench/duel_bench.cpp\`, a non-inlined function plays ${200} games (\`Game::restart(seed+i)\` + ` +
    '`randomPlayout`, as `simulate` does); MCTS: `botChoose` (fair, information-set MCTS: the default) with 200 iterations from a fixed mid-game position ' +
    `(seed 42, ${native.mcts.positionPlies} plies, ${native.mcts.positionMoves} legal moves, hash ${native.mcts.positionHash}).`,
);
md.push(
  `- wasm: \`bench/wasm.mjs\`, \`module.simulate(duel, {games: ${wasm.random.gamesPerCall}})\` per call (one game per call: ` +
    `${n(wasm.randomOneGamePerCall.gamesPerSecond)} games/s — each call reads the options and starts its games; the definition, compiled by the first call, is kept for the next calls with the same text); MCTS: ` +
    `\`Session.botChoose(player, {kind: "mcts", iterations: 200})\` per call, from the same position reached through the ` +
    `JSON API (hash ${wasm.mcts.positionHash}${wasm.mcts.positionHash === native.mcts.positionHash ? ', identical to native' : ', **differs from native**'}).`,
);
md.push(
  `- native through the JSON facade (\`simulate()\` of session.h, the same call as wasm): ${n(native.simulate.gamesPerSecond)} games/s, ` +
    `${n(native.simulate.movesPerSecond)} moves/s.`,
);
if (limit) {
  md.push(
    '- the speed limit: the Duel written by hand in C++ (a 64-byte state; the same game as the boardgame.io port, checked move by move by its ' +
      `author), \`make json\` of its folder: random playouts, and its own MCTS (UCT, full random playouts, ${limit.native.perDecision ?? '?'} iterations a ` +
      'decision, on the true state: no hidden information to deal, so an iteration does less than rulestack\'s fair one); wall-clock rates; ' +
      `${limit.native.compiler} and ${limit.wasm.compiler}.`,
  );
}
md.push(
  `- boardgame.io: \`bench/bgio-duel.mjs\`, the Duel port (G mutated through immer, priority as \`activePlayers\`, ` +
    '`ai.enumerate` in the order of duel-rules.md), random playouts straight through the game reducer ' +
    `(\`CreateGameReducer\`, \`disableUndo\`; faster than \`Simulate\` + \`RandomBot\`), 20 games per call; MCTS: its \`MCTSBot\` ` +
    `with \`playoutDepth\` unbounded (full playouts), ${bgio.mcts.perDecision} iterations per decision from a position 12 random plies in. ` +
    `Port check over ${n(bgio.check.games)} random games: ${r2(bgio.check.meanLength)} moves per game; player 0 wins ` +
    `${(bgio.check.winRate0 * 100).toFixed(1)} %, player 1 ${(bgio.check.winRate1 * 100).toFixed(1)} %, draws ` +
    `${(bgio.check.drawRate * 100).toFixed(1)} % (duel-rules.md: 100.7; 52.4 / 33.7 / 13.9 %).`,
);
md.push('');
md.push('## Other measures (native unless said)');
md.push('');
md.push('| measure | Duel | Nexus |');
md.push('|---|---:|---:|');
// bench/wasm.mjs `views`: Session.viewBytes(p) decoded, from the position of seed 7, 12 random moves in
const vw = wasm.views;
const viewCell = (v) => (v ? `${r2(v.freshUs)} / ${r2(v.cachedUs)} / ${r2(v.cachedParsedUs)} (${n(v.bytes)} B)` : '—');
md.push(`| \`Session.viewBytes(p)\` + \`TextDecoder\` in wasm, µs: fresh (the state just changed) / kept (the same state again) / kept + \`JSON.parse\` | ${viewCell(vw?.duel)} | ${viewCell(vw?.nexus)} |`);
const sc = native.stateCopy;
md.push(`| state copy-assign (what \`Game::clone\` costs a bot), ns | ${n(sc.duel.assignNs)} | ${n(sc.nexus.assignNs)} |`);
md.push(`| state copy-construct (fresh allocations), ns | ${n(sc.duel.copyConstructNs)} | ${n(sc.nexus.copyConstructNs)} |`);
md.push(`| the state copied: entities / properties / zone entries / queue | ${sc.duel.entities} / ${sc.duel.props} / ${sc.duel.zoneEntries} / ${sc.duel.queue} (turn ${sc.duel.turn}) | ${sc.nexus.entities} / ${sc.nexus.props} / ${sc.nexus.zoneEntries} / ${sc.nexus.queue} (turn ${sc.nexus.turn}) |`);
md.push(`| definition load (JSON text → validated, compiled \`Def\`), ms | ${native.definitionLoad.duel.ms.toFixed(3)} | ${native.definitionLoad.nexus.ms.toFixed(3)} |`);
md.push('');
if (vw?.duel) {
  md.push(
    `The view's text as \`game.view(p)\` gets it before its \`JSON.parse\`: \`Session.viewBytes(p)\` (the kept text's bytes, a \`Uint8Array\` over the module's memory) decoded by a \`TextDecoder\`; bench/wasm.mjs, from the position of seed 7 after 12 random-bot moves, p the player to act (${vw.duel.viewer}), ` +
      'CPU µs per call in batches of 100 calls; fresh = (apply a move, view, undo) less (apply, undo): the Session keeps each viewer\'s ' +
      'view until the game changes, so a view asked again is only decoded (no copy, no embind string conversion). `game.view` adds the `JSON.parse` (the third figure).',
  );
  md.push('');
}
md.push(
  `Shipped wasm + glue (dist/wasm, gzip -9): ${sizes.map((s) => `${s.f} ${n(s.raw)} B → ${n(s.gz)} B`).join(', ')}; ` +
    `total **${n(gzTotal)} B gzip (${(gzTotal / 1024).toFixed(1)} KiB)**.`,
);
md.push('');
md.push('## Against DESIGN.md\'s targets');
md.push('');
md.push('| target | measured | |');
md.push('|---|---:|---|');
// (how far from the target: short of it, or over it)
const margin = (got, want) => (got >= want ? `${r2(got / want)}× over` : `${r2(want / got)}× short`);
md.push(`| ≥ 5.8M Duel moves/s in wasm | ${n(wasmMovesEq)} (engine-counted ${n(wasm.random.movesPerSecond)}) | ${ok(wasmMovesEq >= T.moves)}: ${margin(wasmMovesEq, T.moves)} |`);
md.push(`| ≥ 60k MCTS iterations/s in wasm | ${n(wasm.mcts.iterationsPerSecond)} | ${ok(wasm.mcts.iterationsPerSecond >= T.mcts)}: ${margin(wasm.mcts.iterationsPerSecond, T.mcts)} |`);
md.push(`| ≥ 500× boardgame.io (moves) | ${r2(wasm.random.gamesPerSecond / bgio.random.gamesPerSecond)}× (wasm), ${r2(native.random.gamesPerSecond / bgio.random.gamesPerSecond)}× (native) | ${ok(wasm.random.gamesPerSecond / bgio.random.gamesPerSecond >= 500)} |`);
const handNative = limit?.native.movesPerSecond ?? 70e6;
const handWasm = limit?.wasm.movesPerSecond ?? 55e6;
md.push(
  `| within 10× of hand-written C++ (${limit ? `measured in this run: ${n(handNative / 1e6, 1)}M moves/s native, ${n(handWasm / 1e6, 1)}M wasm` : '≈70M moves/s native, ≈55M wasm'}) | ` +
    `native ${n(nativeMovesEq)}: ${r2(handNative / nativeMovesEq)}× slower; wasm ${r2(handWasm / wasmMovesEq)}× slower | ${ok(handNative / nativeMovesEq <= 10)} |`,
);
md.push(`| wasm ≥ 0.75× native | ${r2(wasm.random.gamesPerSecond / native.random.gamesPerSecond)}× (random), ${r2(wasm.mcts.iterationsPerSecond / native.mcts.iterationsPerSecond)}× (MCTS) | ${ok(wasm.random.gamesPerSecond / native.random.gamesPerSecond >= T.wasmRatio && wasm.mcts.iterationsPerSecond / native.mcts.iterationsPerSecond >= T.wasmRatio)} |`);
md.push(`| mid-game Nexus state copy < 1 µs | ${nexusCopyUs.toFixed(3)} µs (copy-assign; ${(sc.nexus.copyConstructNs / 1000).toFixed(3)} µs copy-construct) | ${ok(nexusCopyUs < T.copyUs)} |`);
md.push(`| Nexus definition load < 2 ms | ${nexusLoadMs.toFixed(3)} ms | ${ok(nexusLoadMs < T.loadMs)} |`);
if (vw?.duel) md.push(`| Duel view(p) in wasm ≤ ${T.viewUs} µs | ${r2(vw.duel.freshUs)} µs fresh (after a move), ${r2(vw.duel.cachedUs)} µs kept | fresh ${ok(vw.duel.freshUs <= T.viewUs)}, kept ${ok(vw.duel.cachedUs <= T.viewUs)} |`);
md.push(
  `| \`simulateParallel\` on N workers ≥ 0.85·N × 1 worker (N = ${cores.workers}, ${cores.games} random ${cores.game} games, wall clock) | ` +
    `${n(cores.many)} / ${n(cores.one)} games/s = ${cores.ratio.toFixed(2)}× (load average ${cores.loadBefore.map((l) => l.toFixed(1)).join(' ')} before; scaling holds only on free cores) | ` +
    `${ok(cores.ratio >= 0.85 * cores.workers)} |`,
);
md.push(`| wasm + glue < 150 KB gzip | ${(gzTotal / 1000).toFixed(1)} KB | ${ok(gzTotal < T.gzKB * 1000)} |`);
md.push('');
md.push(
  `boardgame.io measured here: ${n(bgio.random.movesPerSecond)} moves/s and ${r2(bgio.mcts.iterationsPerSecond)} MCTS iterations/s ` +
    '(DESIGN.md quotes ≈11.7k and ≈119 for this machine kind).',
);
md.push('');
md.push('## Bots: fair MCTS against random');
md.push('');
if (!bots) {
  md.push('Not measured in this run (`--no-bots`).');
  md.push('');
} else {
  const pct = (x) => `${(x * 100).toFixed(0)} %`;
  const cfg = bots.config;
  const label = { duel: 'Duel', 'crazy-eights': 'Crazy Eights', nexus: 'Nexus' };
  const seat = (s) => `${s.wins} / ${s.draws} of ${s.games}`;
  const order = ['duel', 'crazy-eights', 'nexus'];
  const byGame = (obj) => order.filter((g) => obj[g]).map((g) => [g, obj[g]]);
  const cost = bots.iterationCost;
  const slower = cost.duel && cost['crazy-eights'] ? `~${n(cost['crazy-eights'].fairUs / cost.duel.fairUs)}× ` : 'many times ';
  md.push(
    `\`bench/bots_bench.cpp\` (\`rulestack-bots-bench\`), native, ${r2(bots.wallSeconds)} s wall in all (load average ` +
      `${bots.loadAfter.map((x) => x.toFixed(1)).join(' ')} after). A bot for player p is fair by default: it decides from p's ` +
      `view only, and MCTS is information-set MCTS (the hidden part dealt anew by \`determinize\`, up to ${cfg.kMaxDeals} deals ` +
      `of ${cfg.kIterationsPerDeal} iterations, root visits summed); **omniscient** MCTS searches the true state (a sparring ` +
      `partner for tests). MCTS here is the default \`BotOptions\`: ${cfg.mcts.iterations} iterations per move, playouts of up to ` +
      `${cfg.mcts.maxPlayoutMoves} moves (to the end of the game). Seeds are fixed: the same numbers on every run of the same engine.`,
  );
  md.push('');
  md.push(
    `**Win rates.** Whole games, bot A against bot B; games 2k and 2k+1 are the same deal with the seats swapped, so A moves ` +
      `first (player 0) in half of them. ${cfg.games} games per Duel pairing against random, ${Math.max(2, cfg.games / 2 + ((cfg.games / 2) % 2))} for ` +
      `fair against omniscient (two searching bots); **only ${cfg.slowGames} per Crazy Eights pairing**: an iteration there ` +
      `costs ${slower}the Duel's (see below), a game of MCTS against random several CPU-seconds. The interval is the 95 % Wilson ` +
      'interval of A\'s win rate (a draw is not a win); "score" counts a draw as half. Random against random (the random bot ' +
      'seeded by the true state: the same uniform choice, without the view hash) shows the seat advantage.',
  );
  md.push('');
  md.push('| game | A | B | games | A wins / draws / losses | A win rate (95 % interval) | A score | A as player 0: wins / draws | A as player 1: wins / draws | moves per game |');
  md.push('|---|---|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const w of [...bots.randomVsRandom, ...bots.winRates].sort((x, y) => order.indexOf(x.game) - order.indexOf(y.game))) {
    md.push(
      `| ${label[w.game]} | ${w.a} | ${w.b} | ${w.games} | ${w.wins} / ${w.draws} / ${w.losses} | ` +
        `**${pct(w.winRate)}** (${pct(w.winLow)}–${pct(w.winHigh)}) | ${pct(w.score)} | ${seat(w.asPlayer0)} | ${seat(w.asPlayer1)} | ` +
        `${r2(w.meanPlies)}${w.unfinished ? ` (${w.unfinished} unfinished)` : ''}${w.errors ? ` — **${w.errors} refused moves**: ${w.firstError}` : ''} |`,
    );
  }
  md.push('');
  md.push(
    `**Cost of an MCTS iteration**, fair against omniscient, from a fixed mid-game position (as the Duel's above: legal move ` +
      `(i·7+3) mod n at ply i, ≥ 12 plies); one decision of ${cfg.mcts.iterations} iterations called repeatedly, CPU time, the ` +
      `median of ${cfg.rounds} rounds of ≈${r2(cfg.seconds)} s, fair and omniscient in turn; the ratio is the median of the ` +
      'per-round ratios. Fair includes its deals (a clone and `determinize` each) and the view hash that seeds it. A random ' +
      'playout from the position, from the true state and from deals, shows whether the deals change the work per iteration.',
  );
  md.push('');
  md.push('| game | position | fair µs / iteration | omniscient µs / iteration | fair / omniscient | random playout from the position (moves): true / dealt | random bot, one move: fair / omniscient µs |');
  md.push('|---|---|---:|---:|---:|---:|---:|');
  for (const [name, c] of byGame(cost)) {
    const p = c.position;
    md.push(
      `| ${label[name]} | seed ${p.seed}, ${p.plies} plies, turn ${p.turn}, ${p.moves} moves, hash ${p.hash} | ${r2(c.fairUs)} | ` +
        `${r2(c.omniscientUs)} | ${c.ratio.toFixed(2)}× | ${r2(c.playouts.trueState)} / ${r2(c.playouts.dealt)} | ` +
        `${r2(c.randomMove.fairUs)} / ${r2(c.randomMove.omniscientUs)} |`,
    );
  }
  md.push('');
  const lv = bots.levels;
  const first = lv.duel;
  const levelHead = (l) => `${l} (${first[l].iterations} iterations, playouts ≤ ${first[l].maxPlayoutMoves} moves)`;
  const mcts = native.mcts?.iterationsPerSecond && wasm.mcts?.iterationsPerSecond ? native.mcts.iterationsPerSecond / wasm.mcts.iterationsPerSecond : null;
  md.push(
    '**Time per move of each level** (`botLevel`: what the playground\'s and the package\'s `level` option picks), fair, ' +
      `native, CPU ms per move from a fixed mid-game position, the median of ${cfg.rounds} rounds` +
      (mcts ? `; in wasm (the package, the playground) expect about ${r2(mcts)}× these (native / wasm MCTS iterations per second, the Duel's, above).` : '.'),
  );
  md.push('');
  md.push(`| game | position | ${['easy', 'normal', 'hard'].map(levelHead).join(' | ')} |`);
  md.push('|---|---|---:|---:|---:|');
  for (const [name, row] of byGame(lv)) {
    const p = row.position;
    md.push(
      `| ${label[name]} | seed ${p.seed}, ${p.plies} plies, turn ${p.turn}, ${p.moves} moves | ` +
        `${['easy', 'normal', 'hard'].map((l) => r2(row[l].ms)).join(' | ')} |`,
    );
  }
  md.push('');
}
let vs = null;
if (values.vs) {
  log(`against ${values.vs} (bench/vs.mjs)`);
  run(process.execPath, ['bench/vs.mjs', '--base', values.vs, '--runs', values['vs-runs'], '--json', 'build/bench/vs.json'], { stdio: ['ignore', 'ignore', 'inherit'] });
  vs = JSON.parse(fs.readFileSync('build/bench/vs.json', 'utf8'));
  md.push(`## Against commit ${vs.base.slice(0, 12)}`);
  md.push('');
  md.push(`\`node bench/vs.mjs --base ${values.vs} --runs ${vs.runs}\`: the same work with this build (A) and that commit's (B), one after the other, A B A B, ` +
    'each run its own process; the median of the pairs\' ratios of CPU time (start-up included). Speed = B/A: 1.00 is as fast, below 1 slower.');
  md.push('');
  md.push('| work | A/B (median) | speed | pairs (min–max) | A s | B s |');
  md.push('|---|---:|---:|---|---:|---:|');
  for (const r of Object.values(vs.sides))
    md.push(`| ${r.what} | ${r.ratio.toFixed(3)} | ${(1 / r.ratio).toFixed(2)}× | ${r.min.toFixed(2)}–${r.max.toFixed(2)} | ${r.medianA.toFixed(2)} | ${r.medianB.toFixed(2)} |`);
  md.push('');
}
md.push('## Where the native time goes (perf)');
md.push('');
if (!profile) {
  md.push('No profile in this run (`--no-profile`, or perf is not available).');
} else {
  for (const [what, only] of [['random playouts', 'random'], ['MCTS, 200 iterations per decision', 'mcts']]) {
    const p = profile[only];
    md.push(`**${what}** (\`perf record --call-graph dwarf\` of \`rulestack-bench --only ${only}\`). By self time, and the engine functions by time including their callees:`);
    md.push('');
    md.push('| self % | incl. % | function | file | | incl. % | self % | function (inclusive) | file |');
    md.push('|---:|---:|---|---|---|---:|---:|---|---|');
    const fmt = (r) => (r ? [r.self.toFixed(1), r.total.toFixed(1), `\`${r.sym.replace(/\|/g, '\\|')}\``, r.file] : ['', '', '', '']);
    for (let i = 0; i < Math.max(p.bySelf.length, p.byTotal.length); i++) {
      const a = fmt(p.bySelf[i]);
      const b = fmt(p.byTotal[i]);
      md.push(`| ${a.join(' | ')} | | ${b[1]} | ${b[0]} | ${b[2]} | ${b[3]} |`);
    }
    md.push('');
  }
}
md.push('What the hot spots mean and what would reach the targets: bench/README.md.');
md.push('');
// bench/multiplayer.mjs writes a section of its own: keep it
const previous = fs.existsSync('bench/RESULTS.md') ? fs.readFileSync('bench/RESULTS.md', 'utf8') : '';
const multiplayer = previous.indexOf('## Multiplayer server');
if (multiplayer >= 0) md.push(previous.slice(multiplayer).trimEnd(), '');
fs.writeFileSync('bench/RESULTS.md', md.join('\n'));
fs.writeFileSync('build/bench/results.json', JSON.stringify({ native, wasm, bgio, cores, limit, bots, sizes, profile, vs }, null, 2));
log('wrote bench/RESULTS.md (raw numbers: build/bench/results.json)');
process.stdout.write(md.join('\n') + '\n');
