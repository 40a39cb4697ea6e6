// What the global setup shares with the tests (through environment variables, which Playwright
// hands to its workers).
import path from 'node:path';

export const stateFile = path.resolve(import.meta.dirname, '../../.tmp/e2e-state.json');

export interface E2eState {
  baseUrl: string;
  databaseUrl: string;
  mailboxDir: string;
  dataDir: string;
  serverPid: number;
  smtpPort: number;
}
