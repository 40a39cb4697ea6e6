// A team's pipelines as definitions: listed, created (at most 100 a team), edited as new versions,
// paused, resumed and deleted, as YAML in and out, checked where the contract cannot, and described
// as the contract has them (last run, next run); the team's limits; the builder's templates and the
// JSON Schema.
import { pageSize } from '@cloudtrim/contracts/paging';
import {
  createPipelineJsonSchema,
  pipelineDefinitionSchema,
  pipelineImportRequestSchema,
  pipelineListQuerySchema,
  pipelineTeamLimitsSchema,
  type Pipeline,
  type PipelineDefinition,
  type PipelineListResponse,
  type PipelineSummary,
  type PipelineTeamLimits,
  type PipelineTemplatesResponse,
} from '@cloudtrim/contracts/pipelines';
import { badRequest, conflict, HttpError, notFound } from '../../lib/http-errors';
import type { AuthContext } from '../auth/auth.service';
import type { PipelineApprovalFlow } from './pipelines.approval-flow';
import type { PipelineDeps } from './pipelines.context';
import { checkCronInterval, maxPipelinesPerTeam, readMinimumIntervalMinutes } from './pipelines.limits';
import { PipelineLimitsRepository } from './pipelines.limits.repository';
import { parse } from './pipelines.mapping';
import { describeScope } from './pipelines.match';
import { settleApprovalAlert } from './pipelines.notice';
import { PipelinesRepository, type PipelineWithDefinition } from './pipelines.repository';
import { checkCron, findNextTick } from './pipelines.schedule';
import { pipelineTemplates } from './pipelines.templates';
import { readPipelineYaml, writePipelineYaml } from './pipelines.yaml';

// A bad pipeline file: 400 with the line and field at fault.
export class PipelineFileError extends HttpError {
  constructor(
    message: string,
    field: string | undefined,
    readonly line: number,
  ) {
    super(400, message, field);
  }
}

// The team's pipeline with its current definition; 404 when the team has none of that id.
export async function findPipeline(
  pipelines: PipelinesRepository,
  teamId: string,
  id: string,
): Promise<PipelineWithDefinition> {
  const pipeline = await pipelines.findForTeam(teamId, id);
  if (!pipeline) throw notFound('Pipeline not found.');
  return pipeline;
}

export class PipelineDefinitions {
  constructor(
    private readonly deps: PipelineDeps,
    private readonly approvalFlow: PipelineApprovalFlow,
  ) {}

  async listPipelines(teamId: string, query: unknown): Promise<PipelineListResponse> {
    const { offset } = parse(pipelineListQuerySchema, query);
    const [rows, total] = await Promise.all([
      this.deps.pipelines.listForTeam(teamId, { offset, limit: pageSize }),
      this.deps.pipelines.countForTeam(teamId),
    ]);
    return { pipelines: await this.describePipelines(teamId, rows), total };
  }

  async getPipeline(teamId: string, id: string): Promise<Pipeline> {
    return this.describePipeline(teamId, await findPipeline(this.deps.pipelines, teamId, id));
  }

  async createPipeline(auth: AuthContext, input: unknown): Promise<Pipeline> {
    const definition = await this.checkDefinition(auth.teamId, parse(pipelineDefinitionSchema, input));
    const id = await this.deps.runTransaction(async (transaction) => {
      // Counted under the team's lock: two saves at 99 cannot make 101.
      const limits = new PipelineLimitsRepository(transaction.db);
      await limits.lockTeam(auth.teamId);
      if ((await limits.countPipelines(auth.teamId)) >= maxPipelinesPerTeam) {
        throw conflict(`A team may have at most ${maxPipelinesPerTeam} pipelines.`);
      }
      return new PipelinesRepository(transaction.db).insert(
        auth.teamId,
        auth.userId,
        definition,
        this.deps.now(),
      );
    });
    return this.getPipeline(auth.teamId, id);
  }

  // An edit is a new version; runs keep the version they used, and the state stays as it was.
  async updatePipeline(auth: AuthContext, id: string, input: unknown): Promise<Pipeline> {
    await findPipeline(this.deps.pipelines, auth.teamId, id);
    const definition = await this.checkDefinition(auth.teamId, parse(pipelineDefinitionSchema, input));
    const isSaved = await this.deps.runTransaction(async (transaction) => {
      const pipelines = new PipelinesRepository(transaction.db);
      await pipelines.lockPipeline(id);
      return pipelines.addVersion(auth.teamId, id, auth.userId, definition, this.deps.now());
    });
    if (!isSaved) throw notFound('Pipeline not found.');
    return this.getPipeline(auth.teamId, id);
  }

  // A deleted pipeline takes its waiting approvals with it, and their alerts leave the top bar.
  async deletePipeline(auth: AuthContext, id: string): Promise<void> {
    const isDeleted = await this.deps.runTransaction(async (transaction) => {
      const waiting = await new PipelinesRepository(transaction.db).delete(auth.teamId, id);
      if (!waiting) return false;
      for (const approvalId of waiting) {
        await settleApprovalAlert(
          this.deps.alerts,
          transaction,
          { teamId: auth.teamId, id: approvalId },
          auth.userId,
        );
      }
      return true;
    });
    if (!isDeleted) throw notFound('Pipeline not found.');
  }

  // Pausing cancels the pipeline's approvals that have not run, approved or still waiting: a paused
  // pipeline acts on nothing.
  async setPipelineState(auth: AuthContext, id: string, state: 'active' | 'paused'): Promise<Pipeline> {
    const isSet = await this.deps.runTransaction(async (transaction) => {
      const at = this.deps.now();
      if (
        !(await new PipelinesRepository(transaction.db).setState(auth.teamId, id, state, auth.userId, at))
      ) {
        return false;
      }
      if (state === 'paused') await this.approvalFlow.cancelOpenApprovals(transaction, auth, id);
      return true;
    });
    if (!isSet) throw notFound('Pipeline not found.');
    return this.getPipeline(auth.teamId, id);
  }

  listTemplates(): PipelineTemplatesResponse {
    return { templates: [...pipelineTemplates] };
  }

  getJsonSchema(): Record<string, unknown> {
    return createPipelineJsonSchema();
  }

  async exportPipeline(teamId: string, id: string): Promise<string> {
    const pipeline = await findPipeline(this.deps.pipelines, teamId, id);
    return writePipelineYaml(pipeline.definition, `${this.deps.publicUrl}/api/v1/pipeline/schema.json`);
  }

  // A file becomes a new pipeline; a bad one answers 400 with its line and field, and saves nothing.
  async importPipeline(auth: AuthContext, input: unknown): Promise<Pipeline> {
    const { yaml } = parse(pipelineImportRequestSchema, input);
    const read = readPipelineYaml(yaml);
    if ('fault' in read) throw new PipelineFileError(read.fault.message, read.fault.field, read.fault.line);
    return this.createPipeline(auth, read.definition);
  }

  async getTeamLimits(teamId: string): Promise<PipelineTeamLimits> {
    const blastRadiusPerHour = await this.deps.runTransaction((transaction) =>
      new PipelineLimitsRepository(transaction.db).readBlastRadius(teamId),
    );
    return { blastRadiusPerHour };
  }

  async setTeamLimits(teamId: string, input: unknown): Promise<PipelineTeamLimits> {
    const { blastRadiusPerHour } = parse(pipelineTeamLimitsSchema, input);
    await this.deps.runTransaction((transaction) =>
      new PipelineLimitsRepository(transaction.db).setBlastRadius(
        teamId,
        blastRadiusPerHour,
        this.deps.now(),
      ),
    );
    return { blastRadiusPerHour };
  }

  // What the contract cannot check: a cron the parser reads, tenants of the team (another team's is
  // not found, as every other team's object is: the cross-team proof).
  private async checkDefinition(teamId: string, definition: PipelineDefinition): Promise<PipelineDefinition> {
    if ('cron' in definition.schedule) {
      const { cron, timeZone } = definition.schedule;
      const error =
        checkCron(cron, timeZone, this.deps.now()) ??
        checkCronInterval(cron, timeZone, this.deps.now(), readMinimumIntervalMinutes(definition));
      if (error) throw badRequest(`Cron: ${error}.`, 'schedule.cron');
    }
    const tenantIds = new Set(await this.deps.reads.listTenantIds(teamId));
    if (definition.scope.tenantIds?.some((tenantId) => !tenantIds.has(tenantId))) {
      throw notFound('Tenant not found.');
    }
    return definition;
  }

  private async describePipeline(teamId: string, pipeline: PipelineWithDefinition): Promise<Pipeline> {
    const [summary] = await this.describePipelines(teamId, [pipeline]);
    const emails = await this.deps.reads.readEmails([pipeline.createdBy, pipeline.updatedBy]);
    return {
      ...summary!,
      definition: pipeline.definition,
      createdBy: emails.get(pipeline.createdBy ?? '') ?? '',
      updatedBy: emails.get(pipeline.updatedBy ?? '') ?? '',
    };
  }

  private async describePipelines(
    teamId: string,
    rows: PipelineWithDefinition[],
  ): Promise<PipelineSummary[]> {
    const lastRuns = new Map(
      (await this.deps.runs.listLastRuns(rows.map((row) => row.id))).map((run) => [run.pipelineId, run]),
    );
    const windowHours = rows.some((row) => 'maintenanceWindow' in row.definition.schedule)
      ? await this.deps.reads.listWindowHours(teamId)
      : [];
    const now = this.deps.now();
    return rows.map((row) => {
      const lastRun = lastRuns.get(row.id);
      const nextRunAt =
        row.state === 'active' ? findNextTick(row.definition.schedule, now, windowHours) : null;
      return {
        id: row.id,
        name: row.name,
        state: row.state,
        version: row.version,
        scopeSummary: describeScope(row.definition.scope),
        scope: row.definition.scope,
        action: row.definition.action,
        schedule: row.definition.schedule,
        lastRun: lastRun
          ? {
              id: lastRun.id,
              at: lastRun.startedAt.toISOString(),
              state: lastRun.state,
              dryRun: lastRun.dryRun,
              matched: lastRun.matched,
              acted: lastRun.acted,
            }
          : null,
        nextRunAt: nextRunAt?.toISOString() ?? null,
        updatedAt: row.updatedAt.toISOString(),
      };
    });
  }
}
