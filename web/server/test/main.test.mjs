// `npm run server` (main.mjs) as an operator starts it: what it says when it cannot start.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath } from 'node:url';
import { freePort } from './helpers.mjs';

test('a port in use: exit 1 with one line naming the port, no stack trace', async () => {
  const port = await freePort();
  // (on every interface, as the server listens)
  const blocker = net.createServer();
  await new Promise((resolve) => blocker.listen(port, resolve));
  try {
    const main = fileURLToPath(new URL('../main.mjs', import.meta.url));
    const r = await new Promise((resolve) => {
      execFile(process.execPath, [main], { env: { ...process.env, PORT: String(port) }, encoding: 'utf8', timeout: 20_000 }, (e, stdout, stderr) =>
        resolve({ status: e ? (e.killed ? 'killed after 20 s' : e.code) : 0, stdout, stderr }),
      );
    });
    assert.equal(r.status, 1, r.stdout + r.stderr);
    assert.equal(r.stderr, `rulestack server: cannot listen on port ${port}: it is in use\n`);
  } finally {
    blocker.close();
  }
});
