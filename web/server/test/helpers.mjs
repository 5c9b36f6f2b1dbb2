// Shared by the server tests: a rulestack server on a free port with @colyseus/testing's
// client, and small waits.
import net from 'node:net';
import { ColyseusTestServer } from '@colyseus/testing';
import { createServer } from '../server.mjs';

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** { colyseus, store, port, url }: a listening server (boot(server, port) ignores its port). */
export async function startServer(opts = {}) {
  const { server, store } = createServer(opts);
  const port = await freePort();
  await server.listen(port, '127.0.0.1');
  return { colyseus: new ColyseusTestServer(server), store, port, url: `ws://127.0.0.1:${port}` };
}

/** The next message of that type the SDK room receives (rejects after ms). */
export function nextMessage(room, type, ms = 5000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off();
      reject(new Error(`no '${type}' message within ${ms} ms`));
    }, ms);
    const off = room.onMessage(type, (m) => {
      clearTimeout(timer);
      off();
      resolve(m);
    });
  });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
