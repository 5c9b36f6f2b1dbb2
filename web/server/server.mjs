// A Colyseus server with the rulestack room ('rulestack'). In memory by default; with a
// Redis URL, presence and matchmaking are shared through Redis (several processes, one
// lobby) and game records are kept there, so a room can be resumed by another process.
import http from 'node:http';
import { LobbyRoom, Server, matchMaker } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { RedisPresence } from '@colyseus/redis-presence';
import { RedisDriver } from '@colyseus/redis-driver';
import { WebSocket } from 'ws';
import { notePeerAddress, roomWithStore } from './game-room.mjs';
import { MAX_DEFINITION_BYTES } from './options.mjs';
import { createStore } from './record-store.mjs';
import { TokenBucket, addressKey, checkedLimits, rateLimit as withDefaults } from './rate-limit.mjs';

export const ROOM_NAME = 'rulestack';
/** Colyseus's lobby: a client that joins it is sent the listed rooms, then each change. */
export const LOBBY_NAME = 'lobby';
/** A lobby client's messages a second (a 'filter' sends it the whole list again): past it, its connection is closed. */
export const LOBBY_MESSAGES_PER_SECOND = 10;

class Lobby extends LobbyRoom {
  maxMessagesPerSecond = LOBBY_MESSAGES_PER_SECOND;
}
/** The largest message a client may send (ws-transport's default, 4 KiB, is less than a move naming many targets). */
export const MAX_MESSAGE_BYTES = 64 * 1024;
/**
 * The largest HTTP request body the server reads (a matchmaking request: a room's options, or
 * a join's, as JSON): twice the largest definition (8 MB: JSON escapes a text's quotes,
 * backslashes and line breaks, which at most doubles it) and 1 MiB for the other options.
 */
export const MAX_REQUEST_BYTES = 2 * MAX_DEFINITION_BYTES + 1024 * 1024;
/** How a larger request is refused (status 413, with this as its `error`). */
export const REQUEST_TOO_LARGE = `rulestack server: the request is larger than ${MAX_REQUEST_BYTES / 1024 / 1024} MiB (${MAX_REQUEST_BYTES} bytes): it was not read (a definition may be at most 8 MB)`;
/**
 * How many HTTP requests one remote address (addressKey) may make — matchmaking: creating,
 * joining, the lobby — `burst` at once, then `perSecond`: each may compile a definition, so
 * more are refused (429). Far more than a person makes. `readingBytes`: how many bytes of
 * request bodies the process keeps at once, from all addresses together, while they arrive
 * (up to MAX_BODIES_PER_ADDRESS of MAX_REQUEST_BYTES each from every address would be
 * unbounded); a body that would pass it is refused (503, SERVER_BUSY): at once when its
 * Content-Length says so, else when what has come of it does. `addresses`: how many remote
 * addresses the server keeps a budget for at once (an address is forgotten once its bucket is
 * full again and it sends nothing): a request from another address while that many are kept
 * is refused (503, SERVER_BUSY), so that a flood from many addresses cannot grow the table
 * without bound.
 */
export const REQUEST_LIMIT = Object.freeze({ burst: 60, perSecond: 2, readingBytes: 256 * 1024 * 1024, addresses: 100_000 });
/** The most request bodies one address may be sending at once (each up to MAX_REQUEST_BYTES is kept while it arrives): more are refused (429). */
export const MAX_BODIES_PER_ADDRESS = 4;
export const TOO_MANY_REQUESTS = 'rulestack server: too many requests from this address: try again in a few seconds';
/** How a request is refused when the bodies all addresses are sending at once would pass REQUEST_LIMIT.readingBytes, or when it comes from a new address while REQUEST_LIMIT.addresses are kept (503). */
export const SERVER_BUSY = 'rulestack server: the server is reading too many requests at once: try again in a few seconds';

// @colyseus/core 0.18 checks a reconnected client against the global WebSocket.OPEN, which
// node 20 lacks (node 22 has it): without this every reconnection fails there.
globalThis.WebSocket ??= WebSocket;

/**
 * { server, store }: a Server (not yet listening) with the rulestack room defined.
 * publicAddress ('host:port'): where clients reach this process, for the seat reservations
 * of its rooms (several processes behind Redis, each reached directly).
 */
/**
 * recordTtlSeconds: how long the record of a room that ended is kept; recordLeaseSeconds: how
 * long a room's claim on its record outlives its last renewal in Redis (record-store.mjs).
 * rateLimit: { burst, perSecond, floodRefusals }, how fast each client may send messages
 * (rate-limit.mjs; the defaults where left out).
 */
export function createServer({ redisUrl = process.env.REDIS_URL, publicAddress = process.env.PUBLIC_ADDRESS, store, recordTtlSeconds, recordLeaseSeconds, rateLimit, requestLimit } = {}) {
  const limits = withDefaults(rateLimit);
  const transport = new WebSocketTransport({ maxPayload: MAX_MESSAGE_BYTES, server: new BoundedBodyServer(checkedLimits('request', REQUEST_LIMIT, requestLimit)) });
  // (before ws-transport's own listener, which has the client join its room at once)
  transport.wss.prependListener('connection', (ws, req) => notePeerAddress(ws, req.socket.remoteAddress));
  transport.wss.on('connection', sayOversizeInOneLine);
  const server = new Server({
    publicAddress,
    transport,
    presence: redisUrl ? new RedisPresence(redisUrl) : undefined,
    driver: redisUrl ? new RedisDriver(redisUrl) : undefined,
    gracefullyShutdown: false,
    greet: false,
  });
  store ??= createStore(redisUrl, { ttlSeconds: recordTtlSeconds, leaseSeconds: recordLeaseSeconds });
  server.define(ROOM_NAME, roomWithStore(store, limits)).enableRealtimeListing();
  server.define(LOBBY_NAME, Lobby);
  return { server, store };
}

/**
 * A message over maxPayload is the client's fault, not the server's: ws closes that
 * connection (1009) and emits the error, which ws-transport's listener (attached on
 * 'connection' before this one) would print with its stack. Said in one line instead;
 * other errors still go to that listener.
 */
function sayOversizeInOneLine(ws, req) {
  for (const listener of ws.listeners('error')) {
    ws.removeListener('error', listener);
    ws.on('error', (err) => {
      if (err.code !== 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH') return listener.call(ws, err);
      console.error(`rulestack server: a message over ${MAX_MESSAGE_BYTES} bytes from ${req?.socket.remoteAddress ?? 'a client'}: its connection is closed (1009)`);
    });
  }
}

/**
 * Each remote address's HTTP requests: a token bucket (REQUEST_LIMIT) and the bodies it is
 * sending now. An address whose bucket is full again and that sends nothing is forgotten:
 * looked for when the table reaches #sweepAt, which then doubles past what is left (each sweep
 * is paid for by as many new addresses as it looked at), and at most REQUEST_LIMIT.addresses
 * are kept (a full table is swept at most once a second).
 */
/** The size of the table of addresses at which idle ones are first looked for (RequestBudgets). */
const SWEEP_FROM = 10_000;

class RequestBudgets {
  #limits;
  #byAddress = new Map();
  #sweepAt;
  #sweptAt = -Infinity;

  constructor(limits) {
    this.#limits = limits;
    this.#sweepAt = Math.min(SWEEP_FROM, limits.addresses);
  }

  /**
   * The address's entry if a request of it may go on now (a token taken); else 429 (its
   * budget spent) or 503 (a new address while the table is full).
   */
  admit(address) {
    const key = addressKey(address);
    let entry = this.#byAddress.get(key);
    if (!entry) {
      if (this.#byAddress.size >= this.#sweepAt) {
        // (a full table is looked at again only a second later: idle entries come with time)
        const now = performance.now();
        if (this.#byAddress.size < this.#limits.addresses || now - this.#sweptAt >= 1000) {
          this.#forgetIdle();
          this.#sweptAt = now;
          this.#sweepAt = Math.min(this.#limits.addresses, Math.max(SWEEP_FROM, 2 * this.#byAddress.size));
        }
        if (this.#byAddress.size >= this.#limits.addresses) return 503;
      }
      entry = { tokens: new TokenBucket(this.#limits.burst, this.#limits.perSecond), reading: 0 };
      this.#byAddress.set(key, entry);
    }
    return entry.tokens.take() ? entry : 429;
  }

  /** Seconds until the address may make a request again (for Retry-After). */
  get retryAfter() {
    return Math.max(1, Math.ceil(1 / this.#limits.perSecond));
  }

  #forgetIdle() {
    for (const [key, entry] of this.#byAddress) if (entry.reading === 0 && entry.tokens.full()) this.#byAddress.delete(key);
  }
}

/**
 * The transport's HTTP server. Colyseus's matchmaking route reads a request's whole body and
 * parses it, on the thread every room runs on, before anything can look at its size (a 30 MB
 * definition held up every room for a few hundred ms): here a request that has a body reaches
 * Colyseus only once that body is read, within MAX_REQUEST_BYTES. A larger one is refused
 * with 413 and REQUEST_TOO_LARGE: at once when its Content-Length says so (a client that
 * waits for 100 Continue never sends it), else as soon as what arrives passes the limit;
 * either way nothing more of it is kept, and the connection is closed.
 */
class BoundedBodyServer extends http.Server {
  #budgets;
  #readingBytes; // the bound on bodies kept at once (REQUEST_LIMIT.readingBytes)
  #held = 0; // bytes kept of the bodies arriving now

  constructor(limits) {
    super();
    this.#budgets = new RequestBudgets(limits);
    this.#readingBytes = limits.readingBytes;
    // (with a listener, node leaves 100 Continue to it instead of sending it before 'request')
    this.on('checkContinue', (req, res) => {
      if (!this.#screen(req, res)) return; // (refused before it is told to send its body)
      res.writeContinue();
      this.emit('request', req, res);
    });
  }

  /**
   * The address's budget if the request may go on, else null, the request refused. One order
   * for a request and for one that waits for 100 Continue: a body declared too large (413: it
   * never fits, whatever the client waits for), the address's budget (429), the room for the
   * body among all those arriving (503). (Asked again as a 100-continue request is emitted:
   * the answer is the same, its budget counted once.)
   */
  #screen(req, res) {
    if (hasBody(req) && declaredTooLarge(req)) {
      refuseTooLarge(req, res);
      return null;
    }
    const budget = this.#admit(req, res);
    if (!budget) return null;
    if (hasBody(req) && !this.#hasRoom(req, res, declaredBytes(req))) return null;
    return budget;
  }

  /** Whether a body of `bytes` (as declared) fits in what is kept now; if not, the request is refused (503). */
  #hasRoom(req, res, bytes) {
    if (this.#held + bytes <= this.#readingBytes) return true;
    this.#refuseBusy(req, res);
    return false;
  }

  #refuseBusy(req, res) {
    this.#refuseForNow(req, res, 503, SERVER_BUSY);
  }

  /** A refusal the client may try again after Retry-After (429: its address's budget, 503: the server's). */
  #refuseForNow(req, res, code, error) {
    refuse(req, res, code, error, { 'retry-after': String(this.#budgets.retryAfter) });
  }

  /** The address's budget if the request may go on (counted once: a 100-continue request is admitted before it is told to send its body), else null, the request refused with 429 (or 503: a new address while the table of addresses is full). */
  #admit(req, res) {
    if (req.admitted) return req.admitted;
    const budget = this.#budgets.admit(req.socket.remoteAddress);
    if (budget === 503) {
      this.#refuseBusy(req, res);
      return null;
    }
    if (budget === 429 || (hasBody(req) && budget.reading >= MAX_BODIES_PER_ADDRESS)) {
      this.#refuseForNow(req, res, 429, TOO_MANY_REQUESTS);
      return null;
    }
    req.admitted = budget;
    return budget;
  }

  emit(event, ...args) {
    if (event !== 'request') return super.emit(event, ...args);
    const [req, res] = args;
    if (req.body !== undefined) return super.emit(event, ...args); // (its body read: counted when it came)
    // (a body is counted as it comes, not as declared: a request that declares one and sends none holds nothing)
    const budget = this.#screen(req, res);
    if (!budget) return true;
    if (!hasBody(req)) return super.emit(event, ...args);
    let held = 0; // what has come of it
    budget.reading += 1;
    let reading = true;
    const done = () => {
      if (reading) {
        budget.reading -= 1;
        this.#held -= held;
      }
      reading = false;
    };
    const chunks = [];
    const stop = () => {
      req.off('data', onData).off('end', onEnd);
      chunks.length = 0;
      done();
    };
    const onData = (chunk) => {
      if (held + chunk.length > MAX_REQUEST_BYTES) return void (stop(), refuseTooLarge(req, res));
      if (this.#held + chunk.length > this.#readingBytes) return void (stop(), this.#refuseBusy(req, res));
      this.#held += chunk.length;
      held += chunk.length;
      chunks.push(chunk);
    };
    // (read as Colyseus's own pre-reading does it: the text as req.body, which its router takes instead of the stream)
    const onEnd = () => {
      done();
      req.body = Buffer.concat(chunks).toString('utf8');
      super.emit('request', req, res);
    };
    req.on('data', onData).on('end', onEnd).on('close', done);
    return true;
  }
}

/** Whether a request carries a body (node's parser: a Content-Length above 0, or Transfer-Encoding). */
function hasBody(req) {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;
}

/** The body's length as its Content-Length declares it (0 for a chunked body). */
function declaredBytes(req) {
  return Number(req.headers['content-length']) || 0;
}

function declaredTooLarge(req) {
  return Number(req.headers['content-length']) > MAX_REQUEST_BYTES;
}

function refuseTooLarge(req, res) {
  refuse(req, res, 413, REQUEST_TOO_LARGE);
}

/** An error answer `{ code, error }`, with the CORS headers of Colyseus's matchmaking answers (a page on another origin reads why), and the connection closed. */
function refuse(req, res, code, error, headers = {}) {
  const body = JSON.stringify({ code, error });
  const cors = { ...matchMaker.controller.DEFAULT_CORS_HEADERS, ...matchMaker.controller.getCorsHeaders(new Headers(req.headers)) };
  res.writeHead(code, { ...cors, ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
  // (what the client still sends is read and dropped until the connection closes: not kept)
  req.resume();
}
