import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  completeSignupRequestSchema,
  completeSignupResponseSchema,
  signupLinkQuerySchema,
  signupLinkResponseSchema,
  startSignupRequestSchema,
  startSignupResponseSchema,
} from '@cloudtrim/contracts/signup';
import { rejectInvalidRequest } from '../password/password.validation';
import type { SignupService } from './signup.service';

export function signupRoutes(signup: SignupService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/v1/emailaddress',
      {
        config: { isPublic: true },
        schema: {
          tags: ['sign-up'],
          summary: 'Start sign-up: checks the captcha, then mails a confirmation link',
          body: startSignupRequestSchema,
          response: {
            200: startSignupResponseSchema,
            400: errorResponseSchema,
            403: errorResponseSchema,
            409: errorResponseSchema,
            425: errorResponseSchema,
            429: errorResponseSchema,
          },
        },
      },
      (request) => signup.start(request.body, request.ip),
    );

    app.get(
      '/api/v1/emailaddress',
      {
        config: { isPublic: true },
        schema: {
          tags: ['sign-up'],
          summary:
            'The address a confirmation or invitation link belongs to; an expired one mails a new link',
          querystring: signupLinkQuerySchema,
          response: {
            200: signupLinkResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            403: errorResponseSchema,
            409: errorResponseSchema,
          },
        },
      },
      (request) => signup.describeLink(request.query.guid),
    );

    app.put(
      '/api/v1/emailaddress',
      {
        config: { isPublic: true },
        attachValidation: true,
        schema: {
          tags: ['sign-up'],
          summary: 'Complete the account from a confirmation or invitation link',
          body: completeSignupRequestSchema,
          response: {
            200: completeSignupResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            409: errorResponseSchema,
            422: errorResponseSchema,
          },
        },
      },
      (request) => {
        rejectInvalidRequest(request, 'password');
        return signup.complete(request.body);
      },
    );
  };
}
