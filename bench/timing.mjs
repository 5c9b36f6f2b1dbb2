// Timing shared by the node benchmarks: CPU time of this process (user + system, far less
// disturbed than wall time on a shared machine), the best of `rounds` rounds of `seconds`.
import { parseArgs } from 'node:util';

export function benchArgs() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: { seconds: { type: 'string', default: '2' }, rounds: { type: 'string', default: '3' } },
  });
  return { positionals, seconds: Number(values.seconds), rounds: Number(values.rounds) };
}

export const cpuSeconds = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

/** Calls f (one batch of `units`; it may return a promise and an extra count) until the round's
 * time is up; returns the best round. */
export async function best(f, units, { seconds, rounds }) {
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
