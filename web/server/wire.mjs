// What a client sends, as the room reads it: frames that are not msgpack, 64-bit integers
// (msgpack's uint64/int64, which msgpackr decodes as BigInt: a client in another language
// sends them for any integer of 2^32 or more), and a value to quote in an answer.
import { Protocol } from '@colyseus/core';
import { decode } from '@colyseus/schema';
// (the decoder Colyseus itself reads messages with: one of its dependencies)
import { unpack } from 'msgpackr';

/** The low bits of a frame's first byte: its protocol code (Colyseus's PROTOCOL_CODE_MASK). */
const CODE_MASK = 0x1f;
/** How deep numbers are looked for: the engine refuses a move nested deeper anyway. */
const MAX_DEPTH = 256;
/** How much of a value an answer quotes. */
const MAX_QUOTE = 200;

/**
 * Why a message frame (ROOM_DATA, or ROOM_REQUEST) cannot be read — its payload is not
 * msgpack, truncated, or nested deeper than the decoder's stack — or null when it can (or is
 * another kind of frame). Decoded as Colyseus decodes it, which would print the decoder's
 * stack and close the connection without a reason.
 */
export function frameFault(buffer) {
  const code = buffer?.[0] & CODE_MASK;
  if (code !== Protocol.ROOM_DATA && code !== Protocol.ROOM_REQUEST) return null;
  const it = { offset: 1 };
  try {
    if (code === Protocol.ROOM_REQUEST) decode.number(buffer, it); // (the request's id)
    if (decode.stringCheck(buffer, it)) decode.string(buffer, it);
    else decode.number(buffer, it);
    if (buffer.byteLength > it.offset) unpack(buffer.subarray(it.offset, buffer.byteLength));
    return null;
  } catch (e) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) return 'nested too deep';
    return String(e?.message ?? e).split('\n')[0];
  }
}

/**
 * The value with each BigInt that is a safe integer turned into a number (what the same
 * integer is when a JavaScript client sends it); a larger one stays a BigInt, which no check
 * for an integer accepts. Arrays and plain objects are copied, to MAX_DEPTH.
 */
export function withSafeIntegers(value, depth = 0) {
  if (typeof value === 'bigint') return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return value;
  if (Array.isArray(value)) return value.map((v) => withSafeIntegers(v, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value; // (a Buffer, a Date: as they are)
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSafeIntegers(v, depth + 1)]));
}

/** A value as an answer quotes it: JSON (a BigInt as its digits), cut to MAX_QUOTE; never throws. */
export function quote(value) {
  let text;
  try {
    text = JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(value);
  } catch {
    text = '(a value too deeply nested to show)';
  }
  return text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
}
