// Seat keys: a resumed room gives a seat back only to a client that held it. Each seat of a
// new room that no bot plays from the start has a random key, sent to the client that takes
// the seat (rulestack/client's resumeKey); the record keeps only each key's sha256, so that
// whoever reads the record (or knows the room's id) cannot take a seat, its hidden cards and
// its log, with it.
import { createHash, randomBytes } from 'node:crypto';

const hashOf = (key) => createHash('sha256').update(key).digest('hex');

/** A new key for each seat: Map seat → key (128 random bits, base64url). */
export function newSeatKeys(seats) {
  return new Map(seats.map((seat) => [seat, randomBytes(16).toString('base64url')]));
}

/** What the record keeps of the keys: { seat: sha256 hex }. */
export function keyHashes(keys) {
  return Object.fromEntries([...keys].map(([seat, key]) => [seat, hashOf(key)]));
}

/** The seat whose key `key` is (by the record's hashes), or undefined. */
export function seatOfKey(hashes, key) {
  const hash = hashOf(key);
  return Object.keys(hashes ?? {}).find((seat) => hashes[seat] === hash);
}
