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
import { rateLimit as withDefaults } from './rate-limit.mjs';

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
export function createServer({ redisUrl = process.env.REDIS_URL, publicAddress = process.env.PUBLIC_ADDRESS, store, recordTtlSeconds, recordLeaseSeconds, rateLimit } = {}) {
  const limits = withDefaults(rateLimit);
  const transport = new WebSocketTransport({ maxPayload: MAX_MESSAGE_BYTES, server: new BoundedBodyServer() });
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
 * The transport's HTTP server. Colyseus's matchmaking route reads a request's whole body and
 * parses it, on the thread every room runs on, before anything can look at its size (a 30 MB
 * definition held up every room for a few hundred ms): here a request that has a body reaches
 * Colyseus only once that body is read, within MAX_REQUEST_BYTES. A larger one is refused
 * with 413 and REQUEST_TOO_LARGE: at once when its Content-Length says so (a client that
 * waits for 100 Continue never sends it), else as soon as what arrives passes the limit;
 * either way nothing more of it is kept, and the connection is closed.
 */
class BoundedBodyServer extends http.Server {
  constructor() {
    super();
    // (with a listener, node leaves 100 Continue to it instead of sending it before 'request')
    this.on('checkContinue', (req, res) => {
      if (declaredTooLarge(req)) return refuseTooLarge(req, res);
      res.writeContinue();
      this.emit('request', req, res);
    });
  }

  emit(event, ...args) {
    if (event !== 'request') return super.emit(event, ...args);
    const [req, res] = args;
    if (req.body !== undefined || !hasBody(req)) return super.emit(event, ...args);
    if (declaredTooLarge(req)) {
      refuseTooLarge(req, res);
      return true;
    }
    const chunks = [];
    let size = 0;
    const onData = (chunk) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) return void chunks.push(chunk);
      req.off('data', onData).off('end', onEnd);
      chunks.length = 0;
      refuseTooLarge(req, res);
    };
    // (read as Colyseus's own pre-reading does it: the text as req.body, which its router takes instead of the stream)
    const onEnd = () => {
      req.body = Buffer.concat(chunks).toString('utf8');
      super.emit('request', req, res);
    };
    req.on('data', onData).on('end', onEnd);
    return true;
  }
}

/** Whether a request carries a body (node's parser: a Content-Length above 0, or Transfer-Encoding). */
function hasBody(req) {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length']) > 0;
}

function declaredTooLarge(req) {
  return Number(req.headers['content-length']) > MAX_REQUEST_BYTES;
}

/** 413, with the CORS headers of Colyseus's matchmaking answers (a page on another origin reads why), and the connection closed. */
function refuseTooLarge(req, res) {
  const body = JSON.stringify({ code: 413, error: REQUEST_TOO_LARGE });
  const cors = { ...matchMaker.controller.DEFAULT_CORS_HEADERS, ...matchMaker.controller.getCorsHeaders(new Headers(req.headers)) };
  res.writeHead(413, { ...cors, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body);
  // (what the client still sends is read and dropped until the connection closes: not kept)
  req.resume();
}
