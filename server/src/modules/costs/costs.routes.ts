import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  costExportQuerySchema,
  costForecastQuerySchema,
  costForecastResponseSchema,
  costQuerySchema,
  costResponseSchema,
  type CostResponse,
  costSummaryQuerySchema,
  costSummaryResponseSchema,
  resourceCostQuerySchema,
  resourceCostResponseSchema,
} from '@cloudtrim/contracts/costs';
import { Readable } from 'node:stream';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/authenticate';
import type { CostsService } from './costs.service';

export function costRoutes(costs: CostsService): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };

    app.get(
      '/api/v1/cost',
      {
        schema: {
          tags: ['costs'],
          querystring: costQuerySchema,
          response: { 200: costResponseSchema, ...errors },
        },
      },
      // JSON bytes kept per question while the bill stands still (CostsService.readCostsJson);
      // Fastify sends a Buffer as is, the type provider only knows the parsed shape.
      async (request, reply) =>
        reply
          .type('application/json; charset=utf-8')
          .send(
            (await costs.readCostsJson(getAuth(request).teamId, request.query)) as unknown as CostResponse,
          ),
    );

    app.get(
      '/api/v1/cost/summary',
      {
        schema: {
          tags: ['costs'],
          querystring: costSummaryQuerySchema,
          response: { 200: costSummaryResponseSchema, ...errors },
        },
      },
      (request) => costs.readSummary(getAuth(request).teamId, request.query),
    );

    app.get(
      '/api/v1/cost/forecast',
      {
        schema: {
          tags: ['costs'],
          querystring: costForecastQuerySchema,
          response: { 200: costForecastResponseSchema, ...errors },
        },
      },
      (request) => costs.readForecast(getAuth(request).teamId, request.query),
    );

    app.get(
      '/api/v1/cost/resource',
      {
        schema: {
          tags: ['costs'],
          querystring: resourceCostQuerySchema,
          response: { 200: resourceCostResponseSchema, ...errors },
        },
      },
      (request) => costs.readResourceCosts(getAuth(request).teamId, request.query),
    );

    // FOCUS 1.0 as CSV, streamed: a long period is never held whole in memory.
    app.get(
      '/api/v1/cost/export',
      {
        schema: {
          tags: ['costs'],
          querystring: costExportQuerySchema,
          produces: ['text/csv'],
          response: {
            200: z.string().describe('FOCUS 1.0 columns, one row per resource, service and day'),
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const lines = costs.exportFocus(getAuth(request).teamId, request.query);
        // The first line is read before answering, so a refused request still gets its 4xx.
        const first = await lines.next();
        const { from, to } = request.query;
        const body = Readable.from(
          (async function* () {
            if (!first.done) yield first.value;
            yield* lines;
          })(),
        );
        return (
          reply
            .header('content-type', 'text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="cloudtrim-focus-${from}-${to}.csv"`)
            // A stream is piped as it is (never serialised); the schema types the reply as text.
            .send(body as unknown as string)
        );
      },
    );
  };
}
