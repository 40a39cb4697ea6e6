import {
  budgetListResponseSchema,
  budgetParamsSchema,
  budgetRequestSchema,
  budgetSchema,
} from '@cloudtrim/contracts/budgets';
import { errorResponseSchema } from '@cloudtrim/contracts/common';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/authenticate';
import type { BudgetsService } from './budgets.service';

export function budgetRoutes(budgets: BudgetsService): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };

    app.get(
      '/api/v1/budget',
      {
        schema: {
          tags: ['budgets'],
          summary: "The team's budgets with their period's burn-down, and Azure's budgets (read-only)",
          response: { 200: budgetListResponseSchema, 401: errorResponseSchema },
        },
      },
      (request) => budgets.listBudgets(getAuth(request).teamId),
    );

    app.post(
      '/api/v1/budget',
      {
        schema: {
          tags: ['budgets'],
          summary: 'Create a budget',
          body: budgetRequestSchema,
          response: { 201: budgetSchema, ...errors },
        },
      },
      async (request, reply) => {
        const budget = await budgets.createBudget(getAuth(request).teamId, request.body);
        return reply.code(201).send(budget);
      },
    );

    app.put(
      '/api/v1/budget/:id',
      {
        schema: {
          tags: ['budgets'],
          summary: 'Change a budget (a threshold the change leaves uncrossed alerts again)',
          params: budgetParamsSchema,
          body: budgetRequestSchema,
          response: { 200: budgetSchema, ...errors },
        },
      },
      (request) => budgets.updateBudget(getAuth(request).teamId, request.params.id, request.body),
    );

    app.delete(
      '/api/v1/budget/:id',
      {
        schema: {
          tags: ['budgets'],
          summary: 'Delete a budget',
          params: budgetParamsSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await budgets.deleteBudget(getAuth(request).teamId, request.params.id);
        return reply.code(204).send(null);
      },
    );
  };
}
