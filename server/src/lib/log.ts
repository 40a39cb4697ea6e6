// One logger shape for every thread of the process.
import pino, { type Logger } from 'pino';
import type { Config } from '../config';

// Secrets never reach the log, whatever object carries them.
export const logRedactions = [
  'req.headers.authorization',
  '*.secret',
  '*.password',
  '*.ServicePrincipalSecret',
  '*.encryptedSecret',
  '*.clientSecret',
];

export function createLogger(
  config: Pick<Config, 'logLevel'>,
  bindings: Record<string, string> = {},
): Logger {
  return pino({ level: config.logLevel, redact: logRedactions, base: { pid: process.pid, ...bindings } });
}
