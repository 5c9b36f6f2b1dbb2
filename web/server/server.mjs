// A Colyseus server with the rulestack room ('rulestack'). In memory by default; with a
// Redis URL, presence and matchmaking are shared through Redis (several processes, one
// lobby) and game records are kept there, so a room can be resumed by another process.
import { LobbyRoom, Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { RedisPresence } from '@colyseus/redis-presence';
import { RedisDriver } from '@colyseus/redis-driver';
import { WebSocket } from 'ws';
import { roomWithStore } from './game-room.mjs';
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
  const transport = new WebSocketTransport({ maxPayload: MAX_MESSAGE_BYTES });
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
