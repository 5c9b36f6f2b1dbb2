// How fast a client may send messages to a room: each message ('move', 'sync', any other)
// costs a token from its bucket (one per seat, one for all the spectators), which holds
// `burst` tokens and refills at `perSecond`. Every move runs the engine and every answer
// computes views, so a client that sends faster is refused; one refused more than
// `floodRefusals` times within FLOOD_WINDOW_MS (a second bucket, of refusals, refilled at
// floodRefusals per window) is flooding, and is disconnected.

/** The defaults: more than a person sends, however fast they play. */
export const RATE_LIMIT = Object.freeze({ burst: 20, perSecond: 10, floodRefusals: 50 });
export const FLOOD_WINDOW_MS = 10_000;
/** How a flooding client's connection is closed: 1008, the WebSocket code for a policy violation. */
export const FLOOD_CLOSE_CODE = 1008;
export const FLOOD_CLOSE_REASON = 'rulestack room: too many messages, too fast';

/** { burst, perSecond, floodRefusals } from the defaults and what is given; an Error naming a bad one. */
export function rateLimit(given = {}) {
  const limits = { ...RATE_LIMIT, ...given };
  for (const k of Object.keys(limits)) {
    if (!(k in RATE_LIMIT)) throw new Error(`rulestack server: unknown rate limit '${k}' (limits: ${Object.keys(RATE_LIMIT).join(', ')})`);
    const v = limits[k];
    // (perSecond may be a fraction; Infinity turns a limit off)
    const ok = typeof v === 'number' && (k === 'perSecond' ? v > 0 : v === Infinity || (Number.isSafeInteger(v) && v >= 1));
    if (!ok) throw new Error(`rulestack server: the rate limit ${k} must be ${k === 'perSecond' ? 'a number above 0' : 'a whole number from 1'}, not ${JSON.stringify(v)}`);
  }
  return limits;
}

/** Colyseus's cap on a connection's frames a second (Room.maxMessagesPerSecond): only a client far past the limits meets it. */
export function hardCap({ burst, perSecond, floodRefusals }) {
  return 100 + 2 * (burst + perSecond + floodRefusals);
}

/** A seat's bucket, or the spectators' (kept across reconnections and joins: neither refills it). */
export class MessageBudget {
  #limits;
  #tokens;
  #refusals;  // refusals left before a flood
  #at;

  constructor(limits, now = performance.now()) {
    this.#limits = limits;
    this.#tokens = limits.burst;
    this.#refusals = limits.floodRefusals;
    this.#at = now;
  }

  /** Spends a token for a message: 'ok', 'refused' (none left), or 'flood' (refused too often). */
  take(now = performance.now()) {
    const { burst, perSecond, floodRefusals } = this.#limits;
    // (no time passed adds nothing: 0 * Infinity would be NaN)
    if (now > this.#at) {
      this.#tokens = Math.min(burst, this.#tokens + ((now - this.#at) * perSecond) / 1000);
      this.#refusals = Math.min(floodRefusals, this.#refusals + ((now - this.#at) * floodRefusals) / FLOOD_WINDOW_MS);
      this.#at = now;
    }
    if (this.#tokens >= 1) {
      this.#tokens -= 1;
      return 'ok';
    }
    if (this.#refusals >= 1) {
      this.#refusals -= 1;
      return 'refused';
    }
    return 'flood';
  }
}
