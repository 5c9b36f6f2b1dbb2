// Reading a YAML definition off the server's thread. Every room runs on that one thread, and
// YAML is slow to read (about a second a MB for plain text; the yaml package takes up to a few
// µs a character on text written to be slow: 8 MB of it, 24 s), so a room created with YAML
// text has it read, checked and turned into the engine's JSON by a worker of its own engine
// (definition-reader-worker.mjs), within READ_SECONDS; the room then starts its game from the
// JSON. A worker that takes longer is ended and the definition refused. JSON text and objects
// are read where they are (JSON.parse and the engine read 8 MB in well under a second).
import { Worker } from 'node:worker_threads';
import { DefinitionError } from 'rulestack';
import { BOT_WORKERS, whenGone } from './bot-pool.mjs';

/** How long a worker may take to read one definition before it is ended and the definition refused. */
export const READ_SECONDS = 5;
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

  constructor({ size = BOT_WORKERS, seconds = READ_SECONDS } = {}) {
    this.#size = size;
    this.seconds = seconds;
  }

  /**
   * The engine's JSON of a definition's text (as `createGame` reads it); rejects with the
   * DefinitionError createGame would throw (its errors located in the text), or one saying
   * the text took longer than `seconds` to read. Readings wait in turn for a free worker.
   */
  read(text) {
    return new Promise((resolve, reject) => {
      this.#queue.push({ text, resolve, reject });
      this.#next();
    });
  }

  /** Ends every worker; a reading waiting or in progress is rejected. */
  async close() {
    const closed = new Error('the definition reader was closed');
    for (const job of this.#queue.splice(0)) job.reject(closed);
    await Promise.all([...this.#idle.splice(0)].map((w) => w.thread.terminate()));
  }

  #next() {
    while (this.#queue.length > 0) {
      const worker = this.#idle.pop() ?? (this.#live < this.#size ? this.#spawn() : null);
      if (!worker) return;
      const job = this.#queue.shift();
      worker.job = job;
      worker.thread.ref(); // (a reading in progress keeps the process alive)
      worker.timer = setTimeout(() => {
        worker.job = null;
        job.reject(new DefinitionError([{ path: '', message: `the definition took more than ${this.seconds} s to read` }]));
        void worker.thread.terminate(); // ('exit' frees its place)
      }, this.seconds * 1000);
      worker.thread.postMessage(job.text);
    }
  }

  #spawn() {
    const worker = { thread: new Worker(WORKER_URL), job: null, timer: null };
    this.#live += 1;
    worker.thread.on('message', ({ json, errors, failure }) => {
      const { job } = worker;
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
      worker.job?.reject(e);
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
