// What the global setup shares with the tests (through environment variables, which Playwright
// hands to its workers).
import path from 'node:path';
import type { EmulatorPrincipal } from './emulator-banner';

// One file per run (named by the global setup's process id), so two runs on one machine never mix.
export const stateFile =
  process.env.CLOUDTRIM_E2E_STATE ??
  path.resolve(import.meta.dirname, `../../.tmp/e2e-state-${process.pid}.json`);

export interface E2eState {
  baseUrl: string;
  databaseUrl: string;
  mailboxDir: string;
  dataDir: string;
  serverPid: number;
  smtpPort: number;
  /** The emulated tenants' service principals, as the server's banner prints them. */
  emulatorPrincipals: EmulatorPrincipal[];
  /** The demo's Azure emulator, for a test that changes "Azure" itself (its banner's first line). */
  emulator?: { url: string; caPath: string };
}
