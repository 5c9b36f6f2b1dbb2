// The playground: `npm start` serves it with `vite` (dev), the e2e tests serve the production
// build (build/playground) with `vite preview`. The page imports the npm package by its name,
// 'rulestack', which resolves to the wrapper's source in web/lib.
// The build is a static folder that works at any path (base './': every URL in it is
// relative) and offline: a service worker (vite-plugin-pwa, Workbox) precaches the page, its
// scripts, the worker, engine.wasm and the icons (the examples are in the main script).
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import path from 'node:path';

const here = import.meta.dirname;

export default defineConfig({
  root: here,
  base: './',
  clearScreen: false,
  resolve: {
    // exact names: 'rulestack/client' (online.ts) is the package's client entry
    alias: [
      { find: /^rulestack\/client$/, replacement: path.resolve(here, '../lib/client.ts') },
      { find: /^rulestack$/, replacement: path.resolve(here, '../lib/index.ts') },
    ],
  },
  build: {
    outDir: path.resolve(here, '../../build/playground'),
    emptyOutDir: true,
    target: 'es2022',
  },
  // the bot worker (bot-worker.ts) imports the package, which loads the wasm next to itself
  worker: { format: 'es' },
  plugins: [
    VitePWA({
      // a new version waits until the page's "reload" bar is clicked (pwa.ts)
      registerType: 'prompt',
      injectRegister: false,
      manifest: {
        name: 'rulestack playground',
        short_name: 'rulestack',
        description: 'Edit a rulestack game definition and play it: hot-seat or against a bot, offline too.',
        start_url: './',
        scope: './',
        display: 'standalone',
        theme_color: '#2f5bd3',
        background_color: '#f4f5f7',
        icons: [
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: 'icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
          { src: 'icon.svg', sizes: 'any', type: 'image/svg+xml' },
        ],
      },
      workbox: {
        // the icons and the manifest are added by the plugin (from `manifest`)
        globPatterns: ['**/*.{html,js,css,wasm}'],
        // engine.wasm is about 440 KB; the default limit (2 MiB) leaves room, this says it
        maximumFileSizeToCacheInBytes: 8 * 1024 * 1024,
        // a query (?botDelay=0) or a share link (#…) is still the one page
        ignoreURLParametersMatching: [/.*/],
        cleanupOutdatedCaches: true,
      },
    }),
  ],
  server: { host: '127.0.0.1', port: 5173, strictPort: true },
  preview: { host: '127.0.0.1', port: 4173, strictPort: true },
});
