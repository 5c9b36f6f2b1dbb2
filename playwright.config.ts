// Playwright e2e tests of the playground, in Debian's Chromium (/usr/bin/chromium), or the
// Chromium or Chrome that RULESTACK_CHROMIUM names (scripts/test.mjs sets it): never a
// downloaded browser. The web server is `vite preview` of build/playground (scripts/build.mjs).
import { defineConfig, devices } from '@playwright/test';

const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
// scripts/test.mjs passes a free port, so parallel runs on one machine do not collide.
const port = Number(process.env.RULESTACK_E2E_PORT) || 4173;
const executablePath = process.env.RULESTACK_CHROMIUM || '/usr/bin/chromium';

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  workers: 1,
  forbidOnly: !!process.env.CI,
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    screenshot: 'only-on-failure',
    trace: 'off',
  },
  projects: [
    {
      name: 'debian-chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath, args: chromiumArgs },
      },
    },
  ],
  webServer: {
    command: `node_modules/.bin/vite preview --config web/playground/vite.config.ts --port ${port} --strictPort`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 30_000,
  },
});
