// The playground: `npm start` serves it with `vite` (dev), the e2e tests serve the production
// build (build/playground) with `vite preview`. The page imports the npm package by its name,
// 'rulestack', which resolves to the wrapper's source in web/lib.
import { defineConfig } from 'vite';
import path from 'node:path';

const here = import.meta.dirname;

export default defineConfig({
  root: here,
  clearScreen: false,
  resolve: {
    alias: { rulestack: path.resolve(here, '../lib/index.ts') },
  },
  build: {
    outDir: path.resolve(here, '../../build/playground'),
    emptyOutDir: true,
    target: 'es2022',
  },
  // the bot worker (bot-worker.ts) imports the package, which loads the wasm next to itself
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
