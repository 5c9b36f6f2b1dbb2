// Public JSON shapes of rulestack: views, moves, events, and the definition language.
// Everything is plain JSON. The definition types are deliberately loose: the engine
// validates a definition fully and reports errors with their JSON pointer.

/** A player id. Players are "0", "1", … ; the API also accepts numbers. */
export type PlayerId = string;
export type PlayerRef = string | number;

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

// ---------------------------------------------------------------- moves

/** Take an action (global or of an entity). */
export interface ActionMove {
  action: string;
  /** The entity whose action it is (entity actions). */
  source?: string;
  /** Chosen targets (entity ids or player ids). */
  targets?: string[];
  /** The chosen option of a "pick one" action (0-based). */
  mode?: number;
  /** The chosen X of an X cost. */
  x?: number;
  [extra: string]: unknown;
}

export interface PassMove {
  action: 'pass';
}

/** The answer to a pending decision (a triggered action, a choice). */
export interface DecisionMove {
  decision: string;
  accept?: boolean;
  targets?: string[];
  mode?: number;
  x?: number;
  [extra: string]: unknown;
}

export type Move = ActionMove | PassMove | DecisionMove;

// ---------------------------------------------------------------- events

/** One step of the game, as the engine logs it. `type` names the event. */
export interface GameEvent {
  type: string;
  [field: string]: unknown;
}

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
  id: string;
  template?: string;
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
  bot?: 'random' | 'mcts';
  seed?: number;
  iterations?: number;
  /** Also return each game's final state hash. */
  hashes?: boolean;
}

export interface SimulateResult {
  games: number;
  moves: number;
  wins: Record<PlayerId, number>;
  draws: number;
  /** Games that stopped at the engine's length limit without a result. */
  unfinished?: number;
  meanLength: number;
  errors: number;
  /** Each game's final state hash, when asked with `hashes: true`. */
  hashes?: string[];
}

export interface BotOptions {
  kind?: 'random' | 'mcts';
  seed?: number;
  iterations?: number;
}
