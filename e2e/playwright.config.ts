import { defineConfig } from '@playwright/test';
import path from 'node:path';

// One Cloudtrim server (embedded PostgreSQL, the in-process Azure emulator, mail to a capturing
// SMTP server) is started by the global setup for the whole run; tests drive Debian's Chromium.
export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  globalTeardown: './support/global-teardown.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: path.resolve(import.meta.dirname, '../.tmp/reports/e2e.json') }],
  ],
  use: {
    baseURL: process.env.CLOUDTRIM_URL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  outputDir: path.resolve(import.meta.dirname, '../.tmp/e2e-results'),
});
