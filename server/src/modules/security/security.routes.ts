import { errorResponseSchema } from '@cloudtrim/contracts/common';
import {
  securityCheckListSchema,
  securityExportQuerySchema,
  securityFindingDetailSchema,
  securityFindingListSchema,
  securityFindingParamsSchema,
  securityFindingQuerySchema,
  securityMuteRequestSchema,
  securityMuteRuleRequestSchema,
  securityMuteRuleSchema,
  securityScanResponseSchema,
  securitySummarySchema,
} from '@cloudtrim/contracts/security';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Readable } from 'node:stream';
import { getAuth } from '../../plugins/authenticate';
import { csvHeader, formatCsvRows, toOcsfDetectionFinding } from './security.export';
import type { SecurityService } from './security.service';

const exportVersion = '1';

export function securityRoutes(security: SecurityService): FastifyPluginAsyncZod {
  return async (app) => {
    const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 404: errorResponseSchema };
    const tags = ['security'];

    app.get(
      '/api/v1/security/summary',
      {
        schema: {
          tags,
          summary:
            'Open findings by severity, muted and resolved counts, each subscription’s secure score and its trend',
          response: { 200: securitySummarySchema, ...errors },
        },
      },
      (request) => security.summarize(getAuth(request).teamId),
    );

    app.get(
      '/api/v1/security/finding',
      {
        schema: {
          tags,
          summary: "The team's findings, a page at a time, filtered, searched and sorted",
          querystring: securityFindingQuerySchema,
          response: { 200: securityFindingListSchema, ...errors },
        },
      },
      (request) => security.listFindings(getAuth(request).teamId, request.query),
    );

    app.get(
      '/api/v1/security/finding/:id',
      {
        schema: {
          tags,
          summary: 'One finding with its evidence, remediation, mute and history',
          params: securityFindingParamsSchema,
          response: { 200: securityFindingDetailSchema, ...errors },
        },
      },
      (request) => security.readFinding(getAuth(request).teamId, request.params.id),
    );

    app.post(
      '/api/v1/security/finding/:id/mute',
      {
        schema: {
          tags,
          summary: 'Mute a finding with a reason until a day (within a year)',
          params: securityFindingParamsSchema,
          body: securityMuteRequestSchema,
          response: { 200: securityFindingDetailSchema, ...errors },
        },
      },
      (request) => security.mute(getAuth(request), request.params.id, request.body),
    );

    app.delete(
      '/api/v1/security/finding/:id/mute',
      {
        schema: {
          tags,
          summary: "End a finding's mute early",
          params: securityFindingParamsSchema,
          response: { 200: securityFindingDetailSchema, ...errors },
        },
      },
      (request) => security.unmute(getAuth(request), request.params.id),
    );

    app.post(
      '/api/v1/security/mute-rule',
      {
        schema: {
          tags,
          summary: "Mute a check for a resource group or a tag, today's findings and future ones",
          body: securityMuteRuleRequestSchema,
          response: { 201: securityMuteRuleSchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await security.createMuteRule(getAuth(request), request.body)),
    );

    app.get(
      '/api/v1/security/checks',
      {
        schema: {
          tags,
          summary: 'Every check: what it reads, its severity, remediation and CIS control',
          response: { 200: securityCheckListSchema, 401: errorResponseSchema },
        },
      },
      () => security.listChecks(),
    );

    app.post(
      '/api/v1/security/scan',
      {
        schema: {
          tags,
          summary: 'Scan every tenant of the team now (429 within a minute of the last)',
          response: { 200: securityScanResponseSchema, 401: errorResponseSchema, 429: errorResponseSchema },
        },
      },
      (request) => security.requestScan(getAuth(request).teamId),
    );

    app.get(
      '/api/v1/security/export',
      {
        schema: {
          tags,
          summary: 'Every finding as CSV or OCSF 1.1 Detection Finding JSON, streamed',
          querystring: securityExportQuerySchema,
        },
      },
      (request, reply) => {
        const { teamId } = getAuth(request);
        const format = request.query.format;
        async function* produce(): AsyncGenerator<string> {
          yield format === 'csv' ? csvHeader : '[';
          let isFirst = true;
          for await (const batch of security.streamFindings(teamId)) {
            if (format === 'csv') {
              yield formatCsvRows(batch);
              continue;
            }
            for (const finding of batch) {
              yield `${isFirst ? '' : ','}\n${JSON.stringify(toOcsfDetectionFinding(finding, exportVersion))}`;
              isFirst = false;
            }
          }
          if (format === 'ocsf') yield '\n]\n';
        }
        const day = security.readNow().toISOString().slice(0, 10);
        return reply
          .type(format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8')
          .header(
            'content-disposition',
            `attachment; filename="cloudtrim-security-${day}.${format === 'csv' ? 'csv' : 'ocsf.json'}"`,
          )
          .send(Readable.from(produce()));
      },
    );
  };
}
