#!/usr/bin/env node
// `npm start`: setup, build, then serve the playground (Vite dev server) on 127.0.0.1.
//   PORT=8080 npm start     another port (default 5173)
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
process.chdir(root);

for (const [cmd, args] of [
  ['bash', ['scripts/setup.sh']],
  [process.execPath, ['scripts/build.mjs']],
]) {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const port = process.env.PORT || '5173';
console.log(`\nrulestack playground: http://127.0.0.1:${port}/  (Ctrl-C to stop)\n`);
const vite = spawn(
  path.join(root, 'node_modules', '.bin', 'vite'),
  ['--config', 'web/playground/vite.config.ts', '--host', '127.0.0.1', '--port', port, '--strictPort'],
  { stdio: 'inherit' },
);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => vite.kill(sig));
vite.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
