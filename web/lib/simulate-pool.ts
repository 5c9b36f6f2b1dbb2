// Batches of a simulate run played by a pool of workers (node worker_threads, or Web Workers
// in a browser), each with its own engine instance started from the one compiled module:
// each worker holds two batches (the second waits in the worker: no idle round trip between
// them) and is given the next when it answers one, so batches go to whoever is free.
import { EngineCrashedError } from './errors.js';
import { isNode } from './wasm-load.js';

/** What the main thread posts to a simulate worker (`init` once, `definition` at each run). */
export type ToWorker =
  | { type: 'init'; module: WebAssembly.Module }
  | { type: 'definition'; definition: string }
  | { type: 'batch'; id: number; options: string };

/** A worker's answer: the engine's text for batch `id`, or the error it threw. */
export interface FromWorker {
  id: number;
  text?: string;
  error?: { name: string; message: string; crashedNow?: boolean };
}

/** A worker as the pool sees it, whichever kind it is: its answers go to the run using it. */
interface PoolWorker {
  post(m: ToWorker): void;
  terminate(): void;
  /** node: whether the worker keeps the process alive (in a run, not while idle) */
  hold(on: boolean): void;
  receive: (m: FromWorker) => void;
  fail: (e: Error) => void;
  /** it exited or failed (an idle one is then not given to a run) */
  dead: boolean;
}

/** How many cores the platform says it has (at least 1). */
export async function coreCount(): Promise<number> {
  if (isNode) {
    const name = 'node:os'; // hidden from bundlers
    const os = (await import(/* @vite-ignore */ /* webpackIgnore: true */ name)) as typeof import('node:os');
    return Math.max(1, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
  }
  const n = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  return typeof n === 'number' && n >= 1 ? Math.floor(n) : 1;
}

const idle = () => {};

/** A new simulate worker, its engine started from `module`. */
async function spawn(module: WebAssembly.Module): Promise<PoolWorker> {
  let w: PoolWorker;
  if (isNode) {
    const name = 'node:worker_threads'; // hidden from bundlers
    const { Worker } = (await import(/* @vite-ignore */ /* webpackIgnore: true */ name)) as typeof import('node:worker_threads');
    const t = new Worker(new URL('./simulate-worker.js', import.meta.url));
    w = {
      post: (m) => t.postMessage(m),
      terminate: () => void t.terminate(),
      hold: (on) => (on ? t.ref() : t.unref()),
      receive: idle,
      fail: idle,
      dead: false,
    };
    t.on('message', (m: FromWorker) => w.receive(m));
    t.on('error', (e) => ((w.dead = true), w.fail(e)));
    t.on('exit', (code) => ((w.dead = true), w.fail(new Error(`rulestack: a simulate worker exited (code ${code})`))));
  } else {
    // the pattern bundlers (Vite, webpack) recognise: they build the worker and give its URL
    const t = new Worker(new URL('./simulate-worker.js', import.meta.url), { type: 'module' });
    w = { post: (m) => t.postMessage(m), terminate: () => t.terminate(), hold: idle, receive: idle, fail: idle, dead: false };
    t.onmessage = (ev: MessageEvent<FromWorker>) => w.receive(ev.data);
    t.onerror = (ev) => {
      ev.preventDefault();
      w.dead = true;
      w.fail(new Error(`rulestack: a simulate worker failed: ${ev.message || 'it could not be loaded'}`));
    };
  }
  w.post({ type: 'init', module });
  return w;
}

/**
 * The workers of one compiled module, kept from one run to the next so that a run does not
 * pay for starting them again: a run takes the idle ones (and starts more if it needs them)
 * and gives them back when it ends well; a failed run's workers are ended. Idle workers end
 * after `idleMs`, and in node they do not keep the process alive. Runs at the same time share
 * the workers: together they have at most as many as the largest `workers` among them asks
 * (the cores, by default), so two runs never use twice the cores; a run that finds them all
 * busy waits for one (it plays on with those it has).
 */
export class WorkerPool {
  readonly #module: WebAssembly.Module;
  readonly #idleMs: number;
  #idle: PoolWorker[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** workers started and not ended, idle or in a run */
  #live = 0;
  /** each run in progress: how many workers it asks for */
  #asks: number[] = [];
  /** takes waiting for a worker: given one, or null to look again (one ended, or the bound rose) */
  #waiting: Array<(w: PoolWorker | null) => void> = [];
  /** How many workers this pool has started (for tests and benchmarks). */
  started = 0;

  constructor(module: WebAssembly.Module, opts: { idleMs?: number } = {}) {
    this.#module = module;
    this.#idleMs = opts.idleMs ?? 30_000;
  }

  /** Idle workers now. */
  get idle(): number {
    return this.#idle.length;
  }

  /** Workers started and not ended now (idle or in a run). */
  get live(): number {
    return this.#live;
  }

  /** A run starts, asking for `workers`; the function returned says it ended. */
  enter(workers: number): () => void {
    this.#asks.push(workers);
    this.#wakeAll(); // (the bound may have risen)
    let left = false;
    return () => {
      if (left) return;
      left = true;
      this.#asks.splice(this.#asks.indexOf(workers), 1);
    };
  }

  /**
   * A worker for a run: an idle one, a new one while the bound allows, else the next one
   * given back. Undefined once `gone()` says the run ended meanwhile (it needs none now).
   */
  async take(gone: () => boolean = () => false): Promise<PoolWorker | undefined> {
    for (;;) {
      if (gone()) return undefined;
      let w = this.#idle.pop();
      while (w?.dead) {
        this.#live--;
        w = this.#idle.pop();
      }
      if (!w && this.#live < Math.max(1, ...this.#asks)) {
        this.#live++;
        try {
          w = await spawn(this.#module);
        } catch (e) {
          this.#live--;
          this.#wakeOne();
          throw e;
        }
        this.started++;
      }
      if (!w) w = (await new Promise<PoolWorker | null>((res) => this.#waiting.push(res))) ?? undefined;
      if (w) {
        w.hold(true);
        return w;
      }
    }
  }

  give(w: PoolWorker): void {
    if (w.dead) return this.discard(w); // (it exited since: not one to give a run)
    detach(w);
    const waiting = this.#waiting.shift();
    if (waiting) return waiting(w); // straight to a run that waits for one
    w.hold(false);
    this.#idle.push(w);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.close(), this.#idleMs);
    (this.#timer as { unref?: () => void }).unref?.();
  }

  /** Ends a worker of a run (mid-batch or broken): a run that waits may start another. */
  discard(w: PoolWorker): void {
    end(w);
    this.#live--;
    this.#wakeOne();
  }

  /** Ends the idle workers (a run in progress keeps its own). */
  close(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    for (const w of this.#idle.splice(0)) {
      end(w);
      this.#live--;
    }
  }

  #wakeOne(): void {
    this.#waiting.shift()?.(null);
  }

  #wakeAll(): void {
    for (const r of this.#waiting.splice(0)) r(null);
  }
}

/** No run hears from it any more (an ended worker's exit is not a failure). */
function detach(w: PoolWorker): void {
  w.receive = idle;
  w.fail = idle;
}

function end(w: PoolWorker): void {
  detach(w);
  w.terminate();
}

/** The error a worker reported, rebuilt with its class. */
function rebuilt(e: NonNullable<FromWorker['error']>): Error {
  if (e.name === 'EngineCrashedError') return new EngineCrashedError(e.message, e.crashedNow ?? true, undefined);
  const Kind = e.name === 'RangeError' ? RangeError : e.name === 'TypeError' ? TypeError : Error;
  return new Kind(e.message);
}

export interface PoolRun {
  pool: WorkerPool;
  /** The definition's JSON text. */
  definition: string;
  /** Each batch's options as JSON text, in game order. */
  options: string[];
  workers: number;
  /** Each batch's answer as it arrives (in any order); a throw ends the run with that error. */
  onAnswer(index: number, text: string): void;
}

/**
 * Plays every batch on `workers` workers (at most one a batch, and fewer while other runs
 * hold the pool's); resolves when all answered. The promise is returned at once, before the
 * workers are taken: a run that fails (an answer refused by `onAnswer`, a worker's error)
 * while it still waits for a worker held by another run rejects it, never throws elsewhere.
 */
export function runInWorkers(run: PoolRun): Promise<void> {
  const count = Math.max(1, Math.min(run.workers, run.options.length));
  const leave = run.pool.enter(count);
  const used: PoolWorker[] = [];
  let next = 0;
  let answered = 0;
  let settled = false;
  let resolveRun!: () => void;
  let rejectRun!: (e: unknown) => void;
  const done = new Promise<void>((res, rej) => {
    resolveRun = res;
    rejectRun = rej;
  });
  const finish = (e?: unknown) => {
    if (settled) return;
    settled = true;
    leave();
    // workers that may be mid-batch or broken are ended; after a run that went well, kept
    for (const w of used) (e === undefined ? run.pool.give(w) : run.pool.discard(w));
    if (e === undefined) resolveRun();
    else rejectRun(e);
  };
  const nextBatch = (w: PoolWorker) => {
    if (next < run.options.length) {
      const id = next++;
      w.post({ type: 'batch', id, options: run.options[id]! });
    }
  };
  // every answer, however late, is this run's: what it throws ends the run with that error
  const receive = (w: PoolWorker) => (m: FromWorker) => {
    if (settled) return;
    try {
      if (m.error) return finish(rebuilt(m.error));
      run.onAnswer(m.id, m.text ?? '');
      if (++answered === run.options.length) return finish();
      nextBatch(w);
    } catch (e) {
      finish(e);
    }
  };
  const start = async () => {
    for (let i = 0; i < count && !settled; i++) {
      const w = await run.pool.take(() => settled);
      if (!w) break;
      if (settled) {
        run.pool.give(w); // an early failure: the rest is not started
        break;
      }
      used.push(w);
      w.receive = receive(w);
      w.fail = (e) => finish(e);
      w.post({ type: 'definition', definition: run.definition });
      nextBatch(w);
      nextBatch(w); // a second one waiting in the worker: no idle round trip between two batches
    }
  };
  start().catch(finish);
  return done;
}
