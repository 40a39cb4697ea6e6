import { errorResponseSchema } from '@cloudtrim/contracts/common';
import { teamSettingsSchema } from '@cloudtrim/contracts/recommendations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/authenticate';
import type { RecommendationsService } from './recommendations.service';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema };

// The team's engine settings: lookback (7-90 days) and the default maintenance hour (UTC).
export function teamSettingsRoutes(recommendations: RecommendationsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/v1/team/settings',
      { schema: { tags: ['team'], response: { 200: teamSettingsSchema, ...errors } } },
      (request) => recommendations.getTeamSettings(getAuth(request).teamId),
    );

    app.put(
      '/api/v1/team/settings',
      {
        schema: {
          tags: ['team'],
          body: teamSettingsSchema,
          response: { 200: teamSettingsSchema, ...errors },
        },
      },
      (request) => recommendations.saveTeamSettings(getAuth(request).teamId, request.body),
    );
  };
}
