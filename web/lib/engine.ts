// loadEngine(): instantiates the wasm module once (node, browser, worker) and returns
// the Rulestack API object.
import type { EngineModule } from './wasm/engine.mjs';
import { compileEngine, instantiateLater, instantiateNow, type WasmSource } from './wasm-load.js';
import { DefinitionError, EngineCrashedError, SnapshotError, boundedMessage, clipped, type DefinitionIssue } from './errors.js';
import { parseDefinition, locateIssues, loadYaml, type DefinitionFormat, type ParsedDefinition } from './definition.js';
import { Game, Bot, EngineInstance, crashText, parseEngineJson, BOT_KINDS, BOT_LEVELS, DEFAULT_LOG_LIMIT, MAX_LOG_LIMIT } from './game.js';
import type { Session } from './wasm/engine.mjs';
import { batchesOf, mergeResults, runOf, simulateAnswer } from './simulate-batches.js';
import { coreCount, runInWorkers, WorkerPool } from './simulate-pool.js';
import { jsonWithSeed, seedJson } from './seed.js';
import { checkBoolean, checkOneOf, checkOptions, countOption, shown, shownText } from './options.js';
import type {
  BotOptions,
  GameDefinition,
  ParallelSimulateOptions,
  ScenarioResult,
  SimulateOptions,
  SimulateResult,
  Snapshot,
  Seed,
} from './types.js';

export interface LoadOptions extends WasmSource {
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
  seed?: Seed | null;
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

async function instantiate(opts: LoadOptions): Promise<Rulestack> {
  // Compiled once: a crashed engine is restarted from it (see Rulestack), workers start from it.
  const compiled = await compileEngine(opts);
  const rs = new Rulestack(await instantiateLater(compiled), () => instantiateNow(compiled));
  compiledOf.set(rs, compiled);
  return rs;
}

/** The compiled module a Rulestack was started from: its simulate workers start from it too. */
const compiledOf = new WeakMap<Rulestack, WebAssembly.Module>();
// simulateParallel's workers, kept between its runs (see WorkerPool)
const poolOf = new WeakMap<Rulestack, WorkerPool>();

const SIM_BOTS = [...BOT_KINDS, ...BOT_LEVELS];

/** simulate's options as the types say (the seed is read as the engine reads it, see runOf). */
const SIMULATE_KEYS = ['games', 'bot', 'seed', 'iterations', 'maxMoves', 'hashes'] as const;
const PARALLEL_KEYS = [...SIMULATE_KEYS, 'workers', 'batch', 'onProgress'] as const;

function checkSimulateOptions(opts: unknown, what: 'simulate' | 'simulateParallel'): asserts opts is SimulateOptions {
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts))
    throw new TypeError(`rulestack: ${what} options must be an object such as { games: 100 }, not ${opts === null ? 'null' : typeof opts}`);
  checkOptions<ParallelSimulateOptions>(what, opts, what === 'simulate' ? SIMULATE_KEYS : PARALLEL_KEYS);
  const o = opts as Record<string, unknown>;
  countOption('games', o.games, 1_000_000);
  if (o.bot !== undefined) checkOneOf('bot', o.bot, SIM_BOTS);
  if (o.iterations !== undefined) countOption('iterations', o.iterations, 100_000);
  if (o.maxMoves !== undefined) countOption('maxMoves', o.maxMoves, 100_000);
  // game i plays seed + i: a whole number (not a Seed of createGame: no bigint, no string)
  if (o.seed !== undefined && o.seed !== null && !(Number.isSafeInteger(o.seed) && (o.seed as number) >= 0 && (o.seed as number) <= Number.MAX_SAFE_INTEGER - ((o.games as number) - 1)))
    throw new (typeof o.seed === 'number' ? RangeError : TypeError)(
      `rulestack: ${what}: seed must be an integer from 0 to ${Number.MAX_SAFE_INTEGER} - games + 1 (game i plays seed + i), not ${shown(o.seed)}`,
    );
  checkBoolean(what, 'hashes', o.hashes);
  // (null: none, as `?.` calls it)
  if (o.onProgress !== undefined && o.onProgress !== null && typeof o.onProgress !== 'function')
    throw new TypeError(`rulestack: ${what}: onProgress must be a function, not ${shown(o.onProgress)}`);
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
  try {
    checkOptions<LoadOptions>('loadEngine', opts, ['wasmUrl', 'wasmBinary', 'yaml']);
    checkBoolean('loadEngine', 'yaml', opts.yaml);
  } catch (e) {
    return Promise.reject(e);
  }
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

type EngineIssue = { path?: unknown; message?: unknown };

/** The errors and warnings of an engine answer ("" is none); out of memory is a RangeError. */
function engineIssues(text: string, what: string): { errors: EngineIssue[]; warnings: EngineIssue[] } {
  if (text === '') return { errors: [], warnings: [] };
  const r = parseEngineJson<{ errors?: unknown; warnings?: unknown; outOfMemory?: boolean }>(text, what);
  // not a fault of the definition or the snapshot: the engine's memory is full
  if (r.outOfMemory === true) {
    const first = Array.isArray(r.errors) ? (r.errors[0] as { message?: unknown } | undefined) : undefined;
    throw new RangeError(boundedMessage(`rulestack: ${typeof first?.message === 'string' ? first.message : `${what}: the engine is out of memory`}`));
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
  if (typeof x !== 'number') throw new TypeError(`rulestack: invalid logLimit: ${shownText(x)} (an integer from 1 to ${MAX_LOG_LIMIT})`);
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
    checkOptions<ValidateOptions>('validate', opts, ['format']);
    return this.#issues(definition, opts.format).errors;
  }

  /**
   * Errors and warnings of a definition. `errors` are validate()'s; `warnings` are legal but
   * almost certainly not what was meant (`$entity.self` where there is none, a property read
   * that nothing gives a default), each with its place like an error. Warnings are given for
   * a definition without errors. Never throws for a bad definition.
   */
  check(definition: DefinitionInput, opts: ValidateOptions = {}): { errors: DefinitionIssue[]; warnings: DefinitionIssue[] } {
    checkOptions<ValidateOptions>('check', opts, ['format']);
    return this.#issues(definition, opts.format);
  }

  /** check()'s answer, its options checked by the caller (validate or check, each named in its errors). */
  #issues(definition: DefinitionInput, format: DefinitionFormat | undefined): { errors: DefinitionIssue[]; warnings: DefinitionIssue[] } {
    let parsed: ParsedDefinition;
    try {
      parsed = parseDefinition(definition, format);
    } catch (e) {
      if (e instanceof DefinitionError) return { errors: e.errors, warnings: [] };
      throw e;
    }
    const found = engineIssues(this.#run('validate', (m) => m.validateDefinition(parsed.json)), 'validateDefinition');
    return { errors: locateIssues(parsed, found.errors), warnings: locateIssues(parsed, found.warnings) };
  }

  /** Starts a game. Throws DefinitionError with every problem of the definition. */
  createGame(definition: DefinitionInput, opts: CreateGameOptions = {}): Game {
    checkOptions<CreateGameOptions>('createGame', opts, ['seed', 'format', 'logLimit']);
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
    checkOptions<ValidateOptions>('restore', opts, ['format']);
    const parsed = parseDefinition(definition, opts.format);
    // (undefined or a function: no JSON at all, which the engine refuses as it refuses null)
    let snapJson: string;
    try {
      snapJson = typeof snapshot === 'string' ? snapshot : (JSON.stringify(snapshot) ?? 'null');
    } catch (e) {  // (one that holds itself, a bigint, nested past the stack: not a snapshot the engine wrote)
      throw new SnapshotError([{ path: '', message: `not JSON-serializable: ${e instanceof Error ? e.message : String(e)}` }]);
    }
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

  /**
   * A bot for a game: `.choose(player)` returns a legal move. A TypeError for what is not a
   * Game of this package, an Error for a disposed game, and the options' errors (see Bot).
   */
  bot(game: Game, opts: BotOptions = {}): Bot {
    return new Bot(game, opts);
  }

  /** Bot-vs-bot games in the engine (one call; see the CLI for batching). */
  simulate(definition: DefinitionInput, opts: SimulateOptions): SimulateResult {
    checkSimulateOptions(opts, 'simulate');
    const parsed = parseDefinition(definition);
    const optsJson = JSON.stringify(opts);
    return simulateAnswer(parsed, this.#run('simulate', (m) => m.simulate(parsed.json, optsJson)));
  }

  /**
   * `simulate` spread over workers (default: one a core), each with its own engine instance:
   * the seeds are cut into contiguous batches and their results merged into exactly what
   * `simulate` gives for the same options. `workers: 1` plays in this thread.
   */
  async simulateParallel(definition: DefinitionInput, opts: ParallelSimulateOptions): Promise<SimulateResult> {
    checkSimulateOptions(opts, 'simulateParallel');
    const { workers, batch, onProgress, ...engineOpts } = opts;
    const parsed = parseDefinition(definition);
    const optsJson = JSON.stringify(engineOpts);
    const count = workers === undefined ? await coreCount() : countOption('workers', workers, 1024);
    const run = runOf(engineOpts);
    const mcts = engineOpts.bot !== undefined && engineOpts.bot !== 'random';
    const size = batch !== undefined ? countOption('batch', batch, 1_000_000)
      : mcts ? 1 : Math.min(200, Math.ceil((run?.games ?? 1) / (count * 8)));
    // options that cannot be cut exactly (see runOf): one call, as given
    const batches = run ? batchesOf(run, size) : [{ first: 0, games: 0, seed: 0 }];
    const options = run ? batches.map((b) => JSON.stringify({ ...engineOpts, games: b.games, seed: b.seed })) : [optsJson];
    const results: SimulateResult[] = new Array(batches.length);
    let done = 0;
    const onAnswer = (i: number, text: string) => {
      const result = simulateAnswer(parsed, text);
      results[i] = result;
      done += result.games;
      onProgress?.(done, run?.games ?? result.games, { first: batches[i]!.first, result });
    };
    if (count === 1) {
      let paused = performance.now();
      for (let i = 0; i < batches.length; i++) {
        onAnswer(i, this.#run('simulate', (m) => m.simulate(parsed.json, options[i]!)));
        // let the event loop (a page) breathe about every 20 ms
        if (performance.now() - paused > 20) {
          await breathe();
          paused = performance.now();
        }
      }
    } else {
      let pool = poolOf.get(this);
      if (!pool) {
        let module = compiledOf.get(this);
        if (!module) compiledOf.set(this, (module = await compileEngine({})));
        poolOf.set(this, (pool = new WorkerPool(module)));
      }
      await runInWorkers({ pool, definition: parsed.json, options, workers: count, onAnswer });
    }
    return mergeResults(batches, results);
  }

  /**
   * Runs a scenario: `{ name?, game: <definition object>, seed?, steps: [...] }` (the game
   * inline; the CLI resolves paths). A bigint `seed` is read as createGame reads it (from
   * -2^63 to 2^63-1, else a TypeError before anything runs); any other seed as the engine
   * reads a scenario file's (one it refuses is the scenario's failure). A key it does not
   * have, or a `game` that is text, is the scenario's failure (see `scenarioProblem`); a
   * scenario that contains itself is a DefinitionError, as such a definition is in createGame.
   */
  runScenario(scenario: Record<string, unknown> | string): ScenarioResult {
    let text: string;
    let value: unknown = scenario;
    if (typeof scenario === 'string') {
      text = scenario;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined; // (the engine says what is wrong with it)
      }
    } else {
      try {
        if (typeof (scenario as { seed?: unknown } | null)?.seed === 'bigint') {
          const { seed, ...rest } = scenario;
          text = jsonWithSeed(rest, seed);
        } else text = JSON.stringify(scenario);
      } catch (e) {
        if (e instanceof TypeError && /invalid seed/.test(e.message)) throw e; // (createGame's, for a bigint out of range)
        const why = e instanceof Error ? e.message : String(e);
        throw new DefinitionError(
          [{ path: '', message: /circular/i.test(why) ? SCENARIO_CONTAINS_ITSELF : `the scenario is not JSON-serializable: ${why}` }],
          `invalid scenario: ${/circular/i.test(why) ? SCENARIO_CONTAINS_ITSELF : `the scenario is not JSON-serializable: ${why}`}`,
        );
      }
    }
    const problem = scenarioProblem(value);
    if (problem !== undefined) return { failures: [{ message: problem, step: -1 }], ok: false, steps: 0 };
    return parseEngineJson<ScenarioResult>(this.#run('runScenario', (m) => m.runScenario(text)), 'runScenario');
  }
}

const SCENARIO_CONTAINS_ITSELF = 'the scenario contains itself (an object that holds itself): it cannot be read as JSON';

/**
 * Why a scenario (an object, as read) fails as a whole before it runs, where the engine would
 * not say it clearly: a `game` that is text (a path or YAML text: runScenario takes the
 * definition itself; the CLI reads paths). Everything else (a key it does not have, no
 * `steps`) the engine says, as natively.
 */
export function scenarioProblem(scenario: unknown): string | undefined {
  if (typeof scenario !== 'object' || scenario === null || Array.isArray(scenario)) return undefined; // (the engine says it)
  const { game } = scenario as { game?: unknown };
  if (typeof game === 'string')
    return "the scenario's game is text: runScenario takes an inline definition (an object: for YAML or JSON text, rs.parse(text).value), not a path or text (`rulestack test` reads a game's path)";
  return undefined; // (an unknown key, like everything else, the engine says)
}

/**
 * One turn of the event loop, without a timer's delay (a timeout of 0 waits about a
 * millisecond in node, and 4 in a browser once nested): setImmediate in node, else a message.
 */
function breathe(): Promise<void> {
  if (typeof setImmediate === 'function') return new Promise((r) => setImmediate(r));
  return new Promise((r) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      r();
    };
    ch.port2.postMessage(0);
  });
}

/** A fresh seed nobody can guess: 53 random bits from the platform's cryptographic source. */
export function randomSeed(): number {
  const [hi, lo] = globalThis.crypto.getRandomValues(new Uint32Array(2)) as unknown as [number, number];
  return (hi & 0x1fffff) * 2 ** 32 + lo;
}
