import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  applyRecommendationQuerySchema,
  applyRecommendationResponseSchema,
  automationLogResponseSchema,
  resourceLogQuerySchema,
} from '@cloudtrim/contracts/recommendations';
import { scheduleQuerySchema, scheduleResponseSchema } from '@cloudtrim/contracts/schedule';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readBareResourceId } from '../../lib/bare-resource-id';
import { getAuth } from '../../plugins/authenticate';
import type { ApplyTiming, AutomationService } from './automation.service';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};

export function automationRoutes(automation: AutomationService): FastifyPluginAsyncZod {
  return async (app) => {
    const applyRoutes: [string, ApplyTiming][] = [
      ['/api/v1/log/recommendation/apply/now', 'now'],
      ['/api/v1/log/recommendation/apply/maintenancewindow', 'window'],
    ];
    for (const [url, timing] of applyRoutes) {
      app.get(
        url,
        {
          schema: {
            tags: ['automation'],
            querystring: applyRecommendationQuerySchema,
            response: { 200: applyRecommendationResponseSchema, ...errors },
          },
        },
        (request) => automation.applyRecommendation(getAuth(request).teamId, request.query.id, timing),
      );
    }

    app.get(
      '/api/v1/resource/schedule',
      {
        schema: {
          tags: ['automation'],
          querystring: scheduleQuerySchema,
          response: { 200: scheduleResponseSchema, ...errors },
        },
      },
      (request) =>
        automation.listSchedule(
          getAuth(request).teamId,
          request.query.resourceId ?? readBareResourceId(request.url),
        ),
    );

    app.get(
      '/api/v1/log/automation',
      {
        schema: {
          tags: ['automation'],
          querystring: resourceLogQuerySchema,
          response: { 200: automationLogResponseSchema, ...errors },
        },
      },
      (request) =>
        automation.listLog(
          getAuth(request).teamId,
          request.query.resourceId ?? readBareResourceId(request.url),
        ),
    );
  };
}
