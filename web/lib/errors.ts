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

/** The most characters of a value an error message echoes (see `clipped`). */
export const ECHO_MAX = 100;
/** The most characters of an error message (past it, `boundedMessage` shortens it). */
export const MESSAGE_MAX = 1000;

/**
 * A value's text as an error message echoes it: as it is up to 100 characters, else its
 * first 100, `…` and its length (`xxxx… (10000000 characters)`), so that a huge input does not
 * make a huge message (a log filled by one bad request).
 */
export function clipped(text: string, max = ECHO_MAX): string {
  if (text.length <= max) return text;
  // (a surrogate pair is not cut in half)
  const end = /[\uD800-\uDBFF]/.test(text[max - 1]!) ? max - 1 : max;
  return `${text.slice(0, end)}… (${text.length} characters)`;
}

/**
 * An error message bounded: each of `values` (strings the caller gave, which the message may
 * echo) longer than 100 characters is shortened where it appears (see `clipped`); then a
 * message still longer than 1000 characters has each quoted part (`'…'`) longer than 100
 * shortened, and what is still too long is cut at 1000 characters. A message of ordinary
 * input is left as it is.
 */
export function boundedMessage(message: string, values: readonly string[] = []): string {
  for (const v of values) if (v.length > ECHO_MAX && message.includes(v)) message = message.split(v).join(clipped(v));
  if (message.length <= MESSAGE_MAX) return message;
  message = message.replace(/'([^']{101,})'/g, (_, v: string) => `'${clipped(v)}'`);
  return clipped(message, MESSAGE_MAX);
}

/** The strings of a move a message about it may echo: its keys, its string values, and those in its lists (targets). */
function moveStrings(move: unknown, player: unknown): string[] {
  const found: string[] = typeof player === 'string' ? [player] : [];
  if (typeof move === 'string') found.push(move);
  if (typeof move !== 'object' || move === null || Array.isArray(move)) return found;
  const add = (v: unknown) => {
    if (typeof v === 'string') found.push(v);
  };
  try {
    for (const [k, v] of Object.entries(move)) {
      add(k);
      add(v);
      if (Array.isArray(v)) for (const x of v.slice(0, 1000)) add(x);
    }
  } catch {
    // (a proxy or a getter that throws: the messages are bounded anyway)
  }
  return found.sort((a, b) => b.length - a.length); // (the longest first: a value within another is found in it)
}

/** A JSON pointer as an error message shows it: each name in it longer than 100 characters shortened (see `clipped`). */
export function clippedPath(path: string): string {
  return path.length <= ECHO_MAX ? path : path.split('/').map((name) => clipped(name)).join('/');
}

function summarize(errors: DefinitionIssue[]): string {
  if (errors.length === 0) return 'invalid definition';
  const first = errors[0]!;
  const at = first.line !== undefined ? ` (line ${first.line}, column ${first.column ?? 1})` : '';
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
  return `invalid definition: ${clippedPath(first.path) || '/'}: ${boundedMessage(first.message)}${at}${more}`;
}

/** The definition (or a snapshot) could not be loaded. */
export class DefinitionError extends Error {
  readonly errors: DefinitionIssue[];
  constructor(errors: DefinitionIssue[], message?: string) {
    super(boundedMessage(message ?? summarize(errors)));
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
    super(boundedMessage(message || String(reason), moveStrings(move, player)));
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
    super(boundedMessage(`invalid snapshot: ${errors.map((e) => (e.path ? `${clippedPath(e.path)}: ${e.message}` : e.message)).join('; ') || 'rejected'}`));
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
    super(boundedMessage(message), { cause });
    this.name = 'EngineCrashedError';
    this.crashedNow = crashedNow;
  }
}
