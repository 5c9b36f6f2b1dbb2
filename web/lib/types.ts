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

export type GameResult = null | { winner: PlayerId } | { draw: true };

export interface PlayerView {
  id: PlayerId;
  [field: string]: unknown;
}

export interface EntityView {
  id: string;
  [field: string]: unknown;
}

export interface ZoneView {
  /** Entities in the zone (or, for hidden zones, what the viewer may see of them). */
  entities?: Array<EntityView | string>;
  [field: string]: unknown;
}

export interface QueueItemView {
  [field: string]: unknown;
}

/** What one player (or a spectator) may see. */
export interface GameView {
  players: PlayerView[];
  /** Ids of the players who may act now. */
  toAct: PlayerId[];
  phase: string | null;
  turn: number;
  /** The action queue, top first. */
  queue: QueueItemView[];
  zones: Record<string, ZoneView> | ZoneView[];
  result: GameResult;
  [field: string]: unknown;
}

/** A serialized game state (opaque JSON; pass it to `rs.restore`). */
export type Snapshot = { [key: string]: unknown };

// ---------------------------------------------------------------- definition language

/** A mutation, trigger, requirement… written in the definition language. */
export type DefinitionNode = { [key: string]: unknown };

export interface PlayersDefinition {
  count?: number;
  min?: number;
  max?: number;
  [key: string]: unknown;
}

export interface ZoneDefinition {
  name?: string;
  [key: string]: unknown;
}

export interface EntityDefinition {
  name?: string;
  [key: string]: unknown;
}

export interface ActionDefinition {
  name?: string;
  cost?: unknown;
  requires_target?: unknown;
  mutations?: unknown[];
  queue?: boolean;
  [key: string]: unknown;
}

export interface TriggeredActionDefinition extends ActionDefinition {
  trigger?: unknown;
  optional?: boolean;
}

/**
 * A game written in the rulestack language (see docs/language.md).
 * Loose on purpose: the engine is the validator.
 */
export interface GameDefinition {
  name?: string;
  players?: number | PlayersDefinition | unknown[];
  settings?: { [key: string]: unknown };
  zones?: ZoneDefinition[] | { [name: string]: ZoneDefinition };
  entities?: EntityDefinition[] | { [name: string]: EntityDefinition };
  setup?: unknown;
  flow?: unknown;
  actions?: ActionDefinition[] | { [name: string]: ActionDefinition };
  triggered_actions?: TriggeredActionDefinition[] | { [name: string]: TriggeredActionDefinition };
  end_conditions?: unknown[];
  [key: string]: unknown;
}

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
}

export interface SimulateResult {
  games: number;
  moves: number;
  wins: Record<PlayerId, number>;
  draws: number;
  meanLength: number;
  errors: number;
}

export interface BotOptions {
  kind?: 'random' | 'mcts';
  seed?: number;
  iterations?: number;
}
