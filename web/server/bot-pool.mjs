// The bots' choices, off the server's thread. Every room runs on one thread: a 'hard' bot's
// move in Nexus takes seconds (a 'normal' one, half a second), and on that thread it would
// freeze every other room meanwhile. A pool of worker threads, each with its own engine,
// chooses instead (the room sends the game's definition and a snapshot). The rooms' choices
// wait for a free worker by fair share (fair-queue.mjs): the address the room was opened from
// that has had the least of the workers' time first, then its room that has had the least, so
// that one client's many rooms of searching bots make another room's bot wait for the choices
// running, not for a queue of theirs. Workers are started when first needed, at most
// one fewer than the cores (at least one), and do not keep the process alive while idle. Each
// worker keeps the last few games it restored (bot-worker.mjs), so that a room's next choice,
// given the moves made since its last one, does not compile the definition again; a room's
// choice goes to the worker that made its last one when that worker is free.
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { FairQueue } from './fair-queue.mjs';

export const BOT_WORKERS = Math.max(1, availableParallelism() - 1);
/** The most games a worker keeps restored (bot-worker.mjs). */
export const CACHED_GAMES = 4;
/** The most definition text (UTF-16 units) among a worker's kept games, beyond the one used last: a few large definitions' compiled forms are not kept at once. */
export const CACHED_DEFINITION_CHARS = 16 * 1024 * 1024;
/** The most moves a choice's `since` carries (and a kept game is brought forward by, in all, as its log grows with them): past it, the game is restored from the snapshot. */
export const MAX_REPLAYED_MOVES = 1000;
const WORKER_URL = new URL('./bot-worker.mjs', import.meta.url);

export class BotPool {
  #size;
  #idle = [];
  #live = 0;
  #queue = new FairQueue();
  #all = []; // (every live worker, idle or choosing)
  #compilations = 0;
  #ownerIds = new WeakMap(); // owner → a number the workers know its kept games by
  #cancelled = new WeakSet(); // the owners cancelled (rooms that ended): their later choices are refused
  #nextOwnerId = 1;

  #workerUrl;

  /** `size`: the most workers (a whole number from 1); `workerUrl`: the worker's module (a test may give one that cannot start). */
  constructor(size = BOT_WORKERS, workerUrl = WORKER_URL) {
    this.#size = workerCount(size);
    this.#workerUrl = workerUrl;
  }

  /**
   * The bot's move: { definition (the engine's JSON), snapshot, player, level, seed, since? }
   * → Promise<Move | null>. `since`: { stateHash, moves }, the state the owner's last choice
   * was made in and the moves ({ player, move }) made since, which a worker that kept that
   * game plays instead of restoring it. `owner` (a room) is whose it is, for cancel(): an
   * owner cancelled before has its choice rejected at once (a game kept for it would never be
   * dropped). `group` (the address the room was opened from): whose turn it is (FairQueue);
   * by default the owner's own.
   */
  choose(job, owner = null, group = owner) {
    if (this.#cancelled.has(owner)) return Promise.reject(cancelledError());
    return new Promise((resolve, reject) => {
      this.#queue.push({ job, owner, group, resolve, reject });
      this.#next();
    });
  }

  /**
   * Drops the owner's choices (a room that ends): those waiting are rejected at once, and a
   * worker choosing for it is ended (another replaces it when needed), so that an abandoned
   * room's search holds up no other room's bots. Its later choices are rejected at once.
   */
  cancel(owner) {
    if (Object(owner) === owner) this.#cancelled.add(owner); // (an object: not the choices of no owner)
    const cancelled = cancelledError();
    for (const task of this.#queue.remove((t) => t.owner === owner)) task.reject(cancelled);
    for (const worker of this.#busy) if (worker.task.owner === owner) void this.#end(worker);
    for (const worker of this.#all) if (worker.owner === owner) worker.owner = null; // (the room is not kept alive by it)
    // the games the workers kept for it go too (a worker's memory never shrinks back)
    const id = this.#ownerIds.get(owner);
    if (id !== undefined) for (const worker of this.#all) worker.thread.postMessage({ drop: id });
  }

  #ownerId(owner) {
    let id = this.#ownerIds.get(owner);
    if (id === undefined) this.#ownerIds.set(owner, (id = this.#nextOwnerId++));
    return id;
  }

  /** How many games the workers restored from a snapshot (each compiling its definition): a choice that a worker's kept game served is not one. */
  get compilations() {
    return this.#compilations;
  }

  /** Ends every worker; a choice waiting or in progress is rejected. */
  async close() {
    const closed = new Error('the bot pool was closed');
    for (const task of this.#queue.clear()) task.reject(closed);
    await Promise.all([...this.#idle.splice(0), ...this.#busy].map((w) => this.#end(w)));
  }

  /**
   * Ends a worker. An answer it sent meanwhile is not taken (its 'exit' rejects its choice), so
   * that it is not made idle, and given another's choice, just before it exits.
   */
  #end(worker) {
    worker.ending = true;
    return worker.thread.terminate();
  }

  /** The workers choosing now. */
  get #busy() {
    return this.#all.filter((w) => w.task);
  }

  #next() {
    while (this.#queue.size > 0) {
      // (the owner's last worker keeps its game: that one, when it is free)
      const owner = this.#queue.peek().owner;
      const mine = owner === null ? -1 : this.#idle.findIndex((w) => w.owner === owner);
      const worker = (mine >= 0 ? this.#idle.splice(mine, 1)[0] : this.#idle.pop()) ?? (this.#live < this.#size ? startOrFail(() => this.#spawn(), this.#live, () => this.#queue.clear()) : null);
      if (!worker) return;
      const task = this.#queue.shift();
      worker.task = task;
      worker.owner = task.owner;
      worker.thread.ref(); // (a choice in progress keeps the process alive)
      try {
        worker.thread.postMessage(task.owner === null ? task.job : { ...task.job, owner: this.#ownerId(task.owner) });
      } catch (e) {
        this.#free(worker).reject(e); // (a job that cannot be sent, such as one holding a function: no answer would come)
      }
    }
  }

  /** A worker done choosing is idle again: its choice (returned) is to be settled. */
  #free(worker) {
    const { task } = worker;
    this.#queue.done(task);
    worker.task = null;
    worker.thread.unref();
    this.#idle.push(worker);
    return task;
  }

  #spawn() {
    const worker = { thread: new Worker(this.#workerUrl), task: null, ending: false };
    this.#live += 1;
    this.#all.push(worker);
    worker.thread.on('message', ({ move, error, compiled }) => {
      if (worker.ending) return;
      const task = this.#free(worker);
      if (compiled) this.#compilations += 1;
      if (error !== undefined) task.reject(new Error(error));
      else task.resolve(move);
      this.#next();
    });
    // a worker that dies (out of memory, terminated) fails its choice; another replaces it
    whenGone(worker.thread, 'a bot worker', (e) => {
      this.#live -= 1;
      this.#idle = this.#idle.filter((w) => w !== worker);
      this.#all = this.#all.filter((w) => w !== worker);
      if (worker.task) this.#queue.done(worker.task);
      worker.task?.reject(e);
      this.#next();
    });
    return worker;
  }
}

function cancelledError() {
  return new Error('the room ended: its bot choice was cancelled');
}

/** A pool's size checked: a whole number from 1 (none would never settle a choice), else a RangeError. */
export function workerCount(size) {
  if (!Number.isSafeInteger(size) || size < 1) throw new RangeError(`rulestack server: a pool's size must be a whole number from 1, not ${String(size)}`);
  return size;
}

/**
 * A new worker from `spawn`, or null when none can start now (the Worker constructor throws:
 * no thread or memory for it). Then, with none of the pool's `live` workers left to take them,
 * the tasks waiting (`takeWaiting()` takes them all out) are rejected with why; else they wait for those.
 */
export function startOrFail(spawn, live, takeWaiting) {
  try {
    return spawn();
  } catch (e) {
    if (live === 0) for (const task of takeWaiting()) task.reject(e);
    return null;
  }
}

/** Calls `gone` once, with an Error, when the worker thread fails or exits (whichever comes first). */
export function whenGone(thread, what, gone) {
  let done = false;
  const once = (e) => {
    if (done) return;
    done = true;
    gone(e instanceof Error ? e : new Error(`${what} exited (code ${e})`));
  };
  thread.on('error', once);
  thread.on('exit', once);
}

let shared;
/** The process's pool (one for all rooms: together they use at most BOT_WORKERS threads). */
export function botPool() {
  shared ??= new BotPool();
  return shared;
}
