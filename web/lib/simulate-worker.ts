// A simulate worker (node worker_threads or a Web Worker): its own instance of the engine,
// from the compiled module the main thread posts once, plays the batches it is sent (of the
// definition last posted: the pool keeps a worker from one run to the next) and answers
// with the engine's JSON text. It imports no YAML reader and has no top-level await, so that
// a bundler can build it in any worker format.
import { isNode, instantiateLater } from './wasm-load.js';
import { EngineInstance } from './game.js';
import type { ToWorker, FromWorker } from './simulate-pool.js';

let engine: Promise<EngineInstance> | undefined;
let definition = '';

/** An error as data (what crosses to the main thread). */
function errorData(e: unknown): NonNullable<FromWorker['error']> {
  if (e instanceof Error) {
    const crashedNow = (e as { crashedNow?: unknown }).crashedNow;
    return { name: e.name, message: e.message, ...(typeof crashedNow === 'boolean' ? { crashedNow } : {}) };
  }
  return { name: 'Error', message: String(e) };
}

async function handle(msg: ToWorker, post: (m: FromWorker) => void): Promise<void> {
  if (msg.type === 'init') {
    engine = instantiateLater(msg.module).then((m) => new EngineInstance(m));
    return;
  }
  if (msg.type === 'definition') {
    definition = msg.definition;
    return;
  }
  try {
    if (!engine) throw new Error('rulestack: simulate worker used before init');
    const instance = await engine;
    const text = instance.run('simulate', () => instance.module.simulate(definition, msg.options));
    post({ id: msg.id, text });
  } catch (e) {
    post({ id: msg.id, error: errorData(e) });
  }
}

if (isNode) {
  const name = 'node:worker_threads'; // hidden from bundlers
  void (import(/* @vite-ignore */ /* webpackIgnore: true */ name) as Promise<typeof import('node:worker_threads')>).then(({ parentPort }) => {
    const port = parentPort!;
    port.on('message', (msg: ToWorker) => void handle(msg, (m) => port.postMessage(m)));
  });
} else {
  const scope = globalThis as unknown as { onmessage: ((ev: MessageEvent<ToWorker>) => void) | null; postMessage(m: FromWorker): void };
  scope.onmessage = (ev) => void handle(ev.data, (m) => scope.postMessage(m));
}
