// Shared by the server tests: a rulestack server on a free port with @colyseus/testing's
// client, and small waits.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { ColyseusTestServer } from '@colyseus/testing';
import { createServer } from '../server.mjs';

const canListen = (port) =>
  new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });

// The tests' ports: the first free ones from RULESTACK_TEST_PORTS (default 25600-25699),
// each handed out once per process.
const [lo, hi] = (process.env.RULESTACK_TEST_PORTS ?? '25600-25699').split('-').map(Number);
const handedOut = new Set();
export async function freePort() {
  for (let p = lo; p <= hi; p++) {
    if (handedOut.has(p) || !(await canListen(p))) continue;
    handedOut.add(p);
    return p;
  }
  throw new Error(`no free port in ${lo}-${hi} (RULESTACK_TEST_PORTS)`);
}

/** Resolves, with what it printed so far (stdout and stderr), when the child prints a line matching re (rejects if it exits first). */
function waitForLine(child, re, what) {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d) => {
      out += d;
      if (re.test(out)) {
        child.stdout.off('data', onData);
        resolve(out);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => reject(new Error(`${what} exited (${code}) before it was ready:\n${out}`)));
  });
}

/** A redis-server of its own on a free port, nothing saved (args: more of its options): { url, stop }. */
export async function startRedis(args = []) {
  const port = await freePort();
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  await waitForLine(child, /Ready to accept connections/, 'redis-server');
  return { url: `redis://127.0.0.1:${port}`, stop: () => child.kill('SIGTERM') };
}

/** `npm run server` as a child process on a free port: { url, child, port, output } (output: what it printed until it listened). */
export async function spawnServer(env = {}) {
  const port = await freePort();
  const main = fileURLToPath(new URL('../main.mjs', import.meta.url));
  const child = spawn(process.execPath, [main], { env: { ...process.env, PORT: String(port), PUBLIC_ADDRESS: `127.0.0.1:${port}`, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = await waitForLine(child, /listening on/, 'the server');
  return { url: `ws://127.0.0.1:${port}`, child, port, output };
}

/**
 * { colyseus, store, port, url }: a listening server (boot(server, port) ignores its port).
 * Its HTTP requests are not limited unless `requestLimit` is given: a test's clients all come
 * from one address, and make more rooms a second than a person (http.test.mjs tests the limit).
 */
export async function startServer(opts = {}) {
  const port = await freePort();
  const { server, store } = createServer({ publicAddress: `127.0.0.1:${port}`, requestLimit: { burst: Infinity }, ...opts });
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

/**
 * Runs fn (async) with every TCP connection this process opens meanwhile (the client's
 * matchmaking requests and its WebSocket) made from the loopback address `address`
 * (127.x.y.z, any of which is this machine), so that the server sees a client of another
 * address. Connections opened before or after (a reconnection) come from 127.0.0.1.
 */
export async function fromAddress(address, fn) {
  const connect = net.connect;
  net.connect = function (...args) {
    if (args[0] !== null && typeof args[0] === 'object') args[0] = { ...args[0], localAddress: address };
    return connect.apply(this, args);
  };
  try {
    return await fn();
  } finally {
    net.connect = connect;
  }
}
