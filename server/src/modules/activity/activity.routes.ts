import {
  activityLogParamsSchema,
  activityLogQuerySchema,
  activityLogResponseSchema,
} from '@cloudtrim/contracts/activity';
import { errorResponseSchema } from '@cloudtrim/contracts/common';
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

    app.get(
      '/api/v1/log',
      { schema: { tags: ['activity'], querystring: activityLogQuerySchema, response } },
      (request) => activity.listEntries(getAuth(request).teamId, 0, request.query.resourceId),
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
      (request) =>
        activity.listEntries(getAuth(request).teamId, request.params.offset, request.query.resourceId),
    );
  };
}
