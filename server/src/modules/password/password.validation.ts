import { passwordRequirementsText } from '@cloudtrim/contracts/password-rules';
import type { FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { HttpError } from '../../lib/http-errors';

// The contracts refuse a weak new password like any other bad input, but callers tell the two apart:
// a password that breaks SPEC §5's rules answers 422, anything else malformed 400. Routes taking a new
// password set `attachValidation` and call this first.
export function rejectInvalidRequest(request: FastifyRequest, passwordField: string): void {
  const error = request.validationError;
  if (!error) return;
  const issues: FastifySchemaValidationError[] = Array.isArray(error.validation) ? error.validation : [];
  const isOnlyPasswordRules =
    error.validationContext === 'body' &&
    issues.length > 0 &&
    issues.every((issue) => issue.instancePath === `/${passwordField}` && issue.keyword === 'custom');
  if (isOnlyPasswordRules) throw new HttpError(422, passwordRequirementsText, passwordField);
  throw error;
}
