// How fast a client may send messages to a room: each message ('move', 'sync', any other)
// costs a token from its bucket (one per seat; one per remote address, shared by all its
// spectators in the room; each kept across reconnections), which holds `burst` tokens and
// refills at `perSecond`. Every move runs the engine and every answer computes views, so a
// client that sends faster is refused; a connection refused more than `floodRefusals` times
// within FLOOD_WINDOW_MS (a second bucket, of refusals, its own) is flooding, and is
// disconnected.
import net from 'node:net';

/** The defaults: more than a person sends, however fast they play. */
export const RATE_LIMIT = Object.freeze({ burst: 20, perSecond: 10, floodRefusals: 50 });
export const FLOOD_WINDOW_MS = 10_000;
/** How a flooding client's connection is closed: 1008, the WebSocket code for a policy violation. */
export const FLOOD_CLOSE_CODE = 1008;
export const FLOOD_CLOSE_REASON = 'rulestack room: too many messages, too fast';

/** { burst, perSecond, floodRefusals } from the defaults and what is given; an Error naming a bad one. */
export function rateLimit(given = {}) {
  return checkedLimits('rate', RATE_LIMIT, given);
}

/**
 * The `defaults` with what is given, each checked ('rate limit' or 'request limit' in the
 * errors): perSecond a number above 0 (a fraction too), every other a whole number from 1;
 * Infinity turns a limit off. An Error naming an unknown or bad one.
 */
export function checkedLimits(kind, defaults, given = {}) {
  const limits = { ...defaults, ...given };
  for (const [k, v] of Object.entries(limits)) {
    if (!(k in defaults)) throw new Error(`rulestack server: unknown ${kind} limit '${k}' (limits: ${Object.keys(defaults).join(', ')})`);
    const ok = typeof v === 'number' && (k === 'perSecond' ? v > 0 : v === Infinity || (Number.isSafeInteger(v) && v >= 1));
    if (!ok) throw new Error(`rulestack server: the ${kind} limit ${k} must be ${k === 'perSecond' ? 'a number above 0' : 'a whole number from 1'}, not ${JSON.stringify(v)}`);
  }
  return limits;
}

/** Colyseus's cap on a connection's frames a second (Room.maxMessagesPerSecond): only a client far past the limits meets it. */
export function hardCap({ burst, perSecond, floodRefusals }) {
  return 100 + 2 * (burst + perSecond + floodRefusals);
}

/**
 * A token bucket: holds at most `capacity` tokens and refills at `perSecond`. take() spends
 * one, if there is one.
 */
export class TokenBucket {
  #capacity;
  #perSecond;
  #tokens;
  #at;

  constructor(capacity, perSecond, now = performance.now()) {
    this.#capacity = capacity;
    this.#perSecond = perSecond;
    this.#tokens = capacity;
    this.#at = now;
  }

  take(now = performance.now()) {
    this.#refill(now);
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  /** Whether it holds `capacity` tokens again (then it is as a new bucket). */
  full(now = performance.now()) {
    this.#refill(now);
    return this.#tokens >= this.#capacity;
  }

  #refill(now) {
    // (no time passed adds nothing: 0 * Infinity would be NaN)
    if (now > this.#at) {
      this.#tokens = Math.min(this.#capacity, this.#tokens + ((now - this.#at) * this.#perSecond) / 1000);
      this.#at = now;
    }
  }
}

/** The bucket of messages a seat, or an address's spectators, may send: `burst` at once, then `perSecond`. */
export function messageTokens({ burst, perSecond }, now = performance.now()) {
  return new TokenBucket(burst, perSecond, now);
}

/**
 * One connection's budget: it spends the tokens it is given (its seat's, or those its
 * address's spectators share, which outlive the connection) and counts its own refusals, so
 * that only the client that floods is disconnected, never one that shares a bucket with it.
 */
export class MessageBudget {
  #tokens;
  #refusals; // refusals left before a flood, refilled at floodRefusals per window

  constructor(limits, now = performance.now(), tokens = messageTokens(limits, now)) {
    this.#tokens = tokens;
    this.#refusals = new TokenBucket(limits.floodRefusals, (limits.floodRefusals * 1000) / FLOOD_WINDOW_MS, now);
  }

  /** Spends a token for a message: 'ok', 'refused' (none left), or 'flood' (refused too often). */
  take(now = performance.now()) {
    if (this.#tokens.take(now)) return 'ok';
    return this.#refusals.take(now) ? 'refused' : 'flood';
  }
}

/**
 * Who a remote address is, for what its spectators share (their budget, their number in a
 * room): an IPv4 address as it is (an IPv4-mapped IPv6 one, ::ffff:a.b.c.d, as a.b.c.d),
 * an IPv6 address as its /64 (a host is commonly given a whole /64 and takes any address in
 * it at will), written 'x:x:x:x::/64'; 'unknown' without one.
 */
export function addressKey(address) {
  if (typeof address !== 'string' || !net.isIP(address.split('%')[0])) return 'unknown';
  const ip = address.split('%')[0]; // (a zone index, fe80::1%eth0, names the interface, not the host)
  if (net.isIPv4(ip)) return ip;
  const groups = ipv6Groups(ip);
  if (groups.slice(0, 6).every((g, i) => g === (i === 5 ? 0xffff : 0))) return `${groups[6] >> 8}.${groups[6] & 255}.${groups[7] >> 8}.${groups[7] & 255}`;
  return `${groups.slice(0, 4).map((g) => g.toString(16)).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address ('::' expanded, a trailing dotted IPv4 part as two groups). */
function ipv6Groups(ip) {
  const part = (text) =>
    text === ''
      ? []
      : text.split(':').flatMap((g) => {
          if (!g.includes('.')) return [parseInt(g, 16)];
          const [a, b, c, d] = g.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, null];
  const front = part(head);
  const back = tail === null ? [] : part(tail);
  return [...front, ...Array(8 - front.length - back.length).fill(0), ...back];
}
