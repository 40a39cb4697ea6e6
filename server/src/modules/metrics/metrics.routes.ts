import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  metricDataQuerySchema,
  metricDataResponseSchema,
  metricsQuerySchema,
  metricsResponseSchema,
} from '@cloudtrim/contracts/metrics';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/authenticate';
import type { MetricsService } from './metrics.service';

export function metricRoutes(metrics: MetricsService): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };

    app.get(
      '/api/v1/metric',
      {
        schema: {
          tags: ['metrics'],
          querystring: metricsQuerySchema,
          response: { 200: metricsResponseSchema, ...errors },
        },
      },
      (request) => metrics.listMetrics(getAuth(request).teamId, request.query.azureResource),
    );

    app.get(
      '/api/v1/metricdata',
      {
        schema: {
          tags: ['metrics'],
          querystring: metricDataQuerySchema,
          response: { 200: metricDataResponseSchema, ...errors },
        },
      },
      (request) =>
        metrics.getMetricData(getAuth(request).teamId, request.query.metricId, request.query.minutes),
    );
  };
}
