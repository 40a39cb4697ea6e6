import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  addTenantRequestSchema,
  addTenantResponseSchema,
  deleteTenantParamsSchema,
  deleteTenantResponseSchema,
  tenantsResponseSchema,
} from '@cloudtrim/contracts/tenants';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/authenticate';
import type { TenantsService } from './tenants.service';

export function tenantRoutes(tenants: TenantsService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/v1/tenant',
      { schema: { tags: ['tenants'], response: { 200: tenantsResponseSchema, 401: errorResponseSchema } } },
      (request) => tenants.listTenants(getAuth(request).teamId),
    );

    app.post(
      '/api/v1/tenant',
      {
        schema: {
          tags: ['tenants'],
          body: addTenantRequestSchema,
          response: {
            200: addTenantResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            409: errorResponseSchema,
            429: errorResponseSchema,
            503: errorResponseSchema,
          },
        },
      },
      (request) => {
        const auth = getAuth(request);
        return tenants.addTenant(auth.teamId, request.body, auth.userId);
      },
    );

    app.delete(
      '/api/v1/tenant/:id',
      {
        schema: {
          tags: ['tenants'],
          params: deleteTenantParamsSchema,
          response: {
            200: deleteTenantResponseSchema,
            400: errorResponseSchema,
            401: errorResponseSchema,
            404: errorResponseSchema,
          },
        },
      },
      (request) => tenants.deleteTenant(getAuth(request).teamId, request.params.id),
    );
  };
}
