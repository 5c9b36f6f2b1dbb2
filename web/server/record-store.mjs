// Where each room appends its game record (header: definition, its hash, seed, options;
// then one entry per applied move), so that a room lost with its process can be resumed
// elsewhere by replaying the moves. Redis when a URL is given, else this process's memory.
import Redis from 'ioredis';

/** The record of a game in this process's memory (lost with it: for one process). */
export class MemoryStore {
  #records = new Map();
  async create(id, header) {
    this.#records.set(id, { header, moves: [] });
  }
  async append(id, entry) {
    const r = this.#records.get(id);
    if (!r) throw new Error(`rulestack record store: no record '${id}'`);
    r.moves.push(entry);
  }
  /** { header, moves } or null. */
  async load(id) {
    const r = this.#records.get(id);
    return r ? { header: r.header, moves: [...r.moves] } : null;
  }
  async close() {}
}

/** The records in Redis: `rulestack:record:<id>` (the header, JSON) and `…:moves` (a list). */
export class RedisStore {
  constructor(url) {
    this.redis = new Redis(url, { lazyConnect: false, maxRetriesPerRequest: 3 });
  }
  #key(id) {
    return `rulestack:record:${id}`;
  }
  async create(id, header) {
    await this.redis.multi().del(`${this.#key(id)}:moves`).set(this.#key(id), JSON.stringify(header)).exec();
  }
  async append(id, entry) {
    await this.redis.rpush(`${this.#key(id)}:moves`, JSON.stringify(entry));
  }
  async load(id) {
    const [[e1, header], [e2, moves]] = await this.redis.multi().get(this.#key(id)).lrange(`${this.#key(id)}:moves`, 0, -1).exec();
    if (e1 || e2) throw e1 || e2;
    if (header === null) return null;
    return { header: JSON.parse(header), moves: moves.map((m) => JSON.parse(m)) };
  }
  async close() {
    await this.redis.quit();
  }
}

export function createStore(redisUrl) {
  return redisUrl ? new RedisStore(redisUrl) : new MemoryStore();
}
