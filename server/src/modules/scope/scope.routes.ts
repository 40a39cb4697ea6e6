import { errorResponseSchema } from '@cloudtrim/contracts/common';
import { scopeQuerySchema, scopeResponseSchema } from '@cloudtrim/contracts/scope';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/authenticate';
import type { ScopeService } from './scope.service';

export function scopeRoutes(scope: ScopeService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/v1/scope',
      {
        schema: {
          tags: ['scope'],
          querystring: scopeQuerySchema,
          response: { 200: scopeResponseSchema, 400: errorResponseSchema, 401: errorResponseSchema },
        },
      },
      (request) => scope.listScope(getAuth(request).teamId, request.query),
    );
  };
}
