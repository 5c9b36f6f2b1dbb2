#!/usr/bin/env node
// Load test of the multiplayer server (web/server/): N rooms of the Duel played to the end at
// once by random clients (rulestack/client, in this process, one per seat), against one
// server process in memory, then against two processes behind one Redis (rooms created on
// each in turn, half of the second seats joined through the other process). Reports moves/s
// (wall time, all rooms together) and the latency from a move sent to its view received
// (apply() resolving: applied, recorded, the update back). Writes the "Multiplayer server"
// section of bench/RESULTS.md (bench/run.mjs keeps it).
//   node bench/multiplayer.mjs [--rooms N] [--game NAME]      (default 40 rooms, duel)
import fs from 'node:fs';
import os from 'node:os';
import { join } from 'rulestack/client';
import { spawnServer, startRedis } from '../web/server/test/helpers.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(`--${name}`);
  return i < 0 ? dflt : args[i + 1];
};
const rooms = Number(opt('rooms', 40));
// The clients move as fast as the server answers (hundreds of moves a second each): the
// servers' per-client rate limit (web/server/rate-limit.mjs) as high as main.mjs takes it
const UNLIMITED = { RATE_BURST: '1000000', RATE_PER_SECOND: '1000000' };
const game = opt('game', 'duel');
if (!Number.isInteger(rooms) || rooms < 1 || rooms > 1000) {
  console.error(`multiplayer bench: --rooms must be an integer from 1 to 1000, not ${opt('rooms')}`);
  process.exit(2);
}

async function playRoom(urlA, urlB, seed) {
  const p0 = await join(urlA, { game, seed }, { seat: '0' });
  const p1 = await join(urlB, p0.roomId, { seat: '1' });
  const seats = [p0, p1];
  const latencies = [];
  let rng = seed;
  while (p0.view().result === null) {
    const mover = seats.find((c) => c.legalMoves().length > 0);
    if (!mover) {
      // the other seat's update for the last move is on its way
      await new Promise((r) => {
        const offs = seats.map((c) => c.on('update', () => (offs.forEach((off) => off()), r())));
      });
      continue;
    }
    const moves = mover.legalMoves();
    rng = (rng * 1103515245 + 12345) % 2147483648;
    const t0 = performance.now();
    await mover.apply(mover.seat, moves[rng % moves.length]);
    latencies.push(performance.now() - t0);
  }
  await Promise.all(seats.map((c) => c.leave()));
  return latencies;
}

/** CPU seconds a process has used (Linux /proc; null elsewhere). */
function cpuSeconds(pid) {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime, in clock ticks (100/s)
  } catch {
    return null;
  }
}
const sum = (xs) => (xs.some((x) => x === null) ? null : xs.reduce((a, b) => a + b, 0));

async function run(label, urls, pids) {
  // one room first, not counted: the server processes load the engine and warm up
  await playRoom(urls[0], urls[urls.length - 1], 0);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const server0 = sum(pids.map(cpuSeconds));
  const all = await Promise.all([...Array(rooms)].map((_, i) => playRoom(urls[i % urls.length], urls[(i + (i % 4 === 3 ? 1 : 0)) % urls.length], i + 1)));
  const secs = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const server1 = sum(pids.map(cpuSeconds));
  const serverCpu = server0 === null || server1 === null ? null : server1 - server0;
  const lat = all.flat().sort((a, b) => a - b);
  const q = (p) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))];
  const r = { label, rooms, moves: lat.length, seconds: secs, movesPerSecond: lat.length / secs, p50: q(0.5), p99: q(0.99), clientCpu: (cpu.user + cpu.system) / 1e6, serverCpu };
  r.serverMsPerMove = serverCpu === null ? null : (serverCpu * 1000) / r.moves;
  console.log(`${label}: ${r.moves} moves in ${secs.toFixed(2)} s = ${r.movesPerSecond.toFixed(0)} moves/s; move→view p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms; CPU: servers ${serverCpu?.toFixed(1) ?? '?'} s (${r.serverMsPerMove?.toFixed(2) ?? '?'} ms a move), clients ${r.clientCpu.toFixed(1)} s`);
  return r;
}

const load0 = os.loadavg().map((x) => x.toFixed(1)).join(' ');
const results = [];
{
  const one = await spawnServer({ REDIS_URL: '', ...UNLIMITED });
  try {
    results.push(await run('one process, in memory', [one.url], [one.child.pid]));
  } finally {
    one.child.kill('SIGTERM');
  }
}
{
  const redis = await startRedis();
  const a = await spawnServer({ REDIS_URL: redis.url, ...UNLIMITED });
  const b = await spawnServer({ REDIS_URL: redis.url, ...UNLIMITED });
  try {
    results.push(await run('two processes, one Redis', [a.url, b.url], [a.child.pid, b.child.pid]));
  } finally {
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    redis.stop();
  }
}
const load1 = os.loadavg().map((x) => x.toFixed(1)).join(' ');

const fmt = (x, d = 0) => x.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
const section = [
  '## Multiplayer server',
  '',
  `Written by \`node bench/multiplayer.mjs --rooms ${rooms} --game ${game}\` on ${new Date().toISOString().slice(0, 10)}; ${os.cpus()[0]?.model.split(' ').slice(0, 2).join(' ')}, ${os.cpus().length} CPUs; node ${process.version}. Load average ${load0} before, ${load1} after (a shared machine: the clients, the server processes and Redis share its cores).`,
  '',
  `${rooms} rooms of the ${game} at once, each played to the end by two random clients (\`rulestack/client\`, in the bench process). Latency: from \`apply()\` called to its update (the view) received — the room applied the move, appended it to the record (memory, or Redis), and sent each client its view, log and legal moves. Moves/s: all rooms together, wall time.`,
  '',
  '| setup | moves | seconds | moves/s | move→view p50, ms | p99, ms | server CPU a move, ms |',
  '|---|---:|---:|---:|---:|---:|---:|',
  ...results.map((r) => `| ${r.label} | ${fmt(r.moves)} | ${fmt(r.seconds, 2)} | ${fmt(r.movesPerSecond)} | ${fmt(r.p50, 2)} | ${fmt(r.p99, 2)} | ${r.serverMsPerMove === null ? '?' : fmt(r.serverMsPerMove, 2)} |`),
  '',
  'Server CPU a move: the CPU time of the server processes (Linux /proc, Redis not counted) over the moves: what a move costs the server whatever else runs on the machine; its inverse is the most moves/s one core can serve. A move here is one a client made (the automatic passes of the engine are not counted).',
  '',
  "Per move the room calls the engine for each seat's view, legal moves and log (`log(p)` costs time in proportion to the events it returns, so the room's live game keeps only its last 128 events; older ones are replayed from the record when a client needs them).",
  '',
].join('\n');
const file = new URL('./RESULTS.md', import.meta.url);
const md = fs.readFileSync(file, 'utf8');
const start = md.indexOf('## Multiplayer server');
let out;
if (start < 0) out = `${md.trimEnd()}\n\n${section}`;
else {
  const next = md.indexOf('\n## ', start + 1);
  out = md.slice(0, start) + section + (next < 0 ? '' : md.slice(next + 1));
}
fs.writeFileSync(file, out.endsWith('\n') ? out : `${out}\n`);
console.log('wrote the Multiplayer server section of bench/RESULTS.md');
