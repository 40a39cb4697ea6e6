import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  approvalDecisionRequestSchema,
  approvalListResponseSchema,
  approvalParamsSchema,
  approvalSchema,
  pipelineDefinitionSchema,
  pipelineImportErrorSchema,
  pipelineTeamLimitsSchema,
  pipelineImportRequestSchema,
  pipelineListQuerySchema,
  pipelineListResponseSchema,
  pipelineParamsSchema,
  pipelinePreviewResponseSchema,
  pipelineRunDetailSchema,
  pipelineRunListQuerySchema,
  pipelineRunListResponseSchema,
  pipelineRunParamsSchema,
  pipelineRunRequestSchema,
  pipelineSchema,
  pipelineTemplatesResponseSchema,
  pipelineYamlContentType,
} from '@cloudtrim/contracts/pipelines';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getAuth } from '../../plugins/authenticate';
import { PipelineFileError, type PipelinesService } from './pipelines.service';

// Automation pipelines and their approvals (issue 19). PUT saves a new version and keeps the state;
// pause and resume change the state. Import takes `{ yaml }` as JSON.
export function pipelineRoutes(pipelines: PipelinesService): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };
    const tags = ['pipelines'];

    app.get(
      '/api/v1/pipeline',
      {
        schema: {
          tags,
          summary: "The team's pipelines, newest edit first, a page at a time",
          querystring: pipelineListQuerySchema,
          response: { 200: pipelineListResponseSchema, ...errors },
        },
      },
      (request) => pipelines.listPipelines(getAuth(request).teamId, request.query),
    );

    app.get(
      '/api/v1/pipeline/limits',
      {
        schema: {
          tags,
          summary: "How many resources the team's pipelines may act on in an hour, across all of them",
          response: { 200: pipelineTeamLimitsSchema, ...errors },
        },
      },
      (request) => pipelines.getTeamLimits(getAuth(request).teamId),
    );

    app.put(
      '/api/v1/pipeline/limits',
      {
        schema: {
          tags,
          summary: "Set how many resources the team's pipelines may act on in an hour (1 to 1,000)",
          body: pipelineTeamLimitsSchema,
          response: { 200: pipelineTeamLimitsSchema, ...errors },
        },
      },
      (request) => pipelines.setTeamLimits(getAuth(request).teamId, request.body),
    );

    app.post(
      '/api/v1/pipeline',
      {
        schema: {
          tags,
          summary: 'Create a pipeline (active; a dry run unless its gates say otherwise)',
          body: pipelineDefinitionSchema,
          response: { 201: pipelineSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await pipelines.createPipeline(getAuth(request), request.body)),
    );

    app.get(
      '/api/v1/pipeline/templates',
      {
        schema: {
          tags,
          summary: 'The pipelines to start from',
          response: { 200: pipelineTemplatesResponseSchema, 401: errorResponseSchema },
        },
      },
      () => pipelines.listTemplates(),
    );

    app.get(
      '/api/v1/pipeline/schema.json',
      {
        config: { isPublic: true },
        schema: {
          tags,
          summary: 'The JSON Schema of a pipeline file',
          response: { 200: z.record(z.string(), z.unknown()) },
        },
      },
      () => pipelines.getJsonSchema(),
    );

    app.post(
      '/api/v1/pipeline/preview',
      {
        schema: {
          tags,
          summary: 'A dry run of a definition not yet saved: what it matches now, and its annual saving',
          body: pipelineDefinitionSchema,
          response: { 200: pipelinePreviewResponseSchema, ...errors },
        },
      },
      (request) => pipelines.previewPipeline(getAuth(request).teamId, request.body),
    );

    app.post(
      '/api/v1/pipeline/import',
      {
        schema: {
          tags,
          summary:
            'Create a pipeline from a YAML file; a bad file answers its line and field, and saves nothing',
          body: pipelineImportRequestSchema,
          response: { 201: pipelineSchema, 400: pipelineImportErrorSchema, 401: errorResponseSchema },
        },
      },
      async (request, reply) => {
        try {
          return reply.code(201).send(await pipelines.importPipeline(getAuth(request), request.body));
        } catch (error) {
          if (!(error instanceof PipelineFileError)) throw error;
          return reply.code(400).send({
            statusCode: 400,
            error: 'Bad Request',
            message: error.field
              ? `Line ${error.line}, ${error.field}: ${error.message}`
              : `Line ${error.line}: ${error.message}`,
            field: error.field,
            line: error.line,
          });
        }
      },
    );

    app.get(
      '/api/v1/pipeline/run/:runId',
      {
        schema: {
          tags,
          summary: 'A run with what it did with each resource',
          params: pipelineRunParamsSchema,
          response: { 200: pipelineRunDetailSchema, ...errors },
        },
      },
      (request) => pipelines.getRun(getAuth(request).teamId, request.params.runId),
    );

    app.get(
      '/api/v1/pipeline/:id',
      {
        schema: {
          tags,
          summary: 'A pipeline and its current definition',
          params: pipelineParamsSchema,
          response: { 200: pipelineSchema, ...errors },
        },
      },
      (request) => pipelines.getPipeline(getAuth(request).teamId, request.params.id),
    );

    app.put(
      '/api/v1/pipeline/:id',
      {
        schema: {
          tags,
          summary: 'Edit a pipeline: a new version (runs keep the version they used; the state stays)',
          params: pipelineParamsSchema,
          body: pipelineDefinitionSchema,
          response: { 200: pipelineSchema, ...errors },
        },
      },
      (request) => pipelines.updatePipeline(getAuth(request), request.params.id, request.body),
    );

    app.delete(
      '/api/v1/pipeline/:id',
      {
        schema: {
          tags,
          summary: 'Delete a pipeline with its runs and approvals',
          params: pipelineParamsSchema,
          response: { 204: z.null(), ...errors },
        },
      },
      async (request, reply) => {
        await pipelines.deletePipeline(getAuth(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    for (const [verb, state] of [
      ['pause', 'paused'],
      ['resume', 'active'],
    ] as const) {
      app.post(
        `/api/v1/pipeline/:id/${verb}`,
        {
          schema: {
            tags,
            summary:
              state === 'paused'
                ? 'Pause a pipeline: its schedule runs it no more'
                : 'Resume a pipeline: its schedule runs it from its next tick',
            params: pipelineParamsSchema,
            response: { 200: pipelineSchema, ...errors },
          },
        },
        (request) => pipelines.setPipelineState(getAuth(request), request.params.id, state),
      );
    }

    app.post(
      '/api/v1/pipeline/:id/run',
      {
        schema: {
          tags,
          summary: 'Run a pipeline now, dry or real, through its gates',
          params: pipelineParamsSchema,
          body: pipelineRunRequestSchema,
          response: { 200: pipelineRunDetailSchema, ...errors },
        },
      },
      (request) => pipelines.runNow(getAuth(request), request.params.id, request.body),
    );

    app.get(
      '/api/v1/pipeline/:id/runs',
      {
        schema: {
          tags,
          summary: "A pipeline's runs, newest first, a page at a time",
          params: pipelineParamsSchema,
          querystring: pipelineRunListQuerySchema,
          response: { 200: pipelineRunListResponseSchema, ...errors },
        },
      },
      (request) => pipelines.listRuns(getAuth(request).teamId, request.params.id, request.query),
    );

    app.get(
      '/api/v1/pipeline/:id/export',
      {
        schema: {
          tags,
          summary: 'A pipeline as a YAML file',
          params: pipelineParamsSchema,
          produces: [pipelineYamlContentType],
          response: { 200: z.string().describe('The pipeline file'), ...errors },
        },
      },
      async (request, reply) => {
        const text = await pipelines.exportPipeline(getAuth(request).teamId, request.params.id);
        return reply
          .header('content-type', `${pipelineYamlContentType}; charset=utf-8`)
          .header('content-disposition', `attachment; filename="pipeline-${request.params.id}.yaml"`)
          .send(text);
      },
    );

    app.get(
      '/api/v1/approval',
      {
        schema: {
          tags,
          summary:
            "The team's approvals waiting or approved and not yet run, each saying whether the signed-in user may decide it (not their own proposals)",
          response: { 200: approvalListResponseSchema, 401: errorResponseSchema },
        },
      },
      (request) => pipelines.listApprovals(getAuth(request)),
    );

    app.post(
      '/api/v1/approval/:id',
      {
        schema: {
          tags,
          summary:
            "Approve (an Owner or Approver, not a proposer, in the team before the proposal) or reject (an Owner or Approver, until it has run) a pipeline's action; 403 says why not",
          params: approvalParamsSchema,
          body: approvalDecisionRequestSchema,
          response: { 200: approvalSchema, 403: errorResponseSchema, 409: errorResponseSchema, ...errors },
        },
      },
      (request) => pipelines.decideApproval(getAuth(request), request.params.id, request.body),
    );
  };
}
