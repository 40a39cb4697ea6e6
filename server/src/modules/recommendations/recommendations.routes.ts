import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  recommendationEvidenceQuerySchema,
  recommendationEvidenceSchema,
  recommendationsResponseSchema,
  resourceLogQuerySchema,
} from '@cloudtrim/contracts/recommendations';
import { resourceIdSchema } from '@cloudtrim/contracts/resources';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { badRequest, notFound } from '../../lib/http-errors';
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

// SPEC allows the resource id as the whole query string ('…?/subscriptions/…'). A query with '='
// is read by the schema; undefined when there is no query at all.
export function readBareResourceId(url: string): string | undefined {
  const questionMark = url.indexOf('?');
  if (questionMark < 0) return undefined;
  const query = url.slice(questionMark + 1);
  if (query === '' || query.includes('=')) return undefined;
  let decoded: string;
  try {
    decoded = decodeURIComponent(query.replaceAll('+', ' '));
  } catch {
    throw badRequest('The resource id is not a valid query string.', 'resourceId');
  }
  const parsed = resourceIdSchema.safeParse(decoded);
  if (!parsed.success) throw badRequest('The resource id must be 1 to 1000 characters.', 'resourceId');
  return parsed.data;
}
