import { errorResponseSchema } from '@cloudtrim/contracts/common';
import { teamSettingsSchema } from '@cloudtrim/contracts/recommendations';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/authenticate';
import type { TeamService } from './team.service';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema };

// The team's engine settings: lookback (7-90 days) and the default maintenance hour (UTC).
export function teamSettingsRoutes(team: TeamService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/v1/team/settings',
      { schema: { tags: ['team'], response: { 200: teamSettingsSchema, ...errors } } },
      (request) => team.getSettings(getAuth(request).teamId),
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
      (request) => team.saveSettings(getAuth(request).teamId, request.body),
    );
  };
}
