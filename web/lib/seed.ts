// Seeds as the engine reads them (engine/src/seed.h): a safe-integer number, a bigint from
// -2^63 to 2^63-1 or a string; games take all three, bots the integers.
import { shownText } from './options.js';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The seed as the engine reads it (JSON text); a TypeError for anything that is not one. */
export function seedJson(seed: unknown): string {
  if (typeof seed === 'string') return JSON.stringify(seed);
  if (typeof seed === 'number') {
    if (Number.isSafeInteger(seed)) return String(seed);
    throw new TypeError(
      `rulestack: invalid seed: ${shownText(seed)} (a seed is a safe integer, a bigint or a string: ${
        Number.isInteger(seed) ? 'beyond 2^53 a number is not exact, pass a bigint or a string' : 'not an integer'
      })`,
    );
  }
  if (typeof seed === 'bigint') {
    if (seed >= INT64_MIN && seed <= INT64_MAX) return seed.toString();
    throw new TypeError(`rulestack: invalid seed: ${shownText(seed)}n (a bigint seed is from -2^63 to 2^63-1)`);
  }
  throw new TypeError(`rulestack: invalid seed: ${shownText(seed)} (a seed is an integer or a string)`);
}

/**
 * `fields` as JSON text with a `"seed"` after them, written as the engine reads it (a bigint
 * has no JSON of its own); a TypeError for a seed that is not one.
 */
export function jsonWithSeed(fields: object, seed: unknown): string {
  const rest = JSON.stringify(fields);
  return `${rest.slice(0, -1)}${rest === '{}' ? '' : ','}"seed":${seedJson(seed)}}`;
}

/**
 * The seed of a bot's `calls`-th choice: `seed + calls`, as a number while that is exact, else
 * as a 64-bit bigint (past 2^63 - 1 it wraps to -2^63, as the engine's 64-bit seeds do).
 * A TypeError for a seed that is not an integer seed.
 */
export function botSeed(seed: number | bigint, calls: number): number | bigint {
  if (typeof seed === 'number' && Number.isSafeInteger(seed) && Number.isSafeInteger(seed + calls)) return seed + calls;
  if (typeof seed !== 'bigint' && typeof seed !== 'number') {
    throw new TypeError(`rulestack: invalid bot seed: ${shownText(seed)} (a bot seed is a safe integer or a bigint)`);
  }
  if (typeof seed === 'number' && !Number.isSafeInteger(seed))
    throw new TypeError(`rulestack: invalid bot seed: ${shownText(seed)} (a bot seed is a safe integer or a bigint: ${
      Number.isInteger(seed) ? 'beyond 2^53 a number is not exact, pass a bigint' : 'not an integer'})`);
  seedJson(seed); // (the message for a bigint out of range)
  return BigInt.asIntN(64, BigInt(seed) + BigInt(calls));
}
