// Reading a YAML definition off the server's thread. Every room runs on that one thread, and
// YAML is slow to read (about a second a MB for plain text; the yaml package takes up to a few
// µs a character on text written to be slow: 8 MB of it, 24 s), so a room created with YAML
// text has it read, checked and turned into the engine's JSON by a worker of its own engine
// (definition-reader-worker.mjs), within READ_SECONDS; the room then starts its game from the
// JSON. A worker that takes longer is ended and the definition refused. JSON text and objects
// are read where they are (JSON.parse and the engine read 8 MB in well under a second).
import { Worker } from 'node:worker_threads';
import { DefinitionError } from 'rulestack';
import { BOT_WORKERS, startOrFail, whenGone, workerCount } from './bot-pool.mjs';

/** How long a worker may take to read one definition before it is ended and the definition refused. */
export const READ_SECONDS = 5;
/** How many readings may wait for a worker (each holds its text: up to 8 MB); one more is refused at once with READER_BUSY. */
export const MAX_WAITING = 8;
export const READER_BUSY = 'the server is reading too many definitions at once: try again in a few seconds';
const WORKER_URL = new URL('./definition-reader-worker.mjs', import.meta.url);

/** Whether the package reads the text as JSON (else as YAML: see parseDefinition). */
export function isJsonText(text) {
  if (!/^\s*[{[]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false; // (a YAML flow mapping, or broken JSON: the reader's error says which)
  }
}

export class DefinitionReader {
  /** The time limit of one reading, in seconds (READ_SECONDS unless set). */
  seconds;
  #size;
  #idle = [];
  #live = 0;
  #queue = [];
  #all = []; // (every live worker, idle or reading)

  #waiting;

  #workerUrl;

  /** `size` workers at most (from 1), `seconds` a reading, `waiting` readings waiting (from 0); `workerUrl` the worker's module (for tests). */
  constructor({ size = BOT_WORKERS, seconds = READ_SECONDS, waiting = MAX_WAITING, workerUrl = WORKER_URL } = {}) {
    this.#size = workerCount(size);
    this.seconds = seconds;
    if (!Number.isSafeInteger(waiting) || waiting < 0) throw new RangeError(`rulestack server: the readings waiting must be a whole number from 0, not ${String(waiting)}`);
    this.#waiting = waiting;
    this.#workerUrl = workerUrl;
  }

  /**
   * The engine's JSON of a definition's text (as `createGame` reads it); rejects with the
   * DefinitionError createGame would throw (its errors located in the text), or one saying
   * the text took longer than `seconds` to read. Readings wait in turn for a free worker; with
   * `waiting` of them waiting already, it rejects at once with READER_BUSY (an Error: the
   * text is not at fault) — unless `example` (the server's own example, read once: it waits).
   */
  read(text, { example = false } = {}) {
    return new Promise((resolve, reject) => {
      // (behind others, or with every worker busy: a worker that could not start leaves the queue to those running)
      const wouldWait = this.#idle.length === 0 && (this.#live >= this.#size || this.#queue.length > 0);
      if (!example && wouldWait && this.#queue.filter((job) => !job.example).length >= this.#waiting) return reject(new Error(READER_BUSY));
      this.#queue.push({ text, example, resolve, reject });
      this.#next();
    });
  }

  /** Ends every worker; a reading waiting or in progress is rejected. */
  async close() {
    const closed = new Error('the definition reader was closed');
    for (const job of this.#queue.splice(0)) job.reject(closed);
    const all = [...this.#all];
    for (const worker of all) this.#end(worker, closed);
    await Promise.all(all.map((w) => w.thread.terminate()));
  }

  #next() {
    while (this.#queue.length > 0) {
      const worker = this.#idle.pop() ?? (this.#live < this.#size ? startOrFail(() => this.#spawn(), this.#live, () => this.#queue.splice(0)) : null);
      if (!worker) return;
      const job = this.#queue.shift();
      worker.job = job;
      worker.thread.ref(); // (a reading in progress keeps the process alive)
      worker.thread.postMessage(job.text);
    }
  }

  /** Ends a worker, its reading (if any) rejected with `error`; an answer it had already sent is ignored. */
  #end(worker, error) {
    worker.ending = true;
    clearTimeout(worker.timer);
    this.#idle = this.#idle.filter((w) => w !== worker);
    const { job } = worker;
    worker.job = null;
    job?.reject(error);
    void worker.thread.terminate(); // ('exit' frees its place)
  }

  #spawn() {
    const worker = { thread: new Worker(this.#workerUrl), job: null, timer: null, ending: false };
    this.#live += 1;
    this.#all.push(worker);
    worker.thread.on('message', ({ started, json, errors, failure }) => {
      if (worker.ending) return;
      const { job } = worker;
      if (started) {
        // the time limit runs from here: a worker's own start (its engine loaded) is not the text's
        const seconds = this.seconds;
        worker.timer = setTimeout(
          () => this.#end(worker, new DefinitionError([{ path: '', message: `the definition took more than ${seconds} s to read` }])),
          seconds * 1000,
        );
        return;
      }
      clearTimeout(worker.timer);
      worker.job = null;
      worker.thread.unref();
      this.#idle.push(worker);
      if (job) {
        if (json !== undefined) job.resolve(json);
        else if (errors !== undefined) job.reject(new DefinitionError(errors));
        else job.reject(new Error(failure));
      }
      this.#next();
    });
    // a worker that dies (out of memory, ended at its time limit) fails its reading; another replaces it
    whenGone(worker.thread, 'a definition reader', (e) => {
      clearTimeout(worker.timer);
      this.#live -= 1;
      this.#idle = this.#idle.filter((w) => w !== worker);
      this.#all = this.#all.filter((w) => w !== worker);
      worker.job?.reject(e);
      worker.job = null;
      this.#next();
    });
    return worker;
  }
}

let shared;
/** The process's reader (one for all rooms). */
export function definitionReader() {
  shared ??= new DefinitionReader();
  return shared;
}
