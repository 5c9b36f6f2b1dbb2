// Loading engine.wasm: read (node) or fetched (browser, worker), compiled once, and
// instantiated from the compiled module (the first time asynchronously; after a crash
// synchronously). The main thread and the simulate workers load it the same way.
import createEngineModule from './wasm/engine.mjs';
import type { EngineModule, EngineModuleOptions } from './wasm/engine.mjs';

/** Where engine.wasm comes from (the wasm part of LoadOptions). */
export interface WasmSource {
  /** Where to fetch engine.wasm from (browser/worker), or a file path/URL to read (node). */
  wasmUrl?: string | URL;
  /** The bytes of engine.wasm (skips fetching/reading). */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

export const isNode =
  typeof process !== 'undefined' &&
  typeof process.versions === 'object' &&
  process.versions !== null &&
  typeof process.versions.node === 'string';

/** The error of an engine.wasm that cannot be had: it names where, why, and the options. */
function wasmError(where: string, why: string, cause?: unknown): Error {
  return new Error(
    `rulestack: cannot load engine.wasm from ${where}: ${why}. Serve engine.wasm there, or say where it is: ` +
      `loadEngine({ wasmUrl: '<URL or path of engine.wasm>' }) (with a bundler: the URL it gives for ` +
      `'rulestack/engine.wasm', e.g. Vite's import wasmUrl from 'rulestack/engine.wasm?url'), ` +
      `or pass its bytes as { wasmBinary }`,
    cause === undefined ? undefined : { cause },
  );
}

/** WebAssembly that instantiates but that the glue cannot start: another module, or another build. */
function notTheEngine(cause: unknown): Error {
  return new Error(
    'rulestack: engine.wasm could not start: it is WebAssembly, but not the engine of this version of the ' +
      `package (${cause instanceof Error ? cause.message : String(cause)}). Serve the engine.wasm the package ` +
      'ships (dist/wasm/engine.wasm) with this version',
    { cause },
  );
}

/** engine.wasm's first bytes: "\0asm". */
function checkWasm(bytes: Uint8Array, where: string, what = ''): Uint8Array {
  if (bytes.length < 4 || bytes[0] !== 0 || bytes[1] !== 0x61 || bytes[2] !== 0x73 || bytes[3] !== 0x6d) {
    throw wasmError(where, `this is not WebAssembly${what}`);
  }
  return bytes;
}

/** Fetches engine.wasm (browser, worker; and http(s) URLs in node). */
async function fetchWasm(url: string): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw wasmError(url, `the fetch failed (${e instanceof Error ? e.message : String(e)})`, e);
  }
  if (!res.ok) throw wasmError(url, `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
  const type = res.headers.get('content-type');
  return checkWasm(new Uint8Array(await res.arrayBuffer()), url, type ? ` (content-type ${type})` : '');
}

/** The module options with emscripten's hook to instantiate the wasm ourselves. */
interface InstantiatingOptions extends EngineModuleOptions {
  instantiateWasm(
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance, module?: WebAssembly.Module) => void,
  ): WebAssembly.Exports | Record<string, never>;
}

/**
 * A fresh instance of the compiled engine, synchronously: emscripten's glue runs to the end
 * at once when the wasm instance is handed to it at once. This is how a crashed engine is
 * restarted within a synchronous call (allowed everywhere for a module this size: browsers
 * refuse synchronous instantiation on the main thread only above 8 MB).
 */
export function instantiateNow(compiled: WebAssembly.Module): EngineModule {
  let failure: unknown;
  const opts: InstantiatingOptions = {
    instantiateWasm(imports, receive) {
      let instance: WebAssembly.Instance;
      try {
        instance = new WebAssembly.Instance(compiled, imports);
      } catch (e) {
        failure = e; // reported below (the glue would only log it)
        return {};
      }
      try {
        receive(instance, compiled);
      } catch (e) {
        failure = notTheEngine(e);
        return {};
      }
      return instance.exports;
    },
  };
  createEngineModule(opts).catch(() => {}); // its promise: nobody waits on it
  const m = opts as unknown as EngineModule;
  if (failure !== undefined) throw failure;
  if (typeof m.Session !== 'function') throw new Error('engine.wasm did not start synchronously');
  return m;
}

/** A fresh instance of the compiled engine, asynchronously (the first load). */
export function instantiateLater(compiled: WebAssembly.Module): Promise<EngineModule> {
  return new Promise<EngineModule>((resolve, reject) => {
    const opts: InstantiatingOptions = {
      instantiateWasm(imports, receive) {
        // (the glue throws reading a module that is not its engine: a rejection, not an uncaught error)
        WebAssembly.instantiate(compiled, imports).then((instance) => {
          try {
            receive(instance, compiled);
          } catch (e) {
            reject(notTheEngine(e));
          }
        }, reject);
        return {};
      },
    };
    createEngineModule(opts).then(resolve, reject);
  });
}

/** engine.wasm compiled (read, fetched or given, as `opts` says). */
export async function compileEngine(opts: WasmSource): Promise<WebAssembly.Module> {
  const moduleOpts: EngineModuleOptions = {};
  if (opts.wasmBinary) {
    moduleOpts.wasmBinary = opts.wasmBinary;
  } else {
    const given = opts.wasmUrl !== undefined ? String(opts.wasmUrl) : undefined;
    if (isNode && (given === undefined || !/^https?:/i.test(given))) {
      // emscripten 3.1.6's web build would fetch() a file: URL under node, which fails: read the bytes.
      const fsName = 'node:fs/promises'; // hidden from bundlers
      const { readFile } = (await import(/* @vite-ignore */ /* webpackIgnore: true */ fsName)) as typeof import('node:fs/promises');
      let where: string | URL = given ?? new URL('./wasm/engine.wasm', import.meta.url);
      if (typeof where === 'string' && where.startsWith('file:')) where = new URL(where);
      const shown = where instanceof URL ? decodeURIComponent(where.pathname) : where;
      let bytes: Uint8Array;
      try {
        bytes = await readFile(where);
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        throw wasmError(shown, code === 'ENOENT' ? 'no such file' : e instanceof Error ? e.message : String(e), e);
      }
      moduleOpts.wasmBinary = checkWasm(bytes, shown);
    } else {
      // the same URL as the glue's own (next to the package), so bundlers emit one file
      const url = given ?? new URL('./wasm/engine.wasm', import.meta.url).href;
      moduleOpts.wasmBinary = await fetchWasm(url);
    }
  }
  try {
    return await WebAssembly.compile(moduleOpts.wasmBinary as BufferSource);
  } catch (e) {
    throw wasmError(opts.wasmBinary ? 'the given wasmBinary' : String(opts.wasmUrl ?? 'engine.wasm'), `it does not compile (${e instanceof Error ? e.message : String(e)})`, e);
  }
}
