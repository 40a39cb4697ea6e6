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

// Requests are logged without their query string: one-time codes and sign-up or invitation
// tokens travel in it (ValidateCode?email=&code=, emailaddress?guid=).
export const logSerializers = {
  req: (request: { method?: string; url?: string; ip?: string; id?: string }) => ({
    method: request.method,
    url: request.url?.split('?')[0],
    remoteAddress: request.ip,
  }),
};

export function createLogger(
  config: Pick<Config, 'logLevel'>,
  bindings: Record<string, string> = {},
): Logger {
  return pino({
    level: config.logLevel,
    redact: logRedactions,
    serializers: logSerializers,
    base: { pid: process.pid, ...bindings },
  });
}
