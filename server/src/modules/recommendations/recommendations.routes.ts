import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  recommendationEvidenceQuerySchema,
  recommendationEvidenceSchema,
  recommendationsResponseSchema,
  resourceLogQuerySchema,
} from '@cloudtrim/contracts/recommendations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { readBareResourceId } from '../../lib/bare-resource-id';
import { notFound } from '../../lib/http-errors';
import { getAuth } from '../../plugins/authenticate';
import type { RecommendationsService } from './recommendations.service';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };

export function recommendationRoutes(recommendations: RecommendationsService): FastifyPluginAsyncZod {
  return async (app) => {
    // The team's open recommendations; for one resource (?resourceId= or the whole query string),
    // its history too, newest first, as the LOGS modal shows it.
    app.get(
      '/api/v1/log/recommendation',
      {
        schema: {
          tags: ['recommendations'],
          querystring: resourceLogQuerySchema,
          response: { 200: recommendationsResponseSchema, ...errors },
        },
      },
      (request) =>
        recommendations.listRecommendations(
          getAuth(request).teamId,
          request.query.resourceId ?? readBareResourceId(request.url),
        ),
    );

    app.get(
      '/api/v1/log/recommendation/evidence',
      {
        schema: {
          tags: ['recommendations'],
          querystring: recommendationEvidenceQuerySchema,
          response: { 200: recommendationEvidenceSchema, ...errors },
        },
      },
      async (request) => {
        const evidence = await recommendations.getEvidence(getAuth(request).teamId, request.query.id);
        if (!evidence) throw notFound('Recommendation not found.');
        return evidence;
      },
    );
  };
}
