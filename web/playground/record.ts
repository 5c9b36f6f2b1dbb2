// A game as a file: the definition text, the seed and the moves, which replay it exactly (the
// engine is deterministic). "Export game" writes one, "Import game" reads one (replay.ts), and
// the page keeps the game in progress in the same shape (persist.ts). Each move is a line of
// the command line's moves file: `{ "player": "0", "move": { ... } }`.
import type { Game, Move, Seed } from 'rulestack';
import { definitionName } from './examples.js';

export const RECORD_FORMAT = 'rulestack-game';
export const RECORD_VERSION = 1;

export interface RecordedMove {
  player: string;
  move: Move;
}

export interface GameRecord {
  format: typeof RECORD_FORMAT;
  version: typeof RECORD_VERSION;
  /** The definition as it was loaded (YAML or JSON text). */
  definition: string;
  /** A seed as JSON holds it: a safe integer, a string, or `{ "bigint": "<digits>" }`. */
  seed: SeedJson;
  moves: RecordedMove[];
  /** game.stateHash() after the moves, when written: a replay that ends elsewhere says so. */
  stateHash?: string;
}

export type SeedJson = number | string | { bigint: string };

/** Bad input: `where` is the place in the file (e.g. "moves[2].player"), `message` why. */
export class RecordError extends Error {
  constructor(
    readonly where: string,
    message: string,
  ) {
    super(where ? `${where}: ${message}` : message);
    this.name = 'RecordError';
  }
}

export function seedToJson(seed: Seed): SeedJson {
  return typeof seed === 'bigint' ? { bigint: seed.toString() } : seed;
}

export function seedFromJson(seed: SeedJson): Seed {
  return typeof seed === 'object' ? BigInt(seed.bigint) : seed;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function checkSeed(v: unknown, where: string): SeedJson {
  if (typeof v === 'string') return v;
  if (typeof v === 'number' && Number.isSafeInteger(v)) return v;
  if (isObject(v) && typeof v.bigint === 'string' && /^-?\d+$/.test(v.bigint)) return { bigint: v.bigint };
  throw new RecordError(where, 'a seed is a safe integer, a string or { "bigint": "<digits>" }');
}

/** The moves of a record or a kept game: an array of { player: string, move: object }. */
export function checkMoves(v: unknown, where: string): RecordedMove[] {
  if (!Array.isArray(v)) throw new RecordError(where, 'must be an array of { "player", "move" }');
  return v.map((m, i) => {
    const at = `${where}[${i}]`;
    if (!isObject(m)) throw new RecordError(at, 'must be an object { "player", "move" }');
    if (typeof m.player !== 'string' || m.player === '') throw new RecordError(`${at}.player`, 'must be a player id (a non-empty string)');
    if (!isObject(m.move)) throw new RecordError(`${at}.move`, 'must be a move object, e.g. { "action": "Mark", "targets": ["C"] }');
    return { player: m.player, move: m.move as unknown as Move };
  });
}

/** Reads a game file; a RecordError says where and why it will not do. */
export function parseRecord(text: string): GameRecord {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new RecordError('', `not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isObject(data)) throw new RecordError('', `must be a JSON object with "format": "${RECORD_FORMAT}"`);
  if (data.format !== RECORD_FORMAT) throw new RecordError('format', `must be "${RECORD_FORMAT}" (this is not a game exported by the playground)`);
  if (data.version !== RECORD_VERSION) throw new RecordError('version', `must be ${RECORD_VERSION} (got ${JSON.stringify(data.version)})`);
  if (typeof data.definition !== 'string' || data.definition.trim() === '') throw new RecordError('definition', 'must be the definition text (YAML or JSON)');
  if (!('seed' in data)) throw new RecordError('seed', 'is missing');
  const seed = checkSeed(data.seed, 'seed');
  const moves = checkMoves(data.moves, 'moves');
  if (data.stateHash !== undefined && (typeof data.stateHash !== 'string' || !/^[0-9a-f]{16}$/.test(data.stateHash))) {
    throw new RecordError('stateHash', 'must be 16 lowercase hex digits (game.stateHash())');
  }
  const record: GameRecord = { format: RECORD_FORMAT, version: RECORD_VERSION, definition: data.definition, seed, moves };
  if (typeof data.stateHash === 'string') record.stateHash = data.stateHash;
  return record;
}

export function makeRecord(definition: string, seed: Seed, moves: RecordedMove[], stateHash?: string): GameRecord {
  const r: GameRecord = { format: RECORD_FORMAT, version: RECORD_VERSION, definition, seed: seedToJson(seed), moves: moves.map((m) => ({ ...m })) };
  if (stateHash !== undefined) r.stateHash = stateHash;
  return r;
}

/** "1 move", "7 moves". */
export const movesText = (n: number) => `${n} move${n === 1 ? '' : 's'}`;

/** "Move 3 of 7 (player 1: {"action":"Mark","targets":["C"]})": how a message names a move. */
export function describeMove(moves: readonly RecordedMove[], i: number): string {
  const m = moves[i]!;
  return `move ${i + 1} of ${moves.length} (player ${m.player}: ${JSON.stringify(m.move)})`;
}

/**
 * The moves applied to a game so far, in order, kept from its 'move' and 'undo' events (the
 * page's own undo, the bot's moves and a replay's all count). `onChange` after each.
 */
export class MoveTrail {
  readonly moves: RecordedMove[] = [];
  readonly #off: Array<() => void>;

  constructor(game: Game, onChange: () => void) {
    this.#off = [
      game.on('move', (r) => {
        this.moves.push({ player: r.player, move: r.move });
        onChange();
      }),
      game.on('undo', () => {
        this.moves.pop();
        onChange();
      }),
    ];
  }

  /** Stops following the game (a new game was loaded). */
  detach(): void {
    for (const off of this.#off) off();
  }
}

/** Saves text as a file the browser downloads. */
export function download(fileName: string, text: string, type = 'application/json'): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A file name from the game's name: "tic-tac-toe-game.json". */
export function recordFileName(definition: string): string {
  const base = (definitionName(definition) ?? 'rulestack').toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'rulestack';
  return `${base}-game.json`;
}
