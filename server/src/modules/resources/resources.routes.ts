import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  cloudResourcesResponseSchema,
  type CloudResourcesResponse,
  findResourcesQuerySchema,
  findResourcesResponseSchema,
  saveCloudResourceRequestSchema,
  saveCloudResourceResponseSchema,
  updateResourceAutomationParamsSchema,
  updateResourceAutomationQuerySchema,
  updateResourceAutomationResponseSchema,
} from '@cloudtrim/contracts/resources';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { negotiateEncoding } from '../../lib/content-encoding';
import { getAuth } from '../../plugins/authenticate';
import type { ResourcesService } from './resources.service';

export function resourceRoutes(resources: ResourcesService): FastifyPluginAsyncZod {
  return async (app) => {
    // The body is JSON text built by PostgreSQL to the contract's shape (cloudResourcesResponseSchema,
    // checked by the tests) and kept per list version, already compressed for the encoding the
    // client accepts: a 10,000-row list costs no per-request serialisation or compression, and a
    // browser revalidating its copy gets 304 with no body.
    app.get(
      '/api/v1/resource',
      {
        schema: {
          tags: ['resources'],
          response: {
            200: cloudResourcesResponseSchema,
            304: z.null().describe('The copy named by If-None-Match is current'),
            401: errorResponseSchema,
          },
        },
      },
      async (request, reply) => {
        const encoding = negotiateEncoding(request.headers['accept-encoding']);
        const answer = await resources.readCloudResources(
          getAuth(request).teamId,
          encoding,
          request.headers['if-none-match'],
        );
        reply
          .header('cache-control', 'private, no-cache')
          .header('vary', 'accept-encoding')
          .header('etag', answer.etag);
        // No body at all: a 304 carries none (the serialiser would write 'null').
        if (!answer.isModified) return reply.code(304).send();
        if (answer.encoding !== 'identity') reply.header('content-encoding', answer.encoding);
        // Fastify sends a Buffer as is; the type provider only knows the parsed shape.
        return reply
          .type('application/json; charset=utf-8')
          .send(answer.body as unknown as CloudResourcesResponse);
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

    // The resource id is the rest of the path (SPEC's client appends it as is); no body.
    app.put(
      '/api/v1/resource/*',
      {
        schema: {
          tags: ['resources'],
          params: updateResourceAutomationParamsSchema,
          querystring: updateResourceAutomationQuerySchema,
          response: {
            200: updateResourceAutomationResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            404: errorResponseSchema,
          },
        },
      },
      (request) => resources.updateAutomation(getAuth(request).teamId, request.params['*'], request.query),
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
