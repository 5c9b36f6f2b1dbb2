#!/usr/bin/env node
// `npm run server`: one rulestack game server on PORT (default 2567), in memory, or sharing
// presence, matchmaking and game records through Redis when REDIS_URL is set (then set
// PUBLIC_ADDRESS, host:port, to where clients reach this process). RECORD_TTL_SECONDS: how long
// the record of a game whose room ended (in Redis: or whose process died) is kept for a resume
// (default a day);
// RECORD_LEASE_SECONDS: how long a room's claim on its record outlives its last renewal in Redis
// (default 20 s: how long a resume of a game whose process died may wait). Each seat's
// messages, and those of each address's spectators together: RATE_BURST at once (default 20),
// then RATE_PER_SECOND (default 10); more are refused, and a client with more than
// RATE_FLOOD_REFUSALS (default 50) refused within 10 s is disconnected (rate-limit.mjs). Each
// address's HTTP requests (matchmaking): REQUEST_BURST at once (default 60), then
// REQUEST_PER_SECOND (default 2); more are refused with 429 (server.mjs); at most
// REQUEST_READING_BYTES (default 256 MiB) of request bodies are kept at once while they
// arrive, from all addresses together; a body that would pass it is refused with 503, as is a
// request from a new address while REQUEST_ADDRESSES (default 100,000) are kept. With
// Redis, at start: a warning when Redis may evict the records, records of an earlier version
// set to expire (record-store.mjs, tidy), exit 1 when it does not answer. A port it cannot listen on (in use): exit 1.
import { REQUEST_LIMIT, createServer } from './server.mjs';
import { RECORD_TTL_SECONDS, RECORD_LEASE_SECONDS, MAX_RECORD_TTL_SECONDS } from './record-store.mjs';
import { RATE_LIMIT } from './rate-limit.mjs';

const ENV = 'PORT, REDIS_URL, PUBLIC_ADDRESS, RECORD_TTL_SECONDS, RECORD_LEASE_SECONDS, RATE_BURST, RATE_PER_SECOND, RATE_FLOOD_REFUSALS, REQUEST_BURST, REQUEST_PER_SECOND, REQUEST_READING_BYTES and REQUEST_ADDRESSES';
// (a bound only against typing errors: a limit this high is as good as none)
const MAX_RATE = 1_000_000;

if (process.argv.length > 2) {
  console.error(`rulestack server: it takes no arguments, not ${process.argv.slice(2).join(' ')} (set ${ENV} in its environment)`);
  process.exit(2);
}
const port = Number(process.env.PORT ?? 2567);
if (!/^\d+$/.test(process.env.PORT ?? '2567') || port < 1 || port > 65535) {
  console.error(`rulestack server: PORT must be a port number from 1 to 65535, not '${process.env.PORT}'`);
  process.exit(2);
}
/** A whole number from `min` to `max` from the environment (else exit 2); `what` names it in the error. */
function wholeNumber(name, byDefault, min, max, what = 'a whole number') {
  const v = process.env[name] ?? String(byDefault);
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) {
    console.error(`rulestack server: ${name} must be ${what} from ${min} to ${max}, not '${v}'`);
    process.exit(2);
  }
  return Number(v);
}
/** A whole number of seconds from 1 to MAX_RECORD_TTL_SECONDS from the environment (else exit 2). */
function seconds(name, byDefault) {
  return wholeNumber(name, byDefault, 1, MAX_RECORD_TTL_SECONDS, 'a number of seconds');
}
/** A number from the environment, above 0 and at most MAX_RATE, whole unless `fraction` (else exit 2). */
function rate(name, byDefault, fraction = false) {
  if (!fraction) return wholeNumber(name, byDefault, 1, MAX_RATE);
  const v = process.env[name] ?? String(byDefault);
  if (!/^\d+(\.\d+)?$/.test(v) || !(Number(v) > 0) || Number(v) > MAX_RATE) {
    console.error(`rulestack server: ${name} must be a number above 0 and at most ${MAX_RATE}, not '${v}'`);
    process.exit(2);
  }
  return Number(v);
}
const recordTtlSeconds = seconds('RECORD_TTL_SECONDS', RECORD_TTL_SECONDS);
const recordLeaseSeconds = seconds('RECORD_LEASE_SECONDS', RECORD_LEASE_SECONDS);
const rateLimit = {
  burst: rate('RATE_BURST', RATE_LIMIT.burst),
  perSecond: rate('RATE_PER_SECOND', RATE_LIMIT.perSecond, true),
  floodRefusals: rate('RATE_FLOOD_REFUSALS', RATE_LIMIT.floodRefusals),
};
const requestLimit = {
  burst: rate('REQUEST_BURST', REQUEST_LIMIT.burst),
  perSecond: rate('REQUEST_PER_SECOND', REQUEST_LIMIT.perSecond, true),
  readingBytes: wholeNumber('REQUEST_READING_BYTES', REQUEST_LIMIT.readingBytes, 1, Number.MAX_SAFE_INTEGER),
  addresses: wholeNumber('REQUEST_ADDRESSES', REQUEST_LIMIT.addresses, 1, Number.MAX_SAFE_INTEGER),
};
const { server, store } = createServer({ recordTtlSeconds, recordLeaseSeconds, rateLimit, requestLimit });
if (store.tidy) {
  const { eviction, expired } = await store.tidy().catch((e) => {
    console.error(`rulestack server: Redis at ${process.env.REDIS_URL} cannot be used: ${e.message}`);
    process.exit(1);
  });
  if (eviction)
    console.error(`rulestack server: warning: Redis evicts keys when its memory is full (maxmemory-policy '${eviction}'): it could drop the records of games in play, which carry an expiry; set maxmemory-policy to 'noeviction'`);
  if (expired) console.log(`rulestack server: ${expired} game record${expired === 1 ? '' : 's'} of an earlier version (kept forever) set to expire in ${recordTtlSeconds} s, as records of rooms that ended`);
}
// a port in use (or not ours to take) stops the server: said in one line, before Colyseus's
// own listeners print the error's stack and leave the process running without listening
const cannotListen = (e) => {
  console.error(`rulestack server: cannot listen on port ${port}: ${e.code === 'EADDRINUSE' ? 'it is in use' : e.message}`);
  process.exit(1);
};
server.transport.server.prependOnceListener('error', cannotListen);
await server.listen(port);
server.transport.server.off('error', cannotListen);
console.log(`rulestack server: listening on ws://localhost:${port} (${process.env.REDIS_URL ? `Redis ${process.env.REDIS_URL}` : 'in memory'})`);
const stop = async () => {
  await server.gracefullyShutdown(false);
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
