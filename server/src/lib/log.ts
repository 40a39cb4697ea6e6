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
// tokens travel in it (ValidateCode?email=&code=, emailaddress?guid=). Errors keep their message,
// code and stack, but not a database client the driver hangs on one (a connection ended under the
// job queue): its dump was kilobytes of connection state per line.
export const logSerializers = {
  req: (request: { method?: string; url?: string; ip?: string; id?: string }) => ({
    method: request.method,
    url: request.url?.split('?')[0],
    remoteAddress: request.ip,
  }),
  err: (error: Error) => {
    const serialized = pino.stdSerializers.err(error) as ReturnType<typeof pino.stdSerializers.err> & {
      client?: unknown;
    };
    if (serialized === null || typeof serialized !== 'object' || !('client' in serialized)) return serialized;
    const { client: _client, ...rest } = serialized;
    return rest;
  },
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
