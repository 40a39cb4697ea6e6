import { defineConfig } from 'vitest/config';

// Two projects: `unit` (fast, no outside services; *.test.ts beside the code) and `integration`
// (*.int.test.ts: real PostgreSQL started once by the global setup, real SMTP, the Azure emulator).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{packages,server,bench}/**/*.test.ts', 'web/src/**/*.test.{ts,tsx}'],
          exclude: ['**/node_modules/**', '**/*.int.test.ts'],
          environment: 'node',
          setupFiles: ['web/src/testing/setup-tests.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['{packages,server}/**/*.int.test.ts'],
          exclude: ['**/node_modules/**'],
          globalSetup: ['server/test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          pool: 'forks',
        },
      },
    ],
  },
});
