// The options objects of the API's calls: a key the call does not take (a typo such as
// `sed` for `seed`, which would silently draw a random seed) is an error that names the
// call and the keys it takes, as the engine's loader does for a definition's keys. And the
// checks of single options that several calls share, each in one form wherever it is used.

import { clipped } from './errors.js';

/**
 * A value as an error message shows it: a string quoted, a bigint with its `n`; past 100
 * characters, its first 100, `…` and its length (see `clipped`).
 */
export function shown(v: unknown): string {
  if (typeof v === 'bigint') return clipped(`${v}n`);
  if (typeof v === 'number') return String(v); // (NaN and Infinity, which JSON writes as null)
  if (typeof v === 'string') return JSON.stringify(clipped(v));
  try {
    return clipped(JSON.stringify(v) ?? String(v));
  } catch {
    return Object.prototype.toString.call(v); // (a cycle)
  }
}

/** A value's `String()` as an error message shows it: past 100 characters, shortened (see `clipped`). */
export function shownText(v: unknown): string {
  return clipped(String(v));
}

/**
 * Nothing when `opts` is undefined or an object of `allowed` keys, else a TypeError or
 * RangeError (`hint`: said after the keys).
 */
export function checkOptions<T extends object>(what: string, opts: unknown, allowed: readonly (keyof T & string)[], hint = ''): void {
  if (opts === undefined) return;
  if (typeof opts !== 'object' || opts === null || Array.isArray(opts))
    throw new TypeError(`rulestack: ${what} options must be an object, not ${opts === null ? 'null' : Array.isArray(opts) ? 'an array' : typeof opts}`);
  for (const key of Object.keys(opts))
    if (!(allowed as readonly string[]).includes(key))
      throw new RangeError(`rulestack: ${what}: unknown option '${clipped(key)}' (options: ${allowed.join(', ')})${hint}`);
}

/** Nothing when `value` is undefined or a boolean, else a TypeError naming the call and the option. */
export function checkBoolean(what: string, name: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'boolean') throw new TypeError(`rulestack: ${what}: ${name} must be true or false, not ${shown(value)}`);
}

/** Nothing when `value` is one of `allowed`, else a RangeError naming the option and listing them. */
export function checkOneOf(name: string, value: unknown, allowed: readonly string[]): void {
  if (!allowed.includes(value as string)) throw new RangeError(`rulestack: invalid ${name}: ${shown(value)} (${allowed.join(', ')})`);
}

/** An integer from 1 to max (a count of workers, games or iterations), else a RangeError naming the option. */
export function countOption(name: string, x: unknown, max: number): number {
  if (typeof x !== 'number' || !Number.isInteger(x) || x < 1 || x > max)
    throw new RangeError(`rulestack: invalid ${name}: ${shownText(x)} (an integer from 1 to ${max})`);
  return x;
}
