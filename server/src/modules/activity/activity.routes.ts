import {
  activityLogParamsSchema,
  activityLogQuerySchema,
  activityLogResponseSchema,
  type ActivityLogResponse,
} from '@cloudtrim/contracts/activity';
import { errorResponseSchema } from '@cloudtrim/contracts/common';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/authenticate';
import type { ActivityService } from './activity.service';

export function activityRoutes(activity: ActivityService): FastifyPluginAsyncZod {
  return async (app) => {
    const response = {
      200: activityLogResponseSchema,
      400: errorResponseSchema,
      401: errorResponseSchema,
      404: errorResponseSchema,
    };

    // The page comes as JSON bytes, kept per log version (ActivityService.readEntriesJson), so a
    // repeated call costs no query for the rows and no serialisation.
    const sendJson = (reply: FastifyReply, body: Buffer) =>
      // Fastify sends a Buffer as is; the type provider only knows the parsed shape.
      reply.type('application/json; charset=utf-8').send(body as unknown as ActivityLogResponse);

    app.get(
      '/api/v1/log',
      { schema: { tags: ['activity'], querystring: activityLogQuerySchema, response } },
      async (request, reply) =>
        sendJson(reply, await activity.readEntriesJson(getAuth(request).teamId, 0, request.query.resourceId)),
    );

    app.get(
      '/api/v1/log/:offset',
      {
        schema: {
          tags: ['activity'],
          params: activityLogParamsSchema,
          querystring: activityLogQuerySchema,
          response,
        },
      },
      async (request, reply) =>
        sendJson(
          reply,
          await activity.readEntriesJson(
            getAuth(request).teamId,
            request.params.offset,
            request.query.resourceId,
          ),
        ),
    );
  };
}
