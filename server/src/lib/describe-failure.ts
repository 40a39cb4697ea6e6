// What a user reads about a failure we did not foresee. A CloudError's message is written for users
// (Azure's code and text, never a secret) and is kept; anything else (a database error, a bug) says
// only that something failed, with a short reference under which the whole error, its values
// redacted, is in the server log.
import { randomBytes } from 'node:crypto';
import { isCloudError } from '../cloud/cloud-provider';
import { redactDatabaseError } from './redact-database-error';

export interface FailureLog {
  error(details: object, message: string): void;
}

export function describeFailure(error: unknown, log: FailureLog): string {
  if (isCloudError(error)) return error.message;
  const reference = randomBytes(4).toString('hex');
  log.error({ err: redactDatabaseError(error), reference }, 'unexpected failure');
  return internalFailureText(reference);
}

export function internalFailureText(reference: string): string {
  return `An internal error occurred (reference ${reference}); the details are in the server log.`;
}
