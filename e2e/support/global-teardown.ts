// Playwright calls the function the global setup returned; this file only removes leftovers.
import { rm } from 'node:fs/promises';
import { stateFile } from './environment';

export default async function globalTeardown(): Promise<void> {
  await rm(stateFile, { force: true });
}
