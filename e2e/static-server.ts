// A tiny static file server for the e2e specs: serves a folder under a path (e.g. the
// playground's build under /sub/project/), as any static host would: index.html for a folder,
// a redirect from the folder without its slash, the usual content types, 404 otherwise.
import { test } from '@playwright/test';
import http from 'node:http';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
};

export interface StaticServer {
  /** http://127.0.0.1:<port> (no slash at the end). */
  origin: string;
  /** origin + mount: where the folder is, ending in a slash. */
  url: string;
  close(): Promise<void>;
}

/** Serves `dir` at `mount` (a path such as "/sub/project/") on a free port of 127.0.0.1. */
export async function serveStatic(dir: string, mount: string): Promise<StaticServer> {
  const root = path.resolve(dir);
  const prefix = mount.endsWith('/') ? mount : `${mount}/`;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === prefix.slice(0, -1)) {
      res.writeHead(301, { location: prefix + url.search });
      res.end();
      return;
    }
    let file = '';
    if (url.pathname.startsWith(prefix)) {
      file = path.join(root, decodeURIComponent(url.pathname.slice(prefix.length)));
      if (existsSync(file) && statSync(file).isDirectory()) file = path.join(file, 'index.html');
    }
    if (!file.startsWith(root + path.sep) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream', 'cache-control': 'no-cache' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: origin + prefix,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // the browser's keep-alive connections
      }),
  };
}

const BUILD = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'build', 'playground');

/**
 * Registers hooks (in the calling spec or describe block) that give each test a fresh copy of
 * the playground's build (build/playground) in a temporary folder, and close its server and
 * remove the copy after it. `dir()` is the copy; `serve(mount)` serves it there.
 */
export function buildCopies(): { dir(): string; serve(mount: string): Promise<StaticServer> } {
  let work = '';
  let server: StaticServer | undefined;
  test.beforeEach(() => {
    work = mkdtempSync(path.join(tmpdir(), 'rulestack-pg-'));
    cpSync(BUILD, work, { recursive: true });
  });
  test.afterEach(async () => {
    await server?.close();
    server = undefined;
    rmSync(work, { recursive: true, force: true });
  });
  return {
    dir: () => work,
    serve: async (mount) => (server = await serveStatic(work, mount)),
  };
}
