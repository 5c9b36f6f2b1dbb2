// Batches of a simulate run played by a pool of workers (node worker_threads, or Web Workers
// in a browser), each with its own engine instance started from the one compiled module:
// each worker is given the next batch when it answers, so a slow batch holds up no other.
import { EngineCrashedError } from './errors.js';
import { isNode } from './wasm-load.js';

/** What the main thread posts to a simulate worker. */
export type ToWorker =
  | { type: 'init'; module: WebAssembly.Module; definition: string }
  | { type: 'batch'; id: number; options: string };

/** A worker's answer: the engine's text for batch `id`, or the error it threw. */
export interface FromWorker {
  id: number;
  text?: string;
  error?: { name: string; message: string; crashedNow?: boolean };
}

/** A worker as the pool sees it, whichever kind it is. */
interface PoolWorker {
  post(m: ToWorker): void;
  terminate(): void;
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

/** A new simulate worker; `receive` gets its answers, `fail` an error that killed it. */
async function spawn(receive: (m: FromWorker) => void, fail: (e: Error) => void): Promise<PoolWorker> {
  if (isNode) {
    const name = 'node:worker_threads'; // hidden from bundlers
    const { Worker } = (await import(/* @vite-ignore */ /* webpackIgnore: true */ name)) as typeof import('node:worker_threads');
    const w = new Worker(new URL('./simulate-worker.js', import.meta.url));
    w.on('message', receive);
    w.on('error', fail);
    w.on('exit', (code) => fail(new Error(`rulestack: a simulate worker exited (code ${code})`)));
    return { post: (m) => w.postMessage(m), terminate: () => void w.terminate() };
  }
  // the pattern bundlers (Vite, webpack) recognise: they build the worker and give its URL
  const w = new Worker(new URL('./simulate-worker.js', import.meta.url), { type: 'module' });
  w.onmessage = (ev: MessageEvent<FromWorker>) => receive(ev.data);
  w.onerror = (ev) => {
    ev.preventDefault();
    fail(new Error(`rulestack: a simulate worker failed: ${ev.message || 'it could not be loaded'}`));
  };
  return { post: (m) => w.postMessage(m), terminate: () => w.terminate() };
}

/** The error a worker reported, rebuilt with its class. */
function rebuilt(e: NonNullable<FromWorker['error']>): Error {
  if (e.name === 'EngineCrashedError') return new EngineCrashedError(e.message, e.crashedNow ?? true, undefined);
  const Kind = e.name === 'RangeError' ? RangeError : e.name === 'TypeError' ? TypeError : Error;
  return new Kind(e.message);
}

export interface PoolRun {
  module: WebAssembly.Module;
  /** The definition's JSON text. */
  definition: string;
  /** Each batch's options as JSON text, in game order. */
  options: string[];
  workers: number;
  /** Each batch's answer as it arrives (in any order); a throw ends the run with that error. */
  onAnswer(index: number, text: string): void;
}

/** Plays every batch on `workers` workers (at most one a batch); resolves when all answered. */
export async function runInWorkers(run: PoolRun): Promise<void> {
  const pool: PoolWorker[] = [];
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
    for (const w of pool) w.terminate();
    if (e === undefined) resolveRun();
    else rejectRun(e);
  };
  const give = (w: PoolWorker) => {
    if (next < run.options.length) {
      const id = next++;
      w.post({ type: 'batch', id, options: run.options[id]! });
    }
  };
  try {
    const count = Math.max(1, Math.min(run.workers, run.options.length));
    for (let i = 0; i < count; i++) {
      let self: PoolWorker | undefined;
      const w = await spawn(
        (m) => {
          if (settled) return;
          if (m.error) return finish(rebuilt(m.error));
          try {
            run.onAnswer(m.id, m.text ?? '');
          } catch (e) {
            return finish(e);
          }
          if (++answered === run.options.length) return finish();
          give(self!);
        },
        (e) => finish(e),
      );
      if (settled) {
        w.terminate(); // an early failure: the rest is not started
        break;
      }
      self = w;
      pool.push(w);
      w.post({ type: 'init', module: run.module, definition: run.definition });
      give(w);
    }
  } catch (e) {
    finish(e);
  }
  // terminate() makes node's workers exit: that is not a failure once the run is settled
  return done;
}
