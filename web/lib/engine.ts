// loadEngine(): instantiates the wasm module once (node, browser, worker) and returns
// the Rulestack API object.
import createEngineModule from './wasm/engine.mjs';
import type { EngineModule, EngineModuleOptions } from './wasm/engine.mjs';
import { DefinitionError, EngineCrashedError, SnapshotError, type DefinitionIssue } from './errors.js';
import { parseDefinition, locateIssues, loadYaml, type DefinitionFormat, type ParsedDefinition } from './definition.js';
import { Game, Bot, EngineInstance, crashText, DEFAULT_LOG_LIMIT, MAX_LOG_LIMIT } from './game.js';
import type { Session } from './wasm/engine.mjs';
import type {
  BotOptions,
  GameDefinition,
  ScenarioResult,
  SimulateOptions,
  SimulateResult,
  Snapshot,
  Seed,
} from './types.js';

export interface LoadOptions {
  /** Where to fetch engine.wasm from (browser/worker), or a file path/URL to read (node). */
  wasmUrl?: string | URL;
  /** The bytes of engine.wasm (skips fetching/reading). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Load the YAML reader too (default true), so that YAML text can be passed. With `false`
   * it is not loaded (a bundler keeps it in a chunk of its own that is never fetched):
   * definitions must then be objects or JSON text, until `loadYaml()` is awaited.
   */
  yaml?: boolean;
}

/** A definition: an object (typed, or any parsed JSON), JSON text or YAML text. */
export type DefinitionInput = GameDefinition | Record<string, unknown> | string;

export interface CreateGameOptions {
  /** Without a seed, a fresh random one is drawn (see `game.seed`, to replay the game). */
  seed?: Seed;
  /** How to read string input (default 'auto': JSON when it starts with '{', else YAML). */
  format?: DefinitionFormat;
  /**
   * How many events the game's log keeps, the last ones (default 100,000; from 1 to
   * 10,000,000): older ones are dropped so that a long game's memory stays bounded
   * (`game.log().dropped` says how many).
   */
  logLimit?: number;
}

export interface ValidateOptions {
  format?: DefinitionFormat;
}

const isNode =
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
function instantiateNow(compiled: WebAssembly.Module): EngineModule {
  let failure: unknown;
  const opts: InstantiatingOptions = {
    instantiateWasm(imports, receive) {
      try {
        const instance = new WebAssembly.Instance(compiled, imports);
        receive(instance, compiled);
        return instance.exports;
      } catch (e) {
        failure = e; // reported below (the glue would only log it)
        return {};
      }
    },
  };
  createEngineModule(opts).catch(() => {}); // its promise: nobody waits on it
  const m = opts as unknown as EngineModule;
  if (failure !== undefined) throw failure;
  if (typeof m.Session !== 'function') throw new Error('engine.wasm did not start synchronously');
  return m;
}

/** A fresh instance of the compiled engine, asynchronously (the first load). */
function instantiateLater(compiled: WebAssembly.Module): Promise<EngineModule> {
  return new Promise<EngineModule>((resolve, reject) => {
    const opts: InstantiatingOptions = {
      instantiateWasm(imports, receive) {
        WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled), reject);
        return {};
      },
    };
    createEngineModule(opts).then(resolve, reject);
  });
}

async function instantiate(opts: LoadOptions): Promise<Rulestack> {
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
  // Compiled once: a crashed engine is restarted from it (see Rulestack).
  let compiled: WebAssembly.Module;
  try {
    compiled = await WebAssembly.compile(moduleOpts.wasmBinary as BufferSource);
  } catch (e) {
    throw wasmError(opts.wasmBinary ? 'the given wasmBinary' : String(opts.wasmUrl ?? 'engine.wasm'), `it does not compile (${e instanceof Error ? e.message : String(e)})`, e);
  }
  return new Rulestack(await instantiateLater(compiled), () => instantiateNow(compiled));
}

let cached: Promise<Rulestack> | undefined;

/**
 * Instantiates the engine (once: later calls return the same instance) and returns
 * the API. In node it reads dist/wasm/engine.wasm; in a browser or worker it fetches
 * engine.wasm next to the module, or `opts.wasmUrl`, or uses `opts.wasmBinary`. It also
 * loads the YAML reader unless `opts.yaml` is false. After an engine crash it gives the same
 * Rulestack with a fresh engine instance (never the crashed one).
 */
export function loadEngine(opts: LoadOptions = {}): Promise<Rulestack> {
  if (!cached) {
    cached = instantiate(opts);
    cached.catch(() => {
      cached = undefined; // allow a retry after a failed load
    });
  }
  const mine = cached;
  const engine = mine.then((rs): Rulestack | Promise<Rulestack> => {
    try {
      void rs.module; // restarts a crashed engine
      return rs;
    } catch {
      // it could not be restarted synchronously: a new Rulestack, instantiated asynchronously
      if (cached === mine) cached = undefined;
      return loadEngine({ ...opts, yaml: false });
    }
  });
  if (opts.yaml === false) return engine;
  return Promise.all([engine, loadYaml()]).then(([rs]) => rs);
}

function parseEngineJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`rulestack engine returned invalid JSON for ${what}: ${text.slice(0, 200)}`);
  }
}

type EngineIssue = { path?: unknown; message?: unknown };

/** The errors and warnings of an engine answer ("" is none); out of memory is a RangeError. */
function engineIssues(text: string, what: string): { errors: EngineIssue[]; warnings: EngineIssue[] } {
  if (text === '') return { errors: [], warnings: [] };
  const r = parseEngineJson<{ errors?: unknown; warnings?: unknown; outOfMemory?: boolean }>(text, what);
  // not a fault of the definition or the snapshot: the engine's memory is full
  if (r.outOfMemory === true) {
    const first = Array.isArray(r.errors) ? (r.errors[0] as { message?: unknown } | undefined) : undefined;
    throw new RangeError(`rulestack: ${typeof first?.message === 'string' ? first.message : `${what}: the engine is out of memory`}`);
  }
  return {
    errors: Array.isArray(r.errors) ? r.errors : [{ path: '', message: `unexpected engine answer: ${text.slice(0, 200)}` }],
    warnings: Array.isArray(r.warnings) ? r.warnings : [],
  };
}

function engineErrors(text: string, what: string): EngineIssue[] {
  return engineIssues(text, what).errors;
}

/** An integer from 1 to MAX_LOG_LIMIT (default DEFAULT_LOG_LIMIT). */
function logLimitOf(x: unknown): number {
  if (x === undefined) return DEFAULT_LOG_LIMIT;
  if (typeof x !== 'number') throw new TypeError(`rulestack: invalid logLimit: ${String(x)} (an integer from 1 to ${MAX_LOG_LIMIT})`);
  if (!Number.isInteger(x) || x < 1 || x > MAX_LOG_LIMIT)
    throw new RangeError(`rulestack: invalid logLimit: ${x} (an integer from 1 to ${MAX_LOG_LIMIT})`);
  return x;
}

/**
 * The engine API (what loadEngine() resolves to).
 *
 * Every call into the wasm module is watched: when one crashes it (a trap, see
 * EngineCrashedError), that instance is discarded and the next call instantiates a fresh one
 * (`restarts` counts them); games that lived in the crashed one throw EngineCrashedError.
 */
export class Rulestack {
  #instance: EngineInstance;
  readonly #restart: (() => EngineModule) | undefined;
  #restarts = 0;

  /**
   * @param module an instantiated engine module (what `loadEngine` gives is better)
   * @param restart gives a fresh instance after a crash; without it, a crash is final
   */
  constructor(module: EngineModule, restart?: () => EngineModule) {
    this.#instance = new EngineInstance(module);
    this.#restart = restart;
  }

  /**
   * The raw embind module (JSON-text calls); for advanced use. After a crash it is a fresh
   * instance, not the one read before (which is dead: do not call it).
   */
  get module(): EngineModule {
    return this.#live().module;
  }

  /** How many times the engine crashed and was restarted. */
  get restarts(): number {
    return this.#restarts;
  }

  /** The live instance: a crashed one is replaced by a fresh one first. */
  #live(): EngineInstance {
    const current = this.#instance;
    if (!current.dead) return current;
    if (!this.#restart) {
      throw new EngineCrashedError(
        `rulestack: the engine crashed (${crashText(current.crash)}) and this Rulestack cannot start another: await loadEngine() for a fresh one`,
        false,
        current.crash,
      );
    }
    let module: EngineModule;
    try {
      module = this.#restart();
    } catch (e) {
      throw new EngineCrashedError(
        `rulestack: the engine crashed (${crashText(current.crash)}) and a fresh one could not be started now (${crashText(e)}): await loadEngine() to start one`,
        false,
        e,
      );
    }
    this.#instance = new EngineInstance(module);
    this.#restarts++;
    return this.#instance;
  }

  /** A call into the live module, watched for a crash. */
  #run<T>(what: string, call: (m: EngineModule) => T): T {
    const instance = this.#live();
    return instance.run(what, () => call(instance.module));
  }

  /** The engine's version string. */
  version(): string {
    return this.#run('version', (m) => m.version());
  }

  /** Reads a definition (object, JSON text or YAML text) without loading it. */
  parse(definition: DefinitionInput, format: DefinitionFormat = 'auto'): ParsedDefinition {
    return parseDefinition(definition, format);
  }

  /**
   * Every problem in the definition ([] when valid). For YAML text each error has
   * line/column. Never throws for a bad definition.
   */
  validate(definition: DefinitionInput, opts: ValidateOptions = {}): DefinitionIssue[] {
    return this.check(definition, opts).errors;
  }

  /**
   * Errors and warnings of a definition. `errors` are validate()'s; `warnings` are legal but
   * almost certainly not what was meant (`$entity.self` where there is none, a property read
   * that nothing gives a default), each with its place like an error. Warnings are given for
   * a definition without errors. Never throws for a bad definition.
   */
  check(definition: DefinitionInput, opts: ValidateOptions = {}): { errors: DefinitionIssue[]; warnings: DefinitionIssue[] } {
    let parsed: ParsedDefinition;
    try {
      parsed = parseDefinition(definition, opts.format);
    } catch (e) {
      if (e instanceof DefinitionError) return { errors: e.errors, warnings: [] };
      throw e;
    }
    const found = engineIssues(this.#run('validate', (m) => m.validateDefinition(parsed.json)), 'validateDefinition');
    return { errors: locateIssues(parsed, found.errors), warnings: locateIssues(parsed, found.warnings) };
  }

  /** Starts a game. Throws DefinitionError with every problem of the definition. */
  createGame(definition: DefinitionInput, opts: CreateGameOptions = {}): Game {
    const seed = opts.seed ?? randomSeed();
    const seedText = seedJson(seed);
    const logLimit = logLimitOf(opts.logLimit);
    // the engine's load takes the seed, or { seed, logLimit }
    const loadText = opts.logLimit === undefined ? seedText : `{"seed":${seedText},"logLimit":${logLimit}}`;
    const parsed = parseDefinition(definition, opts.format);
    const instance = this.#live();
    const session: Session = instance.run('createGame', () => new instance.module.Session());
    let ok = false;
    try {
      const errors = engineErrors(instance.run('createGame', () => session.load(parsed.json, loadText)), 'load');
      if (errors.length > 0) throw new DefinitionError(locateIssues(parsed, errors));
      ok = true;
      return new Game(session, instance, parsed.json, seed, logLimit);
    } finally {
      if (!ok) instance.free(session);
    }
  }

  /**
   * A new game in the state of the snapshot (see Game.snapshot). Throws DefinitionError
   * for a bad definition and SnapshotError for a snapshot the engine rejects.
   */
  restore(definition: DefinitionInput, snapshot: Snapshot | string, opts: ValidateOptions = {}): Game {
    const parsed = parseDefinition(definition, opts.format);
    const snapJson = typeof snapshot === 'string' ? snapshot : JSON.stringify(snapshot);
    const instance = this.#live();
    const session: Session = instance.run('restore', () => new instance.module.Session());
    let ok = false;
    try {
      const errors = engineErrors(instance.run('restore', () => session.restore(parsed.json, snapJson)), 'restore');
      if (errors.length > 0) {
        // The definition's own errors are DefinitionErrors; otherwise the snapshot is at fault.
        const defErrors = engineErrors(instance.run('restore', () => instance.module.validateDefinition(parsed.json)), 'validateDefinition');
        if (defErrors.length > 0) throw new DefinitionError(locateIssues(parsed, defErrors));
        throw new SnapshotError(errors.map((e) => ({ path: typeof e.path === 'string' ? e.path : '', message: String(e.message ?? 'invalid') })));
      }
      ok = true;
      // a snapshot carries the RNG's state, not the seed the game began with
      return new Game(session, instance, parsed.json, null);
    } finally {
      if (!ok) instance.free(session);
    }
  }

  /** A bot for a game: `.choose(player)` returns a legal move. */
  bot(game: Game, opts: BotOptions = {}): Bot {
    if (game.disposed) throw new Error('rulestack: this game has been disposed');
    return new Bot(game, opts);
  }

  /** Bot-vs-bot games in the engine (one call; see the CLI for batching). */
  simulate(definition: DefinitionInput, opts: SimulateOptions): SimulateResult {
    const parsed = parseDefinition(definition);
    const optsJson = JSON.stringify(opts);
    const text = this.#run('simulate', (m) => m.simulate(parsed.json, optsJson));
    const r = parseEngineJson<SimulateResult & { errors?: unknown }>(text, 'simulate');
    if (Array.isArray(r.errors)) throw new DefinitionError(locateIssues(parsed, r.errors));
    return r;
  }

  /**
   * Runs a scenario: `{ game: <definition object>, seed, steps: [...] }` (the game
   * inline; the CLI resolves paths).
   */
  runScenario(scenario: Record<string, unknown> | string): ScenarioResult {
    const text = typeof scenario === 'string' ? scenario : JSON.stringify(scenario);
    return parseEngineJson<ScenarioResult>(this.#run('runScenario', (m) => m.runScenario(text)), 'runScenario');
  }
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The seed as the engine reads it (JSON text); a TypeError for anything that is not one. */
export function seedJson(seed: unknown): string {
  if (typeof seed === 'string') return JSON.stringify(seed);
  if (typeof seed === 'number') {
    if (Number.isSafeInteger(seed)) return String(seed);
    throw new TypeError(
      `invalid seed: ${String(seed)} (a seed is a safe integer, a bigint or a string: ${
        Number.isInteger(seed) ? 'beyond 2^53 a number is not exact, pass a bigint or a string' : 'not an integer'
      })`,
    );
  }
  if (typeof seed === 'bigint') {
    if (seed >= INT64_MIN && seed <= INT64_MAX) return seed.toString();
    throw new TypeError(`invalid seed: ${seed}n (a bigint seed is from -2^63 to 2^63-1)`);
  }
  throw new TypeError(`invalid seed: ${String(seed)} (a seed is an integer or a string)`);
}

/** A fresh seed nobody can guess: 53 random bits from the platform's cryptographic source. */
export function randomSeed(): number {
  const [hi, lo] = globalThis.crypto.getRandomValues(new Uint32Array(2)) as unknown as [number, number];
  return (hi & 0x1fffff) * 2 ** 32 + lo;
}
