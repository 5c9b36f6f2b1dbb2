// Where each room appends its game record (header: definition, its hash, seed, options;
// then one entry per applied move), so that a room lost with its process can be resumed
// elsewhere by replaying the moves. Redis when a URL is given, else this process's memory.
// The record of a room that ended is kept ttlSeconds more (for a resume), then dropped, so
// that a long-running server does not keep every game it ever hosted.
import Redis from 'ioredis';

/** How long the record of a room that ended is kept by default: a day. */
export const RECORD_TTL_SECONDS = 24 * 60 * 60;
/** The longest: what a timer of this process can wait (2^31 - 1 ms). */
export const MAX_RECORD_TTL_SECONDS = 2147483;

function checkTtl(ttlSeconds) {
  if (typeof ttlSeconds !== 'number' || !(ttlSeconds > 0 && ttlSeconds <= MAX_RECORD_TTL_SECONDS))
    throw new RangeError(`rulestack record store: ttlSeconds must be a number of seconds above 0 and at most ${MAX_RECORD_TTL_SECONDS}, not ${ttlSeconds}`);
  return ttlSeconds;
}

/** The record of a game in this process's memory (lost with it: for one process). */
export class MemoryStore {
  #records = new Map();
  #drops = new Map(); // id -> the timer that drops the record of a room that ended
  constructor({ ttlSeconds = RECORD_TTL_SECONDS } = {}) {
    this.ttlSeconds = checkTtl(ttlSeconds);
  }
  async create(id, header) {
    await this.keep(id);
    this.#records.set(id, { header, moves: [] });
  }
  async append(id, entry) {
    const r = this.#records.get(id);
    if (!r) throw new Error(`rulestack record store: no record '${id}'`);
    await this.keep(id); // (a room plays on it: whatever retired it, it is kept)
    r.moves.push(entry);
  }
  /** { header, moves } or null. */
  async load(id) {
    const r = this.#records.get(id);
    return r ? { header: r.header, moves: [...r.moves] } : null;
  }
  /** Its room ended: the record is dropped after ttlSeconds unless a room resumes it (keep). */
  async retire(id) {
    await this.keep(id);
    if (!this.#records.has(id)) return;
    const timer = setTimeout(() => {
      this.#records.delete(id);
      this.#drops.delete(id);
    }, this.ttlSeconds * 1000);
    timer.unref();
    this.#drops.set(id, timer);
  }
  /** A room took it up again: kept. False when there is no such record (any more). */
  async keep(id) {
    clearTimeout(this.#drops.get(id));
    this.#drops.delete(id);
    return this.#records.has(id);
  }
  async close() {
    for (const timer of this.#drops.values()) clearTimeout(timer);
    this.#drops.clear();
  }
}

/** The records in Redis: `rulestack:record:<id>` (the header, JSON) and `…:moves` (a list). */
export class RedisStore {
  constructor(url, { ttlSeconds = RECORD_TTL_SECONDS } = {}) {
    this.ttlSeconds = checkTtl(ttlSeconds);
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
  }
  #key(id) {
    return `rulestack:record:${id}`;
  }
  async create(id, header) {
    await this.redis.multi().del(`${this.#key(id)}:moves`).set(this.#key(id), JSON.stringify(header)).exec();
  }
  async append(id, entry) {
    // (a room plays on it: whatever retired it, it is kept)
    await this.#exec(this.redis.multi().rpush(`${this.#key(id)}:moves`, JSON.stringify(entry)).persist(this.#key(id)).persist(`${this.#key(id)}:moves`));
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
  async retire(id) {
    const ms = Math.ceil(this.ttlSeconds * 1000);
    await this.#exec(this.redis.multi().pexpire(this.#key(id), ms).pexpire(`${this.#key(id)}:moves`, ms));
  }
  async keep(id) {
    const [, , exists] = await this.#exec(this.redis.multi().persist(this.#key(id)).persist(`${this.#key(id)}:moves`).exists(this.#key(id)));
    return exists === 1;
  }
  async close() {
    await this.redis.quit();
  }
}

/** ttlSeconds: how long the record of a room that ended is kept (RECORD_TTL_SECONDS). */
export function createStore(redisUrl, { ttlSeconds } = {}) {
  return redisUrl ? new RedisStore(redisUrl, { ttlSeconds }) : new MemoryStore({ ttlSeconds });
}
