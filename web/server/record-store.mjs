// Where each room appends its game record (header: definition, its hash, seed, options;
// then one entry per applied move), so that a room lost with its process can be resumed
// elsewhere by replaying the moves. Redis when a URL is given, else this process's memory.
// The record of a room that ended is kept ttlSeconds more (for a resume), then dropped, so
// that a long-running server does not keep every game it ever hosted (one with nothing to
// resume, no move made and nobody seated, is dropped at once); in Redis, so is the
// record of a room whose process died or was shut down, ttlSeconds after its claim ran out
// (while a room runs, each renewal of its claim keeps its record). A room claims its
// record's id while it runs (claim, renew, release), so that two rooms, on any processes,
// never append to one record.
import Redis from 'ioredis';

/** How long the record of a room that ended is kept by default: a day. */
export const RECORD_TTL_SECONDS = 24 * 60 * 60;
/** The longest: what a timer of this process can wait (2^31 - 1 ms). */
export const MAX_RECORD_TTL_SECONDS = 2147483;
/**
 * How long a claim lasts in Redis unless renewed (its room renews it every third of this) by
 * default: what a resume waits for after the process running the game died.
 */
export const RECORD_LEASE_SECONDS = 20;

const notClaimed = (id) => `rulestack record store: the claim on '${id}' is not this room's any more`;

function checkSeconds(name, v) {
  if (typeof v !== 'number' || !(v > 0 && v <= MAX_RECORD_TTL_SECONDS))
    throw new RangeError(`rulestack record store: ${name} must be a number of seconds above 0 and at most ${MAX_RECORD_TTL_SECONDS}, not ${v}`);
  return v;
}

/** The record of a game in this process's memory (lost with it: for one process). */
export class MemoryStore {
  #records = new Map();
  #drops = new Map(); // id -> the timer that drops the record of a room that ended
  #claims = new Map(); // id -> the owner of the room running it
  /** (leaseSeconds: a claim here lasts until released, as it dies with the process; kept for the room's renewals.) */
  constructor({ ttlSeconds = RECORD_TTL_SECONDS, leaseSeconds = RECORD_LEASE_SECONDS } = {}) {
    this.ttlSeconds = checkSeconds('ttlSeconds', ttlSeconds);
    this.leaseSeconds = checkSeconds('leaseSeconds', leaseSeconds);
  }
  async create(id, header) {
    await this.keep(id);
    this.#records.set(id, { header, moves: [] });
  }
  /** owner: the room's claim, which must still hold the id (without one: not checked). */
  async append(id, entry, owner) {
    const r = this.#records.get(id);
    if (!r) throw new Error(`rulestack record store: no record '${id}'`);
    if (owner !== undefined && this.#claims.get(id) !== owner) throw new Error(notClaimed(id));
    await this.keep(id); // (a room plays on it: whatever retired it, it is kept)
    r.moves.push(entry);
  }
  /** { header, moves } or null. */
  async load(id) {
    const r = this.#records.get(id);
    return r ? { header: r.header, moves: [...r.moves] } : null;
  }
  /**
   * Its room ended: the record is dropped after ttlSeconds unless a room resumes it (keep).
   * owner: the room's claim; the record is left alone when another room holds the id (one
   * whose lease ran out leaves alone the record another room took up). Without one, not
   * checked. False when not retired (held by another, or no such record).
   */
  async retire(id, owner) {
    if (owner !== undefined && this.#claims.has(id) && this.#claims.get(id) !== owner) return false;
    await this.keep(id);
    if (!this.#records.has(id)) return false;
    const timer = setTimeout(() => {
      this.#records.delete(id);
      this.#drops.delete(id);
    }, this.ttlSeconds * 1000);
    timer.unref();
    this.#drops.set(id, timer);
    return true;
  }
  /**
   * Its room ended with nothing to resume (no move made, nobody seated): the record is dropped
   * now. owner as for retire. False when not dropped (held by another, or no such record).
   */
  async drop(id, owner) {
    if (owner !== undefined && this.#claims.has(id) && this.#claims.get(id) !== owner) return false;
    await this.keep(id);
    return this.#records.delete(id);
  }
  /** A room took it up again: kept. False when there is no such record (any more). */
  async keep(id) {
    clearTimeout(this.#drops.get(id));
    this.#drops.delete(id);
    return this.#records.has(id);
  }
  /** Takes the id for the room owner names (a token of its own): false while a room holds it. */
  async claim(id, owner) {
    if (this.#claims.has(id)) return false;
    this.#claims.set(id, owner);
    return true;
  }
  /** Whether owner still holds the id (its claim extended). */
  async renew(id, owner) {
    return this.#claims.get(id) === owner;
  }
  /** Frees the id, if owner holds it (not a claim another room took since). */
  async release(id, owner) {
    if (this.#claims.get(id) === owner) this.#claims.delete(id);
  }
  async close() {
    for (const timer of this.#drops.values()) clearTimeout(timer);
    this.#drops.clear();
  }
}

// Compare-and-act on a claim (atomic in Redis): only the value its owner set is extended or deleted.
// A claim extended (ARGV[2] ms) keeps its record (KEYS[2], KEYS[3]) as long, and ttlSeconds
// more (ARGV[3] ms): a record outlives the claim of its room.
const RENEW_LUA = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('PEXPIRE', KEYS[2], ARGV[3])
redis.call('PEXPIRE', KEYS[3], ARGV[3])
return redis.call('PEXPIRE', KEYS[1], ARGV[2])`;
const RELEASE_LUA = "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0";
// A move appended only while its room's claim holds (ARGV[2], '' for any): a room whose lease
// ran out (its process stalled) cannot write into the record another room took up meanwhile.
// The record is then kept as a renewal keeps it (ARGV[4] ms); one that was dropped (ARGV[5]) is not
// written to (its moves would be a list with no header).
const APPEND_LUA = `if ARGV[2] ~= '' and redis.call('GET', KEYS[3]) ~= ARGV[2] then return redis.error_reply(ARGV[3]) end
if redis.call('EXISTS', KEYS[1]) == 0 then return redis.error_reply(ARGV[5]) end
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
redis.call('PEXPIRE', KEYS[2], ARGV[4])
return 1`;
// A record set to expire (ARGV[1] ms) unless another room than ARGV[2] ('' for any) holds
// its claim; 0 when it was not (held by another, or no such record).
const RETIRE_LUA = `local holder = redis.call('GET', KEYS[3])
if ARGV[2] ~= '' and holder and holder ~= ARGV[2] then return 0 end
local r = redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[1])
return r`;
// A record deleted now unless another room than ARGV[1] ('' for any) holds its claim.
const DROP_LUA = `local holder = redis.call('GET', KEYS[3])
if ARGV[1] ~= '' and holder and holder ~= ARGV[1] then return 0 end
return redis.call('DEL', KEYS[1], KEYS[2])`;

// A record written before records expired (no expiry on its header or its moves) that no room
// claims: set to expire ttlSeconds (ARGV[1] ms) from now, as if its room had just ended. One
// claimed (a room of such a server plays it) is left alone: its room's next start tidies it.
const TIDY_LUA = `if redis.call('EXISTS', KEYS[3]) == 1 then return 0 end
local n = 0
for i = 1, 2 do
  if redis.call('PTTL', KEYS[i]) == -1 then
    redis.call('PEXPIRE', KEYS[i], ARGV[1])
    n = 1
  end
end
return n`;

/**
 * The records in Redis: `rulestack:record:<id>` (the header, JSON) and `…:moves` (a list),
 * which expire ttlSeconds after their room retired them, or leaseSeconds + ttlSeconds after it
 * last touched them (created, appended, kept, its claim renewed): ttlSeconds after its claim
 * ran out. The claim on one, `…:run` (its owner), expires leaseSeconds after it was last renewed.
 */
export class RedisStore {
  constructor(url, { ttlSeconds = RECORD_TTL_SECONDS, leaseSeconds = RECORD_LEASE_SECONDS } = {}) {
    this.ttlSeconds = checkSeconds('ttlSeconds', ttlSeconds);
    this.leaseSeconds = checkSeconds('leaseSeconds', leaseSeconds);
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
    this.redis.defineCommand('rulestackRenew', { numberOfKeys: 3, lua: RENEW_LUA });
    this.redis.defineCommand('rulestackRelease', { numberOfKeys: 1, lua: RELEASE_LUA });
    this.redis.defineCommand('rulestackAppend', { numberOfKeys: 3, lua: APPEND_LUA });
    this.redis.defineCommand('rulestackRetire', { numberOfKeys: 3, lua: RETIRE_LUA });
    this.redis.defineCommand('rulestackDrop', { numberOfKeys: 3, lua: DROP_LUA });
    this.redis.defineCommand('rulestackTidy', { numberOfKeys: 3, lua: TIDY_LUA });
  }
  /**
   * What a server checks as it starts: { eviction, expired }. eviction: Redis's
   * `maxmemory-policy` when Redis may evict keys (a `maxmemory` set and a policy other than
   * `noeviction`: records in play could be dropped), else null (also when Redis refuses
   * CONFIG GET, as managed ones may). expired: how many records of an earlier version (no
   * expiry, no claim) were set to expire ttlSeconds from now, as records of rooms that ended.
   */
  async tidy() {
    let eviction = null;
    try {
      const config = await this.redis.config('GET', 'maxmemory*');
      const get = (name) => config[config.indexOf(name) + 1];
      if (Number(get('maxmemory')) > 0 && get('maxmemory-policy') !== 'noeviction') eviction = get('maxmemory-policy');
    } catch {
      // (CONFIG refused: not checked)
    }
    let expired = 0;
    let cursor = '0';
    do {
      const [next, keys] = await this.redis.scan(cursor, 'MATCH', 'rulestack:record:*', 'COUNT', 1000);
      cursor = next;
      const ids = new Set(keys.map((k) => k.replace(/:(moves|run)$/, '')));
      const tidied = await Promise.all([...ids].map((k) => this.redis.rulestackTidy(k, `${k}:moves`, `${k}:run`, this.#ttlMs)));
      expired += tidied.reduce((a, b) => a + b, 0);
    } while (cursor !== '0');
    return { eviction, expired };
  }
  get #leaseMs() {
    return Math.ceil(this.leaseSeconds * 1000);
  }
  get #ttlMs() {
    return Math.ceil(this.ttlSeconds * 1000);
  }
  /** How long a record in play is kept from now: its claim's lease, then ttlSeconds. */
  get #liveMs() {
    return this.#leaseMs + this.#ttlMs;
  }
  #key(id) {
    return `rulestack:record:${id}`;
  }
  async create(id, header) {
    await this.#exec(this.redis.multi().del(`${this.#key(id)}:moves`).set(this.#key(id), JSON.stringify(header), 'PX', this.#liveMs));
  }
  async append(id, entry, owner) {
    // (a room plays on it: whatever retired it, it is kept as a renewal keeps it)
    const k = this.#key(id);
    await this.redis.rulestackAppend(k, `${k}:moves`, `${k}:run`, JSON.stringify(entry), owner ?? '', notClaimed(id), this.#liveMs, `rulestack record store: no record '${id}'`);
  }
  /** Runs a MULTI; a command's error is thrown (ioredis returns it in the results). */
  async #exec(multi) {
    const results = await multi.exec();
    for (const [e] of results) if (e) throw e;
    return results.map(([, r]) => r);
  }
  async load(id) {
    const [[e1, header], [e2, moves]] = await this.redis.multi().get(this.#key(id)).lrange(`${this.#key(id)}:moves`, 0, -1).exec();
    if (e1 || e2) throw e1 || e2;
    if (header === null) return null;
    return { header: JSON.parse(header), moves: moves.map((m) => JSON.parse(m)) };
  }
  async retire(id, owner) {
    const k = this.#key(id);
    return (await this.redis.rulestackRetire(k, `${k}:moves`, `${k}:run`, this.#ttlMs, owner ?? '')) === 1;
  }
  async drop(id, owner) {
    const k = this.#key(id);
    return (await this.redis.rulestackDrop(k, `${k}:moves`, `${k}:run`, owner ?? '')) > 0;
  }
  /** (in Redis a record is always set to expire: kept means kept as a renewal keeps it, and by the claim's renewals after) */
  async keep(id) {
    const k = this.#key(id);
    const [, , exists] = await this.#exec(this.redis.multi().pexpire(k, this.#liveMs).pexpire(`${k}:moves`, this.#liveMs).exists(k));
    return exists === 1;
  }
  async claim(id, owner) {
    return (await this.redis.set(`${this.#key(id)}:run`, owner, 'PX', this.#leaseMs, 'NX')) === 'OK';
  }
  async renew(id, owner) {
    const k = this.#key(id);
    return (await this.redis.rulestackRenew(`${k}:run`, k, `${k}:moves`, owner, this.#leaseMs, this.#liveMs)) === 1;
  }
  async release(id, owner) {
    await this.redis.rulestackRelease(`${this.#key(id)}:run`, owner);
  }
  async close() {
    await this.redis.quit();
  }
}

/**
 * ttlSeconds: how long the record of a room that ended is kept (RECORD_TTL_SECONDS; in Redis,
 * that of a room whose process died too, after its claim ran out);
 * leaseSeconds: how long a claim outlives its last renewal in Redis (RECORD_LEASE_SECONDS).
 */
export function createStore(redisUrl, { ttlSeconds, leaseSeconds } = {}) {
  return redisUrl ? new RedisStore(redisUrl, { ttlSeconds, leaseSeconds }) : new MemoryStore({ ttlSeconds, leaseSeconds });
}
