// Public JSON shapes of rulestack: views, moves, events, and the definition language.
// Everything is plain JSON. The definition types are deliberately loose: the engine
// validates a definition fully and reports errors with their JSON pointer.

/** A player id. Players are "0", "1", … ; the API also accepts numbers. */
export type PlayerId = string;
export type PlayerRef = string | number;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// ---------------------------------------------------------------- moves
// `Move` is a discriminated union: `move.decision !== undefined`
// tells an answer from an action, `move.action === 'pass'` a pass from another action.

/** Passing priority. */
export interface PassMove {
  action: 'pass';
  source?: never;
  targets?: never;
  mode?: never;
  x?: never;
  decision?: never;
  accept?: never;
}

/** Taking an action (global or of an entity); each field only where the action has it. */
export interface ActionMove {
  /** The action's name (any name but `'pass'`, which is a PassMove). */
  action: string;
  /** The entity whose action it is (entity actions). */
  source?: string;
  /** Chosen targets (entity, zone, player or queue item ids). */
  targets?: string[];
  /** The chosen option of a "pick one" action (0-based). */
  mode?: number;
  /** The chosen X of an X cost. */
  x?: number;
  decision?: never;
  accept?: never;
}

/** The answer to a pending decision (a triggered action, a reaction, a discard). */
export interface DecisionMove {
  /** The decision's id, `d1`, `d2`, … */
  decision: string;
  /** `false` declines an optional decision; left out, `true` (legalMoves always writes it). */
  accept?: boolean;
  /** The chosen targets (for a discard: the discarded entities). */
  targets?: string[];
  action?: never;
  source?: never;
  mode?: never;
  x?: never;
}

export type Move = PassMove | ActionMove | DecisionMove;

// ---------------------------------------------------------------- events
// Every event of docs/language.md ("Events and triggers"), as `game.log()`, `apply` and the
// 'event' listeners give them: narrow on `type`.

interface EventBase {
  /** The queue item executing when it happened (`q<n>`). */
  cause?: string;
  /** Present on the `$Before` half of an event. */
  when?: 'before';
  cancelled?: boolean;
}

/** An action's events: `action` is its name, `item` the queue item (`q<n>`), `entity` its source. */
interface ActionEventBase extends EventBase {
  action: string;
  player: PlayerId;
  item: string;
  entity?: string;
}

export interface ActionPlayedEvent extends ActionEventBase {
  type: 'ActionPlayed';
  /** For a card taken with `play: true`: the zone it left for the queue (a zone id). */
  from?: string;
  /**
   * On the `$Before` half, for a reader who could not identify the card where it was (played
   * from another player's hidden hand): the handle they knew it by until now.
   */
  revealed?: string;
}
export interface ActionExecutedEvent extends ActionEventBase {
  type: 'ActionExecuted';
}
/** A named action's own event, before it executes. */
export interface BeforeActionEvent extends ActionEventBase {
  type: 'BeforeAction';
}
/** A named action's own event, after it executed. */
export interface AfterActionEvent extends ActionEventBase {
  type: 'AfterAction';
}
export interface ActionCancelledEvent extends EventBase {
  type: 'ActionCancelled';
  action?: string;
  player: PlayerId;
  item: string;
  entity?: string;
}
export interface OnZoneEnterEvent extends EventBase {
  type: 'OnZoneEnter';
  /**
   * The entity's id, or the handle (`"?3fa9c2d1"`) it had when it moved, for a reader who
   * could not identify it (a card drawn into another player's hand, shuffled, face down).
   */
  entity: string;
  /**
   * When this move showed the reader a card they could not identify where it was (a card
   * moved from a hidden zone to one they see): the handle they knew it by until now.
   */
  revealed?: string;
  /** The zone entered (a zone id). */
  zone: string;
  /** The zone left (absent for a created entity). */
  from?: string;
  player: PlayerId;
}
export interface DamageTakenEvent extends EventBase {
  type: 'DamageTaken';
  entity: string;
  damage_value: number;
  source?: string;
  player: PlayerId;
}
export interface PhaseExecuteEvent extends EventBase {
  type: 'PhaseExecute';
  phase: string;
  /** The active player. */
  player: PlayerId;
}
export interface TurnStartEvent extends EventBase {
  type: 'TurnStart';
  player: PlayerId;
  turn: number;
}
export interface DrawFailedEvent extends EventBase {
  type: 'DrawFailed';
  player: PlayerId;
}
export type GameOverEvent = EventBase & { type: 'GameOver' } & ({ winner: PlayerId; draw?: never } | { draw: true; winner?: never });
export interface PassEvent extends EventBase {
  type: 'Pass';
  player: PlayerId;
}
/**
 * A run-time error the game got past: the queue item it names (when it names one) was
 * cancelled instead (an `ActionCancelled` follows); with no item, the game ended in a draw
 * (a `GameOver` follows).
 */
export interface GameErrorEvent extends EventBase {
  type: 'GameError';
  reason: 'runtime_error' | 'loop_limit';
  message: string;
  /** The queue item that failed, its action (or reaction) and its controller. */
  item?: string;
  action?: string;
  player?: PlayerId;
}

/** One step of the game, as the engine logs it. Narrow on `type`. */
export type GameEvent =
  | ActionPlayedEvent
  | ActionExecutedEvent
  | ActionCancelledEvent
  | BeforeActionEvent
  | AfterActionEvent
  | OnZoneEnterEvent
  | DamageTakenEvent
  | PhaseExecuteEvent
  | TurnStartEvent
  | DrawFailedEvent
  | GameOverEvent
  | PassEvent
  | GameErrorEvent;

/** The event types: `'ActionPlayed' | 'OnZoneEnter' | …`. */
export type GameEventType = GameEvent['type'];

/** The event of one type: `EventOf<'TurnStart'>` is `TurnStartEvent`. */
export type EventOf<T extends GameEventType> = Extract<GameEvent, { type: T }>;

// ---------------------------------------------------------------- views

/**
 * One step of the resolution machine (`game.setTrace(true)`, then `game.steps()`): a
 * mutation of a list, an event's stage, an event's reactions, taking or executing an item.
 * `depth` is the nesting: a step at depth n+1 happens because of the step at depth n above
 * it. Everything is named: a designer's tool, not for a player's eyes.
 */
export interface ResolutionStep {
  step: 'mutation' | 'for_each' | 'event' | 'reactions' | 'take' | 'execute' | 'discard' | 'draw' | 'create' | 'chain' | 'priority';
  depth: number;
  list?: string;
  index?: number;
  event?: GameEvent;
  stage?: string | number;
  item?: string;
}

export type GameResult = null | { winner: PlayerId } | { draw: true };

export interface PlayerView {
  id: PlayerId;
  /** Derived values (effects applied). */
  properties?: { [name: string]: Json };
  [field: string]: unknown;
}

export interface EntityView {
  /** Its id, or a handle (`"?3fa9c2d1"`) for a viewer who may not identify it (face down). */
  id: string;
  /** For a face-down entity: its face-down template (public), not the card under it. */
  template?: string;
  /** Present (true) for an entity of a `face_down` template. */
  face_down?: true;
  type?: string;
  owner?: PlayerId | null;
  controller?: PlayerId | null;
  /** Derived values (effects applied). */
  properties?: { [name: string]: Json };
  [field: string]: unknown;
}

export interface ZoneView {
  owner?: PlayerId | null;
  /** Always present. */
  count: number;
  /** Present only where the viewer may see the entities (index 0 = top). */
  entities?: EntityView[];
  [field: string]: unknown;
}

export interface QueueItemView {
  id: string;
  action: string;
  player: PlayerId;
  source?: string | null;
  targets?: string[];
  mode?: number | null;
  x?: number | null;
  [field: string]: unknown;
}

export interface DecisionView {
  id: string;
  player: PlayerId;
  kind?: string;
  /** Absent to other players when the reaction is of a card they may not identify. */
  name?: string;
  optional?: boolean;
  targets?: string[];
  [field: string]: unknown;
}

/** What one player (or a spectator) may see. */
export interface GameView {
  game?: string;
  players: PlayerView[];
  /** Ids of the players who may act now. */
  toAct: PlayerId[];
  phase: string | null;
  turn: number;
  active?: PlayerId | null;
  priority?: PlayerId | null;
  /** The action queue, top first. */
  queue: QueueItemView[];
  /** Zones by id ("Board", or "Hand:0" for player 0's Hand). */
  zones: { [zoneId: string]: ZoneView };
  /** Pending decisions. */
  decisions?: DecisionView[];
  result: GameResult;
  [field: string]: unknown;
}

/** A serialized game state (opaque JSON; pass it to `rs.restore`). */
export type Snapshot = { [key: string]: unknown };

// ---------------------------------------------------------------- definition language
// Generated from schema/rulestack.schema.json (scripts/definition-types.mjs); see
// docs/language.md.
export type {
  Expression, Literal, Mutation, PlayersDefinition, SettingsDefinition, ZoneDefinition, EntityDefinition,
  ActionDefinition, XRange, ModeDefinition, TargetRequirement, ReactionDefinition, TriggeredActionDefinition,
  EffectDefinition, FlowDefinition, PhaseDefinition, EndCondition, GameDefinition,
} from './definition-types.js';

// ---------------------------------------------------------------- engine results

export interface ScenarioResult {
  ok: boolean;
  steps: number;
  failures: Array<{ step: number; message: string }>;
}

export interface SimulateOptions {
  games: number;
  /** 'random', 'mcts' (with `iterations`) or a level: MCTS with that level's budget. */
  bot?: 'random' | 'mcts' | BotLevel;
  seed?: number | null;
  iterations?: number;
  /** The most moves a game is played for (default and at most 100,000): one still on is unfinished. */
  maxMoves?: number;
  /** Also return each game's final state hash. */
  hashes?: boolean;
}

/** A batch of a parallel simulate, as `onProgress` is told of it. */
export interface SimulateBatch {
  /** Its first game's number in the run (from 0). */
  first: number;
  /** Its own result (its `errorList` numbered from 0 within the batch). */
  result: SimulateResult;
}

export interface ParallelSimulateOptions extends SimulateOptions {
  /** How many workers (default: the cores the platform reports); 1 plays in this thread. */
  workers?: number;
  /**
   * Games per engine call (default: with random bots an eighth of a worker's share, at most
   * 200; with MCTS 1). The result does not depend on it.
   */
  batch?: number;
  /** After each batch (in the order they end): games done, games in all, that batch. */
  onProgress?: ((done: number, total: number, batch: SimulateBatch) => void) | null;
}

export interface SimulateResult {
  games: number;
  moves: number;
  wins: Record<PlayerId, number>;
  draws: number;
  /** Games that stopped at the engine's length limit without a result. */
  unfinished: number;
  meanLength: number;
  errors: number;
  /** Each game's final state hash, when asked with `hashes: true`. */
  hashes?: string[];
  /**
   * When games ended in an engine error: the first 20 of them, each with its game number
   * (from 0), its seed and the engine's message.
   */
  errorList?: { game: number; seed: number; message: string }[];
}

/**
 * A game's seed: an integer (a safe integer, or a bigint from -2^63 to 2^63-1; each integer
 * is its own game) or a string (hashed to 64 bits). Anything else is refused.
 */
export type Seed = number | bigint | string;

/** Bot strengths for people: MCTS with a budget per move (see docs/api.md). */
export type BotLevel = 'easy' | 'normal' | 'hard';

export interface BotOptions {
  /** 'random' (the default without a level) or 'mcts'. */
  kind?: 'random' | 'mcts';
  /** A strength: MCTS with that level's iterations and playout length (kind and iterations override it). */
  level?: BotLevel;
  /** The first choice's seed (default 0): a safe-integer number or a bigint from -2^63 to 2^63-1. */
  seed?: number | bigint;
  /** MCTS iterations per move. */
  iterations?: number;
  /** The longest MCTS playout, in moves (a longer one counts as a draw). */
  maxPlayoutMoves?: number;
  /**
   * For tests only: search the true state, hidden cards included. By default a bot for a
   * player decides from what that player may know (information-set MCTS).
   */
  omniscient?: boolean;
}
