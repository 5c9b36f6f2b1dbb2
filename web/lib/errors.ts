// Typed errors thrown by the rulestack API.
import type { Move, PlayerId } from './types.js';

/** One problem in a definition. `path` is a JSON pointer into the definition;
 * `line`/`column` (1-based) are set when the definition was YAML text (and for
 * syntax errors in JSON text). */
export interface DefinitionIssue {
  path: string;
  message: string;
  line?: number;
  column?: number;
}

function summarize(errors: DefinitionIssue[]): string {
  if (errors.length === 0) return 'invalid definition';
  const first = errors[0]!;
  const at = first.line !== undefined ? ` (line ${first.line}, column ${first.column ?? 1})` : '';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `invalid definition: ${first.path || '/'}: ${first.message}${at}${more}`;
}

/** The definition (or a snapshot) could not be loaded. */
export class DefinitionError extends Error {
  readonly errors: DefinitionIssue[];
  constructor(errors: DefinitionIssue[], message?: string) {
    super(message ?? summarize(errors));
    this.name = 'DefinitionError';
    this.errors = errors;
  }
}

/** A move that is not legal now. The game state is unchanged. */
export class IllegalMoveError extends Error {
  /** Machine-readable reason from the engine, e.g. "not_your_priority". */
  readonly reason: string;
  readonly move: Move;
  readonly player: PlayerId;
  constructor(reason: string, message: string, move: Move, player: PlayerId) {
    super(message || reason);
    this.name = 'IllegalMoveError';
    this.reason = reason;
    this.move = move;
    this.player = player;
  }
}

/** A snapshot that the engine cannot restore (for this definition). */
export class SnapshotError extends Error {
  readonly errors: DefinitionIssue[];
  constructor(errors: DefinitionIssue[]) {
    super(`invalid snapshot: ${errors.map((e) => (e.path ? `${e.path}: ${e.message}` : e.message)).join('; ') || 'rejected'}`);
    this.name = 'SnapshotError';
    this.errors = errors;
  }
}

/**
 * The wasm engine crashed (a trap: `WebAssembly.RuntimeError` such as "unreachable" or
 * "memory access out of bounds", a stack overflow inside it, or a C++ exception that escaped
 * it). That module instance may be corrupt, so it is dropped and the next call starts a fresh
 * one; the games whose state lived in it are lost: restore them from a snapshot
 * (`rs.restore(definition, snapshot)`). `cause` is the original error.
 */
export class EngineCrashedError extends Error {
  /** true: this call crashed the engine; false: a game used after its engine was restarted. */
  readonly crashedNow: boolean;
  constructor(message: string, crashedNow: boolean, cause: unknown) {
    super(message, { cause });
    this.name = 'EngineCrashedError';
    this.crashedNow = crashedNow;
  }
}
