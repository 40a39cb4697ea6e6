import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  inviteColleagueQuerySchema,
  inviteColleagueResponseSchema,
  removeTeamMemberRequestSchema,
  removeTeamMemberResponseSchema,
  setTeamRoleRequestSchema,
  setTeamRoleResponseSchema,
  teamResponseSchema,
} from '@cloudtrim/contracts/team';
import { getAuth } from '../../plugins/authenticate';
import type { TeamService } from './team.service';

export function teamRoutes(team: TeamService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/v1/team',
      {
        schema: {
          tags: ['team'],
          summary: 'Members (Active) and pending invitations (Invited) of your team, each with its role',
          response: { 200: teamResponseSchema, 401: errorResponseSchema },
        },
      },
      (request) => team.listTeam(getAuth(request)),
    );

    app.delete(
      '/api/v1/team',
      {
        schema: {
          tags: ['team'],
          summary:
            'Remove a member (who keeps the account, in a team of their own) or withdraw an invitation',
          body: removeTeamMemberRequestSchema,
          response: {
            200: removeTeamMemberResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            404: errorResponseSchema,
            409: errorResponseSchema,
          },
        },
      },
      (request) => team.removeFromTeam(getAuth(request), request.body.emailAddress),
    );

    app.put(
      '/api/v1/team/role',
      {
        schema: {
          tags: ['team'],
          summary:
            "An Owner sets a member's role (Owner, Approver, Member or Viewer); a team keeps one Owner",
          body: setTeamRoleRequestSchema,
          response: {
            200: setTeamRoleResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            403: errorResponseSchema,
            404: errorResponseSchema,
            409: errorResponseSchema,
          },
        },
      },
      (request) => team.setRole(getAuth(request), request.body.emailAddress, request.body.role),
    );

    app.post(
      '/api/v1/colleague',
      {
        schema: {
          tags: ['team'],
          summary: 'Invite a colleague: mails a link to sign up into your team',
          querystring: inviteColleagueQuerySchema,
          response: {
            200: inviteColleagueResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            409: errorResponseSchema,
            429: errorResponseSchema,
          },
        },
      },
      (request) => team.invite(getAuth(request), request.query.emailAddress),
    );
  };
}
