// The options objects of the API's calls: a key the call does not take (a typo such as
// `sed` for `seed`, which would silently draw a random seed) is an error that names the
// call and the keys it takes, as the engine's loader does for a definition's keys.

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
      throw new RangeError(`rulestack: ${what}: unknown option '${key}' (options: ${allowed.join(', ')})${hint}`);
}
