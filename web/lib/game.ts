// Game: one running game over an engine Session. Bot: a bot bound to a game.
// EngineInstance: one instantiation of engine.wasm, which a trap kills (see Rulestack).
import type { EngineModule, Session } from './wasm/engine.mjs';
import { EngineCrashedError, IllegalMoveError, boundedMessage, clipped } from './errors.js';
import { botSeed, jsonWithSeed } from './seed.js';
import { checkBoolean, checkOneOf, checkOptions, countOption, shown, shownText } from './options.js';
import type { GameEvent, GameView, Move, PlayerId, PlayerRef, ResolutionStep, Snapshot, BotOptions, Seed } from './types.js';

export interface MoveRecord {
  player: PlayerId;
  move: Move;
  events: GameEvent[];
}

export interface GameEventMap {
  /** Each event an `apply` produced, in order. */
  event: GameEvent;
  /** Each applied move, with all its events (after the 'event' callbacks). */
  move: MoveRecord;
  /** After a successful undo. */
  undo: undefined;
}

export type GameEventName = keyof GameEventMap;

/**
 * What `game.log()` returns: the events kept, oldest first, and `dropped`, how many earlier
 * events of the game are no longer kept (0 until the game has logged more than its
 * `logLimit`).
 */
export type GameLog = GameEvent[] & { readonly dropped: number };

/** The default `logLimit` of a game: the log keeps its last 100,000 events. */
export const DEFAULT_LOG_LIMIT = 100_000;
/** The largest `logLimit`. */
export const MAX_LOG_LIMIT = 10_000_000;

/**
 * A player reference as text: 0 → "0". A TypeError for what is no player reference at all
 * (not a string or a number); whether the game has that player is checked by the game.
 */
export function playerId(player: unknown): PlayerId {
  if (typeof player === 'number') return String(player);
  if (typeof player !== 'string') {
    throw new TypeError(`rulestack: invalid player: ${describe(player)} (a player id is a string, or a number: 0 is "0")`);
  }
  return player;
}

/** A value as the errors show it: a string in single quotes (a player id), anything else as `shown` does. */
function describe(x: unknown): string {
  return typeof x === 'string' ? `'${clipped(x)}'` : shown(x);
}

// ------------------------------------------------------------------ the engine instance

/** The error a trap leaves, in a few words: "RuntimeError: unreachable". */
export function crashText(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  return describe(e);
}

/**
 * Whether an error thrown out of a call into the wasm module is a crash of the module: a
 * trap (`WebAssembly.RuntimeError`: unreachable, memory access out of bounds, an abort), a
 * stack overflow while it ran (V8 and Safari: RangeError "Maximum call stack size exceeded",
 * Firefox: InternalError "too much recursion"), or a C++ exception that escaped it
 * (`WebAssembly.Exception`: the engine never lets one out, so one that does left it in an
 * unknown state). Not embind's own errors (a BindingError for a deleted object: a misuse, the
 * instance is fine).
 */
export function isEngineCrash(e: unknown): boolean {
  const W = (globalThis as { WebAssembly?: typeof WebAssembly & { Exception?: abstract new (...a: never[]) => unknown } })
    .WebAssembly;
  if (W && e instanceof W.RuntimeError) return true;
  if (W && typeof W.Exception === 'function' && e instanceof W.Exception) return true;
  if (e instanceof RangeError && /call stack/i.test(e.message)) return true;
  return e instanceof Error && e.name === 'InternalError' && /too much recursion/i.test(e.message);
}


/**
 * @internal One instantiation of engine.wasm. Every call into it goes through `run`: a call
 * that crashes the module kills the instance (its memory may be corrupt: nothing runs in it
 * again) and throws EngineCrashedError. The Rulestack then starts a fresh instance for its
 * next call; the games whose sessions lived in this one throw EngineCrashedError.
 */
export class EngineInstance {
  readonly module: EngineModule;
  #crash: unknown = undefined;
  #dead = false;

  constructor(module: EngineModule) {
    this.module = module;
  }

  /** Whether a call crashed this instance. */
  get dead(): boolean {
    return this.#dead;
  }

  /** The error of the call that crashed it. */
  get crash(): unknown {
    return this.#crash;
  }

  /** Runs a call into the module; `what` names the API call for the error message. */
  run<T>(what: string, call: () => T): T {
    if (this.#dead) throw this.lostError();
    try {
      return call();
    } catch (e) {
      if (!isEngineCrash(e)) throw e;
      this.#dead = true;
      this.#crash = e;
      throw new EngineCrashedError(
        `rulestack: the engine crashed in ${what} (${crashText(e)}). That engine instance is discarded and the next ` +
          `call starts a fresh one; the games it held are lost: restore each from a snapshot taken before, ` +
          `rs.restore(definition, snapshot)`,
        true,
        e,
      );
    }
  }

  /** The error of a game used after this instance died. */
  lostError(): EngineCrashedError {
    return new EngineCrashedError(
      `rulestack: this game is lost: the engine crashed (${crashText(this.#crash)}) and was restarted, and the ` +
        `game's state was in the crashed engine. Restore it from a snapshot taken before: ` +
        `rs.restore(definition, snapshot)`,
      false,
      this.#crash,
    );
  }

  /** Deletes a session of this instance, unless the instance is dead (then there is nothing to free). */
  free(session: Session): void {
    if (this.#dead) return;
    try {
      this.run('dispose', () => {
        if (!session.isDeleted()) session.delete();
      });
    } catch {
      // a crash while freeing: the instance is dead now, and so is what it held
    }
  }
}

// ------------------------------------------------------------------ Game

interface Engine {
  session: Session;
  instance: EngineInstance;
}

// Deletes the C++ session of a game that was garbage-collected without dispose().
const registry: FinalizationRegistry<Engine> | undefined =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<Engine>(({ session, instance }) => {
        try {
          instance.free(session);
        } catch {
          // the module may be gone; nothing to do
        }
      })
    : undefined;

// Every game createGame or restore made (disposed or not): an object made from Game.prototype
// otherwise is no game.
const madeGames = new WeakSet<Game>();

// The live session of each game (and the engine instance it is in); a disposed game has none.
const engines = new WeakMap<Game, Engine>();

// The player ids of each game (read once, from its first view).
const gamePlayers = new WeakMap<Game, readonly PlayerId[]>();

/**
 * The id of a player of the game (0 → "0"). A TypeError for what is no player reference, a
 * RangeError naming the game's players for a player it does not have.
 */
function checkPlayer(game: Game, player: unknown): PlayerId {
  const id = playerId(player);
  const players = game.players;
  if (!players.includes(id)) {
    throw new RangeError(`rulestack: unknown player ${describe(player)} (players: ${players.join(', ')})`);
  }
  return id;
}

/** @internal What any call on a disposed game throws. */
export const disposedError = () => new Error('rulestack: this game has been disposed');

/** @internal Runs a call on the game's session (used by Rulestack and Bot). */
export function callGame<T>(game: Game, what: string, call: (s: Session) => T): T {
  const e = engines.get(game);
  if (!e) throw disposedError();
  return e.instance.run(what, () => call(e.session));
}

/** The engine's answer (JSON text) read; an error naming the call when it is not JSON. */
const utf8 = new TextDecoder();

/** A view's JSON text: the module hands over its bytes, decoded here before any other call. */
export function viewText(session: Session, player: string): string {
  return utf8.decode(session.viewBytes(player));
}

export function parseEngineJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new Error(`rulestack engine returned invalid JSON for ${what}: ${text.slice(0, 200)}`);
  }
}

type Listener<K extends GameEventName> = (payload: GameEventMap[K]) => void;

export class Game {
  /** The definition as JSON text (as loaded). */
  readonly definitionJson: string;
  /** The seed it was created with (given or drawn); null for a game restored from a snapshot. */
  readonly seed: Seed | null;
  /** How many events `log()` keeps (the last ones): `createGame`'s `logLimit`, else 100,000. */
  readonly logLimit: number;
  #listeners: { [K in GameEventName]: Set<Listener<K>> } = {
    event: new Set(),
    move: new Set(),
    undo: new Set(),
  };

  /** @internal use rs.createGame / rs.restore. */
  constructor(session: Session, instance: EngineInstance, definitionJson: string, seed: Seed | null, logLimit = DEFAULT_LOG_LIMIT) {
    const engine = { session, instance };
    engines.set(this, engine);
    madeGames.add(this);
    this.definitionJson = definitionJson;
    this.seed = seed;
    this.logLimit = logLimit;
    registry?.register(this, engine, this);
  }

  get disposed(): boolean {
    return !engines.has(this);
  }

  #call<T>(what: string, call: (s: Session) => T): T {
    return callGame(this, what, call);
  }

  /** Throws as any call on a disposed game does (for the calls that need no engine). */
  #live(): void {
    if (!engines.has(this)) throw disposedError();
  }

  /** The ids of the game's players, in order. */
  get players(): readonly PlayerId[] {
    this.#live();
    let players = gamePlayers.get(this);
    if (players === undefined) {
      const v = parseEngineJson<GameView>(this.#call('game.players', (s) => viewText(s, '')), 'view');
      players = Object.freeze(v.players.map((p) => p.id));
      gamePlayers.set(this, players);
    }
    return players;
  }

  #player(player: unknown): PlayerId {
    return checkPlayer(this, player);
  }

  /**
   * What the player may see; without a player (or with null), the spectator view. Throws a
   * RangeError for a player the game does not have.
   */
  view(player?: PlayerRef | null): GameView {
    const id = player === undefined || player === null ? '' : this.#player(player);
    return parseEngineJson<GameView>(this.#call('game.view', (s) => viewText(s, id)), 'view');
  }

  /** Every move the player may make now, each fully specified. RangeError for an unknown player. */
  legalMoves(player: PlayerRef): Move[] {
    const id = this.#player(player);
    return parseEngineJson<Move[]>(this.#call('game.legalMoves', (s) => s.legalMoves(id)), 'legalMoves');
  }

  /**
   * Performs the move and returns its events. Throws IllegalMoveError (state unchanged) for
   * any move or player that will not do, `unknown_player` for a player the game does not have.
   * A listener that throws (see `on`) does not stop the others: once all were called, apply
   * throws the first listener's error, the move made.
   */
  apply(player: PlayerRef, move: Move): GameEvent[] {
    const engine = engines.get(this);
    if (!engine) throw disposedError();
    let id: PlayerId;
    try {
      id = this.#player(player);
    } catch (e) {
      if (!(e instanceof TypeError || e instanceof RangeError)) throw e;
      const shown = typeof player === 'string' || typeof player === 'number' ? String(player) : describe(player);
      throw new IllegalMoveError('unknown_player', e.message.replace(/^rulestack: /, ''), move, shown);
    }
    if (typeof move !== 'object' || move === null || Array.isArray(move)) {
      throw new IllegalMoveError('bad_move', 'a move must be a JSON object', move, id);
    }
    let moveJson: string;
    try {
      moveJson = JSON.stringify(move);
    } catch (e) {
      throw new IllegalMoveError('bad_move', `the move is not JSON-serializable: ${String(e)}`, move, id);
    }
    const r = parseEngineJson<{ ok: boolean; events?: GameEvent[]; steps?: ResolutionStep[]; reason?: string; message?: string }>(
      this.#call('game.apply', (s) => s.apply(id, moveJson)),
      'apply',
    );
    if (!r.ok) throw new IllegalMoveError(r.reason ?? 'illegal', r.message ?? '', move, id);
    this.#steps = r.steps ?? [];
    const events = r.events ?? [];
    // the move is made: every listener hears of it, even when one throws (then apply throws
    // the first listener's error, once all were called)
    callEach((call) => {
      const eventCbs = [...this.#listeners.event];
      for (const ev of events) for (const cb of eventCbs) call(() => cb(ev));
      if (this.#listeners.move.size > 0) {
        const record: MoveRecord = { player: id, move, events };
        for (const cb of [...this.#listeners.move]) call(() => cb(record));
      }
    });
    return events;
  }

  /**
   * Records every step of the resolution machine from now on (off: nothing is recorded, at
   * no cost). `steps()` then returns those of the last applied move.
   */
  setTrace(on: boolean): void {
    this.#live();
    if (typeof on !== 'boolean') throw new TypeError(`rulestack: setTrace: on must be true or false, not ${shown(on)}`);
    this.#call('game.setTrace', (s) => s.setTrace(on));
    if (!on) this.#steps = [];
  }

  /** The resolution steps of the last applied move, while tracing (see `setTrace`). */
  steps(): ResolutionStep[] {
    this.#live();
    return this.#steps;
  }

  #steps: ResolutionStep[] = [];

  /** Goes back to the state before the last applied move. False when there is none. */
  undo(): boolean {
    const ok = this.#call('game.undo', (s) => s.undo());
    if (ok) callEach((call) => { for (const cb of [...this.#listeners.undo]) call(() => cb(undefined)); });
    return ok;
  }

  /**
   * The events so far (the last `logLimit` of them; `dropped` says how many earlier ones are
   * no longer kept). Without an argument, the full record (for replays and tools); with a
   * player, as that player may see it, and with `null` as a spectator may: an entity they
   * could not identify at that moment shows under the handle it had then (`"?3fa9c2d1"`), and
   * a card a move showed them carries `revealed` (the handle they knew it by). After `undo`,
   * the events of the moves undone are gone, and those dropped before do not come back (the
   * log can hold fewer than `logLimit` events then, or none).
   * RangeError for an unknown player.
   */
  log(player?: PlayerRef | null): GameLog {
    const id = player === undefined || player === null ? '' : this.#player(player);
    const text = this.#call('game.log', (s) => (player === undefined ? s.log() : s.logFor(id)));
    const r = parseEngineJson<GameEvent[] | { dropped: number; events: GameEvent[] }>(text, 'log');
    const events = Array.isArray(r) ? r : r.events;
    const dropped = Array.isArray(r) ? 0 : r.dropped;
    Object.defineProperty(events, 'dropped', { value: dropped, enumerable: false });
    return events as GameLog;
  }

  /** 16 lowercase hex digits; equal states have equal hashes (natively and in wasm). */
  stateHash(): string {
    return this.#call('game.stateHash', (s) => s.stateHash());
  }

  /** The whole state as JSON; `rs.restore(definition, snapshot)` brings it back. */
  snapshot(): Snapshot {
    return parseEngineJson<Snapshot>(this.#call('game.snapshot', (s) => s.snapshot()), 'snapshot');
  }

  /**
   * Subscribes to 'event' (each event apply returns), 'move' (each applied move) or
   * 'undo'. Returns a function that unsubscribes. Every listener is called even when one
   * throws; once all were, `apply` (or `undo`) throws the first listener's error, the move
   * (or undo) made.
   */
  on<K extends GameEventName>(name: K, callback: Listener<K>): () => void {
    this.#live();
    checkOneOf('game event', name, Object.keys(this.#listeners));
    if (typeof callback !== 'function') throw new TypeError(`rulestack: on: callback must be a function, not ${shown(callback)}`);
    const set = this.#listeners[name] as Set<Listener<K>>;
    set.add(callback);
    return () => {
      set.delete(callback);
    };
  }

  /**
   * Frees the engine memory. Any later call (other than dispose) throws. A game lost in an
   * engine crash has nothing left to free: dispose() just forgets it.
   */
  dispose(): void {
    const e = engines.get(this);
    if (!e) return;
    engines.delete(this);
    registry?.unregister(this);
    for (const set of Object.values(this.#listeners)) set.clear();
    e.instance.free(e.session);
  }
}

/**
 * Makes every listener call `each` asks for, even when some throw; then throws the first
 * error thrown (the others are dropped), if any.
 */
function callEach(each: (call: (listener: () => void) => void) => void): void {
  let failed = false;
  let first: unknown;
  each((listener) => {
    try {
      listener();
    } catch (e) {
      if (!failed) {
        failed = true;
        first = e;
      }
    }
  });
  if (failed) throw first;
}

/** @internal A bot's kinds, and its levels (MCTS with a budget each). */
export const BOT_KINDS = ['random', 'mcts'] as const;
export const BOT_LEVELS = ['easy', 'normal', 'hard'] as const;

/** What a value that is not a Game is, for an error message: `null`, `a plain object`, `a Rulestack`. */
function notAGame(x: unknown): string {
  if (typeof x !== 'object' || x === null) return shown(x);
  if (Array.isArray(x)) return 'an array';
  const name = (Object.getPrototypeOf(x) as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  if (typeof name !== 'string' || name === '' || name === 'Object') return 'a plain object';
  // (made from this Game.prototype, but not by createGame or restore: Object.create(Game.prototype))
  if (x instanceof Game) return 'an object made from Game.prototype (not by createGame or restore)';
  // (a Game of another copy of the package: its games and sessions are that copy's)
  return name === 'Game' ? 'a Game of another copy of rulestack' : `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
}

/** A bot bound to a game: `choose(player)` returns the move it would make now. */
export class Bot {
  readonly game: Game;
  readonly options: Required<Pick<BotOptions, 'kind'>> & BotOptions;
  #calls = 0;

  /**
   * A TypeError for what is not a Game of this package, an Error for a disposed game; for the
   * options, a RangeError for an unknown level or kind, a TypeError for a seed that is not
   * one or an `omniscient` that is not a boolean.
   */
  constructor(game: Game, options: BotOptions = {}) {
    if (!(game instanceof Game) || !madeGames.has(game))
      throw new TypeError(`rulestack: bot: game must be a Game from createGame or restore, not ${notAGame(game)}`);
    if (game.disposed) throw disposedError();
    checkOptions<BotOptions>('bot', options, ['kind', 'level', 'seed', 'iterations', 'maxPlayoutMoves', 'omniscient']);
    const level = options.level;
    if (level !== undefined) checkOneOf('level', level, BOT_LEVELS);
    // (null is a value, not a key left out: refused as level's is)
    const kind = options.kind === undefined ? (level ? 'mcts' : 'random') : options.kind;
    checkOneOf('kind', kind, BOT_KINDS);
    checkBoolean('bot', 'omniscient', options.omniscient);
    if (options.seed !== undefined) botSeed(options.seed, 0); // (a TypeError now for a seed that is not one)
    for (const key of ['iterations', 'maxPlayoutMoves'] as const) if (options[key] !== undefined) countOption(key, options[key], 100_000);
    this.game = game;
    this.options = { ...options, kind };
  }

  /** The bot's move for the player (null when that player has no move). RangeError for an unknown player. */
  choose(player: PlayerRef): Move | null {
    if (this.game.disposed) throw disposedError();
    const id = checkPlayer(this.game, player);
    // Successive choices use successive seeds so a bot does not repeat itself.
    const seed = botSeed(this.options.seed ?? 0, this.#calls++);
    const opts: Record<string, unknown> = { kind: this.options.kind };
    for (const key of ['level', 'iterations', 'maxPlayoutMoves', 'omniscient'] as const)
      if (this.options[key] !== undefined) opts[key] = this.options[key];
    const optsJson = jsonWithSeed(opts, seed);
    const r = parseEngineJson<unknown>(callGame(this.game, 'bot.choose', (s) => s.botChoose(id, optsJson)), 'botChoose');
    if (r === null || r === undefined) return null;
    if (typeof r === 'object' && !Array.isArray(r) && 'error' in (r as object) && !('action' in (r as object)) && !('decision' in (r as object))) {
      throw new Error(boundedMessage(`rulestack bot: ${String((r as { error: unknown }).error)}`));
    }
    return r as Move;
  }
}

export type { EngineModule };
