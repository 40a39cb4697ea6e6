import {
  alertListQuerySchema,
  alertListResponseSchema,
  alertParamsSchema,
  alertPreferencesSchema,
  alertSchema,
} from '@cloudtrim/contracts/alerts';
import { errorResponseSchema } from '@cloudtrim/contracts/common';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/authenticate';
import type { AlertsService } from './alerts.service';

export function alertRoutes(alerts: AlertsService): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };

    app.get(
      '/api/v1/alert',
      {
        schema: {
          tags: ['alerts'],
          summary:
            "The team's budget, anomaly, approval and failed pipeline run alerts, newest first, a page at a time",
          querystring: alertListQuerySchema,
          response: { 200: alertListResponseSchema, ...errors },
        },
      },
      (request) => alerts.listAlerts(getAuth(request).teamId, request.query),
    );

    app.post(
      '/api/v1/alert/:id/acknowledge',
      {
        schema: {
          tags: ['alerts'],
          summary: 'Acknowledge an alert (again: no change)',
          params: alertParamsSchema,
          response: { 200: alertSchema, ...errors },
        },
      },
      (request) => {
        const auth = getAuth(request);
        return alerts.acknowledge(auth.teamId, auth.userId, request.params.id);
      },
    );

    app.get(
      '/api/v1/alert/preferences',
      {
        schema: {
          tags: ['alerts'],
          summary: "The signed-in user's alert mail preferences",
          response: { 200: alertPreferencesSchema, ...errors },
        },
      },
      (request) => alerts.readPreferences(getAuth(request).userId),
    );

    app.put(
      '/api/v1/alert/preferences',
      {
        schema: {
          tags: ['alerts'],
          summary: "Change the signed-in user's alert mail preferences",
          body: alertPreferencesSchema,
          response: { 200: alertPreferencesSchema, ...errors },
        },
      },
      (request) => alerts.writePreferences(getAuth(request).userId, request.body),
    );
  };
}
