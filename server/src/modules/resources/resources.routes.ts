import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  cloudResourcesResponseSchema,
  type CloudResourcesResponse,
  findResourcesQuerySchema,
  findResourcesResponseSchema,
  saveCloudResourceRequestSchema,
  saveCloudResourceResponseSchema,
} from '@cloudtrim/contracts/resources';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/authenticate';
import type { ResourcesService } from './resources.service';

export function resourceRoutes(resources: ResourcesService): FastifyPluginAsyncZod {
  return async (app) => {
    // The body is JSON text built by PostgreSQL to the contract's shape (cloudResourcesResponseSchema,
    // checked by the tests), sent as it is: a 10,000-row list costs no per-request serialisation.
    app.get(
      '/api/v1/resource',
      {
        schema: {
          tags: ['resources'],
          response: { 200: cloudResourcesResponseSchema, 401: errorResponseSchema },
        },
      },
      async (request, reply) => {
        const body = await resources.readCloudResourcesJson(getAuth(request).teamId);
        // Fastify sends a Buffer as is; the type provider only knows the parsed shape.
        return reply.type('application/json; charset=utf-8').send(body as unknown as CloudResourcesResponse);
      },
    );

    app.post(
      '/api/v1/resource',
      {
        schema: {
          tags: ['resources'],
          body: saveCloudResourceRequestSchema,
          response: {
            200: saveCloudResourceResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            404: errorResponseSchema,
          },
        },
      },
      (request) => resources.saveCloudResource(getAuth(request).teamId, request.body),
    );

    app.get(
      '/api/v1/resource/find',
      {
        schema: {
          tags: ['resources'],
          querystring: findResourcesQuerySchema,
          response: { 200: findResourcesResponseSchema, 400: errorResponseSchema, 401: errorResponseSchema },
        },
      },
      (request) => resources.findResources(getAuth(request).teamId, request.query.partialResource),
    );
  };
}
