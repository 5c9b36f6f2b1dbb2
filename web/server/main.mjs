#!/usr/bin/env node
// `npm run server`: one rulestack game server on PORT (default 2567), in memory, or sharing
// presence, matchmaking and game records through Redis when REDIS_URL is set (then set
// PUBLIC_ADDRESS, host:port, to where clients reach this process). RECORD_TTL_SECONDS: how long
// the record of a game whose room ended is kept for a resume (default a day);
// RECORD_LEASE_SECONDS: how long a room's claim on its record outlives its last renewal in Redis
// (default 20 s: how long a resume of a game whose process died may wait).
import { createServer } from './server.mjs';
import { RECORD_TTL_SECONDS, RECORD_LEASE_SECONDS, MAX_RECORD_TTL_SECONDS } from './record-store.mjs';

if (process.argv.length > 2) {
  console.error(`rulestack server: it takes no arguments, not ${process.argv.slice(2).join(' ')} (set PORT, REDIS_URL, PUBLIC_ADDRESS, RECORD_TTL_SECONDS and RECORD_LEASE_SECONDS in its environment)`);
  process.exit(2);
}
const port = Number(process.env.PORT ?? 2567);
if (!/^\d+$/.test(process.env.PORT ?? '2567') || port < 1 || port > 65535) {
  console.error(`rulestack server: PORT must be a port number from 1 to 65535, not '${process.env.PORT}'`);
  process.exit(2);
}
/** A whole number of seconds from 1 to MAX_RECORD_TTL_SECONDS from the environment (else exit 2). */
function seconds(name, byDefault) {
  const v = process.env[name] ?? String(byDefault);
  if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > MAX_RECORD_TTL_SECONDS) {
    console.error(`rulestack server: ${name} must be a number of seconds from 1 to ${MAX_RECORD_TTL_SECONDS}, not '${v}'`);
    process.exit(2);
  }
  return Number(v);
}
const recordTtlSeconds = seconds('RECORD_TTL_SECONDS', RECORD_TTL_SECONDS);
const recordLeaseSeconds = seconds('RECORD_LEASE_SECONDS', RECORD_LEASE_SECONDS);
const { server } = createServer({ recordTtlSeconds, recordLeaseSeconds });
await server.listen(port);
console.log(`rulestack server: listening on ws://localhost:${port} (${process.env.REDIS_URL ? `Redis ${process.env.REDIS_URL}` : 'in memory'})`);
const stop = async () => {
  await server.gracefullyShutdown(false);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
