import { passwordRequirementsText } from '@cloudtrim/contracts/password-rules';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-errors';
import { rejectInvalidRequest } from './password.validation';

function requestWith(issues: Array<{ instancePath: string; keyword: string }>, validationContext = 'body') {
  const validation = issues.map((issue) => ({ ...issue, schemaPath: '', params: {}, message: 'bad' }));
  const validationError = Object.assign(new Error('invalid'), { validation, validationContext });
  return { validationError } as unknown as FastifyRequest;
}

describe('rejectInvalidRequest', () => {
  it('lets a valid request through', () => {
    expect(() => rejectInvalidRequest({} as FastifyRequest, 'NewPassword')).not.toThrow();
  });

  it('answers 422 when the only problem is the password rules', () => {
    const request = requestWith([{ instancePath: '/NewPassword', keyword: 'custom' }]);
    expect(() => rejectInvalidRequest(request, 'NewPassword')).toThrow(
      expect.objectContaining({ statusCode: 422, message: passwordRequirementsText, field: 'NewPassword' }),
    );
  });

  it('rethrows anything else for the 400 answer: a missing password, another field, both', () => {
    for (const issues of [
      [{ instancePath: '/NewPassword', keyword: 'invalid_type' }],
      [{ instancePath: '/EmailAddress', keyword: 'invalid_format' }],
      [
        { instancePath: '/NewPassword', keyword: 'custom' },
        { instancePath: '/Code', keyword: 'too_small' },
      ],
    ]) {
      const request = requestWith(issues);
      expect(() => rejectInvalidRequest(request, 'NewPassword')).toThrow(request.validationError);
      expect(() => rejectInvalidRequest(request, 'NewPassword')).not.toThrow(HttpError);
    }
  });

  it('rethrows a query-string problem even on a field of the same name', () => {
    const request = requestWith([{ instancePath: '/NewPassword', keyword: 'custom' }], 'querystring');
    expect(() => rejectInvalidRequest(request, 'NewPassword')).toThrow(request.validationError);
  });
});
