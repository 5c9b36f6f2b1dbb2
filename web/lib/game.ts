// Game: one running game over an engine Session. Bot: a bot bound to a game.
import type { EngineModule, Session } from './wasm/engine.mjs';
import { IllegalMoveError } from './errors.js';
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

/** Stringifies a player id: 0 → "0". */
export function playerId(player: PlayerRef | undefined | null): PlayerId {
  if (player === undefined || player === null) return '';
  if (typeof player === 'number') {
    if (!Number.isInteger(player) || player < 0) throw new TypeError(`invalid player id: ${player}`);
    return String(player);
  }
  if (typeof player !== 'string') throw new TypeError(`invalid player id: ${String(player)}`);
  return player;
}

// Deletes the C++ session of a game that was garbage-collected without dispose().
const registry: FinalizationRegistry<Session> | undefined =
  typeof FinalizationRegistry === 'function'
    ? new FinalizationRegistry<Session>((session) => {
        try {
          if (!session.isDeleted()) session.delete();
        } catch {
          // the module may be gone; nothing to do
        }
      })
    : undefined;

// The live session of each game; a disposed game has none.
const sessions = new WeakMap<Game, Session>();

/** @internal used by Rulestack and Bot. */
export function sessionOf(game: Game): Session {
  const s = sessions.get(game);
  if (!s) throw new Error('this game has been disposed');
  return s;
}

function parseJson<T>(text: string, what: string): T {
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
  #listeners: { [K in GameEventName]: Set<Listener<K>> } = {
    event: new Set(),
    move: new Set(),
    undo: new Set(),
  };

  /** @internal use rs.createGame / rs.restore. */
  constructor(session: Session, definitionJson: string, seed: Seed | null) {
    sessions.set(this, session);
    this.definitionJson = definitionJson;
    this.seed = seed;
    registry?.register(this, session, this);
  }

  get disposed(): boolean {
    return !sessions.has(this);
  }

  #s(): Session {
    const s = sessions.get(this);
    if (!s) throw new Error('rulestack: this game has been disposed');
    return s;
  }

  /** What the player may see; without a player, the spectator view. */
  view(player?: PlayerRef): GameView {
    return parseJson<GameView>(this.#s().view(playerId(player)), 'view');
  }

  /** Every move the player may make now, each fully specified. */
  legalMoves(player: PlayerRef): Move[] {
    return parseJson<Move[]>(this.#s().legalMoves(playerId(player)), 'legalMoves');
  }

  /** Performs the move and returns its events. Throws IllegalMoveError (state unchanged). */
  apply(player: PlayerRef, move: Move): GameEvent[] {
    const s = this.#s();
    const id = playerId(player);
    if (typeof move !== 'object' || move === null || Array.isArray(move)) {
      throw new IllegalMoveError('bad_move', 'a move must be a JSON object', move, id);
    }
    let moveJson: string;
    try {
      moveJson = JSON.stringify(move);
    } catch (e) {
      throw new IllegalMoveError('bad_move', `the move is not JSON-serializable: ${String(e)}`, move, id);
    }
    const r = parseJson<{ ok: boolean; events?: GameEvent[]; steps?: ResolutionStep[]; reason?: string; message?: string }>(
      s.apply(id, moveJson),
      'apply',
    );
    if (!r.ok) throw new IllegalMoveError(r.reason ?? 'illegal', r.message ?? '', move, id);
    this.#steps = r.steps ?? [];
    const events = r.events ?? [];
    this.#emit('event', events);
    if (this.#listeners.move.size > 0) {
      const record: MoveRecord = { player: id, move, events };
      for (const cb of [...this.#listeners.move]) cb(record);
    }
    return events;
  }

  /**
   * Records every step of the resolution machine from now on (off: nothing is recorded, at
   * no cost). `steps()` then returns those of the last applied move.
   */
  setTrace(on: boolean): void {
    this.#s().setTrace(on);
    if (!on) this.#steps = [];
  }

  /** The resolution steps of the last applied move, while tracing (see `setTrace`). */
  steps(): ResolutionStep[] {
    return this.#steps;
  }

  #steps: ResolutionStep[] = [];

  /** Goes back to the state before the last applied move. False when there is none. */
  undo(): boolean {
    const ok = this.#s().undo();
    if (ok) for (const cb of [...this.#listeners.undo]) cb(undefined);
    return ok;
  }

  /**
   * Every event so far. Without an argument, the full record (for replays and tools); with a
   * player, as that player may see it, and with `null` as a spectator may: a card that moves
   * between zones hidden from them is not named (`entity: null`).
   */
  log(player?: PlayerRef | null): GameEvent[] {
    const s = this.#s();
    const text = player === undefined ? s.log() : s.logFor(player === null ? '' : playerId(player));
    return parseJson<GameEvent[]>(text, 'log');
  }

  /** 16 lowercase hex digits; equal states have equal hashes (natively and in wasm). */
  stateHash(): string {
    return this.#s().stateHash();
  }

  /** The whole state as JSON; `rs.restore(definition, snapshot)` brings it back. */
  snapshot(): Snapshot {
    return parseJson<Snapshot>(this.#s().snapshot(), 'snapshot');
  }

  /**
   * Subscribes to 'event' (each event apply returns), 'move' (each applied move) or
   * 'undo'. Returns a function that unsubscribes.
   */
  on<K extends GameEventName>(name: K, callback: Listener<K>): () => void {
    const set = this.#listeners[name] as Set<Listener<K>> | undefined;
    if (!set) throw new TypeError(`unknown game event: ${String(name)}`);
    if (typeof callback !== 'function') throw new TypeError('callback must be a function');
    set.add(callback);
    return () => {
      set.delete(callback);
    };
  }

  /** Frees the engine memory. Any later call (other than dispose) throws. */
  dispose(): void {
    const s = sessions.get(this);
    if (!s) return;
    sessions.delete(this);
    registry?.unregister(this);
    for (const set of Object.values(this.#listeners)) set.clear();
    if (!s.isDeleted()) s.delete();
  }

  #emit(name: 'event', events: GameEvent[]): void {
    const set = this.#listeners[name];
    if (set.size === 0) return;
    const cbs = [...set];
    for (const ev of events) for (const cb of cbs) cb(ev);
  }
}

/** A bot bound to a game: `choose(player)` returns the move it would make now. */
export class Bot {
  readonly game: Game;
  readonly options: Required<Pick<BotOptions, 'kind'>> & BotOptions;
  #calls = 0;

  constructor(game: Game, options: BotOptions = {}) {
    const level = options.level;
    if (level !== undefined && level !== 'easy' && level !== 'normal' && level !== 'hard')
      throw new TypeError(`unknown bot level: ${String(level)} (easy, normal or hard)`);
    const kind = options.kind ?? (level ? 'mcts' : 'random');
    if (kind !== 'random' && kind !== 'mcts') throw new TypeError(`unknown bot kind: ${String(kind)}`);
    this.game = game;
    this.options = { ...options, kind };
  }

  /** The bot's move for the player (null when that player has no move). */
  choose(player: PlayerRef): Move | null {
    const s = sessionOf(this.game);
    // Successive choices use successive seeds so a bot does not repeat itself.
    const seed = (this.options.seed ?? 0) + this.#calls++;
    const opts: Record<string, unknown> = { kind: this.options.kind, seed };
    for (const key of ['level', 'iterations', 'maxPlayoutMoves', 'omniscient'] as const)
      if (this.options[key] !== undefined) opts[key] = this.options[key];
    const r = parseJson<unknown>(s.botChoose(playerId(player), JSON.stringify(opts)), 'botChoose');
    if (r === null || r === undefined) return null;
    if (typeof r === 'object' && !Array.isArray(r) && 'error' in (r as object) && !('action' in (r as object)) && !('decision' in (r as object))) {
      throw new Error(`rulestack bot: ${String((r as { error: unknown }).error)}`);
    }
    return r as Move;
  }
}

export type { EngineModule };
