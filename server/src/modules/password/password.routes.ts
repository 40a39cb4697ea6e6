import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  changePasswordRequestSchema,
  changePasswordResponseSchema,
  requestPasswordResetRequestSchema,
  requestPasswordResetResponseSchema,
  resetPasswordWithCodeRequestSchema,
  resetPasswordWithCodeResponseSchema,
  validateResetCodeQuerySchema,
  validateResetCodeResponseSchema,
} from '@cloudtrim/contracts/password-reset';
import { getAuth } from '../../plugins/authenticate';
import type { PasswordService } from './password.service';
import { rejectInvalidRequest } from './password.validation';

export function passwordRoutes(passwords: PasswordService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/v1/customerprofile/password/reset',
      {
        config: { isPublic: true },
        schema: {
          tags: ['password'],
          summary: 'Mail a reset link if the address has an account; the answer is the same either way',
          body: requestPasswordResetRequestSchema,
          response: {
            200: requestPasswordResetResponseSchema,
            400: errorResponseSchema,
            429: errorResponseSchema,
          },
        },
      },
      (request) => passwords.requestReset(request.body.EmailAddress, request.ip),
    );

    app.get(
      '/api/v1/Account/ValidateCode',
      {
        config: { isPublic: true },
        schema: {
          tags: ['password'],
          summary: 'Whether a reset link still holds',
          querystring: validateResetCodeQuerySchema,
          response: {
            200: validateResetCodeResponseSchema,
            400: errorResponseSchema,
            429: errorResponseSchema,
          },
        },
      },
      (request) => passwords.validateCode(request.query.email, request.query.code),
    );

    app.post(
      '/api/v1/customerprofile/password/resetwithcode',
      {
        config: { isPublic: true },
        attachValidation: true,
        schema: {
          tags: ['password'],
          summary: 'Set a new password from a reset link; ends every session of the account',
          body: resetPasswordWithCodeRequestSchema,
          response: {
            200: resetPasswordWithCodeResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            404: errorResponseSchema,
            409: errorResponseSchema,
            422: errorResponseSchema,
            429: errorResponseSchema,
          },
        },
      },
      (request) => {
        rejectInvalidRequest(request, 'NewPassword');
        return passwords.resetWithCode(request.body);
      },
    );

    app.put(
      '/api/v1/customerprofile/password',
      {
        attachValidation: true,
        schema: {
          tags: ['password'],
          summary: 'Change the password; LogOutAllDevices ends every other session',
          body: changePasswordRequestSchema,
          response: {
            200: changePasswordResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            422: errorResponseSchema,
            429: errorResponseSchema,
          },
        },
      },
      (request) => {
        rejectInvalidRequest(request, 'NewPassword');
        return passwords.changePassword(getAuth(request), request.body);
      },
    );
  };
}
