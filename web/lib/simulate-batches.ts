// A simulate run cut into contiguous batches of seeds, and the batches' results merged, so
// that a run spread over workers gives exactly what one engine call gives: the engine plays
// game i with seed seed + i whatever the call it is in (session.cpp, simulate).
import { DefinitionError } from './errors.js';
import { locateIssues, type ParsedDefinition } from './definition.js';
import { parseEngineJson } from './game.js';
import type { SimulateOptions, SimulateResult } from './types.js';

/** Games `first` to `first + games - 1` of a run, the first with seed `seed`. */
export interface Batch {
  first: number;
  games: number;
  seed: number;
}

/** The most games an engine call plays (session.cpp clamps `games` to it). */
const MAX_CALL_GAMES = 1_000_000;

/**
 * The run's games and first seed as the engine reads the options' JSON (session.cpp:
 * `games` an integer clamped to 1..1000000, else 1; `seed` a finite number, floored, its
 * absolute value, at most 2^53 - 1, else 1), or undefined when they cannot be cut into
 * batches exactly (an integer beyond an int, or seeds past 2^53 - 1): then one call plays them.
 */
export function runOf(opts: SimulateOptions): { games: number; seed: number } | undefined {
  const g: unknown = opts.games;
  let games = 1;
  if (typeof g === 'number' && Number.isInteger(g)) {
    if (Math.abs(g) > 2 ** 31 - 1) return undefined;
    games = Math.max(1, Math.min(MAX_CALL_GAMES, g));
  }
  const s: unknown = opts.seed;
  const seed = typeof s === 'number' && Number.isFinite(s) ? Math.min(Math.abs(Math.floor(s)), Number.MAX_SAFE_INTEGER) : 1;
  if (seed + games - 1 > Number.MAX_SAFE_INTEGER) return undefined;
  return { games, seed };
}

/** The run cut into batches of at most `size` games, in game order. */
export function batchesOf(run: { games: number; seed: number }, size: number): Batch[] {
  const out: Batch[] = [];
  for (let first = 0; first < run.games; first += size) {
    out.push({ first, games: Math.min(size, run.games - first), seed: run.seed + first });
  }
  return out;
}

/** The engine's answer to one simulate call; the definition's errors throw DefinitionError. */
export function simulateAnswer(parsed: ParsedDefinition, text: string): SimulateResult {
  const r = parseEngineJson<SimulateResult & { errors?: unknown; outOfMemory?: boolean }>(text, 'simulate');
  // (the engine's memory is full: not the definition's fault)
  if (r.outOfMemory === true) throw new RangeError('rulestack: simulate: the engine is out of memory');
  if (Array.isArray(r.errors)) throw new DefinitionError(locateIssues(parsed, r.errors));
  return r;
}

/** The engine lists this many errored games per call. */
const LISTED_ERRORS = 20;

/**
 * The results of consecutive batches (in game order) as one call would give them: sums, the
 * mean length of the sums, the hashes in game order, the first 20 errored games numbered
 * across the batches. The keys in the engine's order (alphabetical: nlohmann's objects are maps).
 */
export function mergeResults(batches: Batch[], results: SimulateResult[]): SimulateResult {
  if (results.length === 1 && batches[0]!.first === 0) return results[0]!;
  let games = 0, moves = 0, draws = 0, unfinished = 0, errors = 0;
  const wins: Record<string, number> = {};
  const hashes: string[] = [];
  const errorList: NonNullable<SimulateResult['errorList']> = [];
  results.forEach((r, i) => {
    games += r.games;
    moves += r.moves;
    draws += r.draws;
    unfinished += r.unfinished ?? 0;
    errors += r.errors;
    for (const [p, n] of Object.entries(r.wins)) wins[p] = (wins[p] ?? 0) + n;
    if (r.hashes) hashes.push(...r.hashes);
    for (const e of r.errorList ?? []) {
      if (errorList.length < LISTED_ERRORS) errorList.push({ ...e, game: batches[i]!.first + e.game });
    }
  });
  return {
    draws,
    ...(errorList.length > 0 ? { errorList } : {}),
    errors,
    games,
    ...(results[0]?.hashes ? { hashes } : {}),
    meanLength: games ? moves / games : 0,
    moves,
    unfinished,
    wins,
  };
}
