import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { tokenRequestSchema, tokenResponseSchema } from '@cloudtrim/contracts/auth';
import { errorResponseSchema } from '@cloudtrim/contracts/common';
import { z } from 'zod';
import type { AuthService } from './auth.service';
import { getAuth } from '../../plugins/authenticate';

export function authRoutes(auth: AuthService): FastifyPluginAsyncZod {
  return async (app) => {
    app.post(
      '/api/v1/token',
      {
        config: { isPublic: true },
        schema: {
          tags: ['session'],
          summary: 'Log in: answers the session JWT as a JSON string',
          body: tokenRequestSchema,
          response: {
            200: tokenResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            429: errorResponseSchema,
          },
        },
      },
      async (request, reply) => {
        const token = await auth.logIn(request.body.emailAddress, request.body.password, request.ip);
        // Fastify sends a string as is; SPEC's client strips the quotes of a JSON string.
        return reply.type('application/json').send(JSON.stringify(token));
      },
    );

    app.delete(
      '/api/v1/token',
      { schema: { tags: ['session'], summary: 'Log out this session', response: { 204: z.null() } } },
      async (request, reply) => {
        await auth.logOut(getAuth(request));
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/api/v1/token/all',
      {
        schema: {
          tags: ['session'],
          summary: 'Log out every session of the user',
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await auth.logOutEverywhere(getAuth(request).userId);
        return reply.code(204).send(null);
      },
    );
  };
}
