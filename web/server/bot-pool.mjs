// The bots' choices, off the server's thread. Every room runs on one thread: a 'hard' bot's
// move in Nexus takes seconds (a 'normal' one, half a second), and on that thread it would
// freeze every other room meanwhile. A pool of worker threads, each with its own engine,
// chooses instead (the room sends the game's definition and a snapshot); the rooms' choices
// wait in turn for a free worker. Workers are started when first needed, at most one fewer
// than the cores (at least one), and do not keep the process alive while idle.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';

export const BOT_WORKERS = Math.max(1, availableParallelism() - 1);
const WORKER_URL = new URL('./bot-worker.mjs', import.meta.url);

export class BotPool {
  #size;
  #idle = [];
  #live = 0;
  #queue = [];
  #all = []; // (every live worker, idle or choosing)

  constructor(size = BOT_WORKERS) {
    this.#size = size;
  }

  /**
   * The bot's move: { definition (the engine's JSON), snapshot, player, level, seed } →
   * Promise<Move | null>. `owner` (a room) is whose it is, for cancel().
   */
  choose(job, owner = null) {
    return new Promise((resolve, reject) => {
      this.#queue.push({ job, owner, resolve, reject });
      this.#next();
    });
  }

  /**
   * Drops the owner's choices (a room that ends): those waiting are rejected at once, and a
   * worker choosing for it is ended (another replaces it when needed), so that an abandoned
   * room's search holds up no other room's bots.
   */
  cancel(owner) {
    const cancelled = new Error('the room ended: its bot choice was cancelled');
    this.#queue = this.#queue.filter((task) => task.owner !== owner || void task.reject(cancelled));
    for (const worker of this.#busy) if (worker.task?.owner === owner) void worker.thread.terminate();
  }

  /** Ends every worker; a choice waiting or in progress is rejected. */
  async close() {
    const closed = new Error('the bot pool was closed');
    for (const task of this.#queue.splice(0)) task.reject(closed);
    await Promise.all([...this.#idle.splice(0), ...this.#busy].map((w) => w.thread.terminate()));
  }

  /** The workers choosing now. */
  get #busy() {
    return this.#all.filter((w) => w.task);
  }

  #next() {
    while (this.#queue.length > 0) {
      const worker = this.#idle.pop() ?? (this.#live < this.#size ? this.#spawn() : null);
      if (!worker) return;
      const task = this.#queue.shift();
      worker.task = task;
      worker.thread.ref(); // (a choice in progress keeps the process alive)
      worker.thread.postMessage(task.job);
    }
  }

  #spawn() {
    const worker = { thread: new Worker(WORKER_URL), task: null };
    this.#live += 1;
    this.#all.push(worker);
    worker.thread.on('message', ({ move, error }) => {
      const { task } = worker;
      worker.task = null;
      worker.thread.unref();
      this.#idle.push(worker);
      if (error !== undefined) task.reject(new Error(error));
      else task.resolve(move);
      this.#next();
    });
    // a worker that dies (out of memory, terminated) fails its choice; another replaces it
    const gone = (e) => {
      if (worker.gone) return;
      worker.gone = true;
      this.#live -= 1;
      this.#idle = this.#idle.filter((w) => w !== worker);
      this.#all = this.#all.filter((w) => w !== worker);
      worker.task?.reject(e instanceof Error ? e : new Error(`a bot worker exited (code ${e})`));
      this.#next();
    };
    worker.thread.on('error', gone);
    worker.thread.on('exit', gone);
    return worker;
  }
}

let shared;
/** The process's pool (one for all rooms: together they use at most BOT_WORKERS threads). */
export function botPool() {
  shared ??= new BotPool();
  return shared;
}
