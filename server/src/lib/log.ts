// One logger shape for every thread of the process.
import pino, { type Logger } from 'pino';
import type { Config } from '../config';
import { redactDatabaseError } from './redact-database-error';

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
// job queue): its dump was kilobytes of connection state per line; nor the values a failed
// statement carried (redactDatabaseError).
export const logSerializers = {
  req: (request: { method?: string; url?: string; ip?: string; id?: string }) => ({
    method: request.method,
    url: request.url?.split('?')[0],
    remoteAddress: request.ip,
  }),
  err: (error: Error) => serializeError(redactDatabaseError(error)),
};

// pino writes a cause's message and stack into its error's but drops the cause's fields: a drizzle
// query error's PostgreSQL code and constraint are in its cause, so the cause's fields are kept.
function serializeError(error: unknown, depth = 0): unknown {
  const serialized = pino.stdSerializers.err(error as Error) as unknown;
  if (serialized === null || typeof serialized !== 'object') return serialized;
  const { client: _client, ...rest } = serialized as Record<string, unknown>;
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof Error && depth < 5) {
    const {
      message: _message,
      stack: _stack,
      ...causeFields
    } = serializeError(cause, depth + 1) as Record<string, unknown>;
    rest.cause = causeFields;
  }
  return rest;
}

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
