import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountDetailsSchema, updateAccountDetailsSchema } from '@cloudtrim/contracts/account';
import { errorResponseSchema } from '@cloudtrim/contracts/common';
import { getAuth } from '../../plugins/authenticate';
import type { AccountService } from './account.service';

export function accountRoutes(account: AccountService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/v1/account/details',
      { schema: { tags: ['account'], response: { 200: accountDetailsSchema, 401: errorResponseSchema } } },
      (request) => account.getDetails(getAuth(request).userId),
    );

    app.put(
      '/api/v1/account/details',
      {
        schema: {
          tags: ['account'],
          body: updateAccountDetailsSchema,
          response: { 200: accountDetailsSchema, 400: errorResponseSchema, 401: errorResponseSchema },
        },
      },
      (request) => account.updateDetails(getAuth(request).userId, request.body),
    );
  };
}
