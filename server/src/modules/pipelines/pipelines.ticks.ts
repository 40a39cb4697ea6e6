// The clock's side of pipelines: each minute's due ticks (run here, or sent as one pipeline-run job
// each, ranked within its team), a pipeline-run job's run, a schedule or run that fails recorded as
// its tick's failed run, approvals past their grace and stalled runs seen to, and the daily purge.
import { dayMs } from '../../lib/time';
import { ActivityRepository } from '../activity/activity.repository';
import type { PipelineActing } from './pipelines.acting';
import type { PipelineApprovalFlow } from './pipelines.approval-flow';
import type { PipelineDeps } from './pipelines.context';
import { rankByTeam, runItemRetentionDays } from './pipelines.limits';
import { PipelineLimitsRepository } from './pipelines.limits.repository';
import { describePipelineService } from './pipelines.notice';
import type { PipelineWithDefinition } from './pipelines.repository';
import { RunsRepository } from './pipelines.runs.repository';
import type { PipelineRuns } from './pipelines.runs';
import { findDueTick, pipelineCatchUpMs } from './pipelines.schedule';

export class PipelineTicks {
  constructor(
    private readonly deps: PipelineDeps,
    private readonly runs: PipelineRuns,
    private readonly approvalFlow: PipelineApprovalFlow,
    private readonly acting: PipelineActing,
  ) {}

  // Every minute: each active pipeline whose tick is due runs once (the tick's claim decides), then
  // the approved actions whose grace period is over are carried out, and runs whose worker died are
  // finished. Each pipeline is evaluated on its own: one that fails is its own failed run, and holds
  // up neither the others nor the approvals and resumptions after them. Answers the runs made.
  async runDuePipelines(): Promise<number> {
    const now = this.deps.now();
    let runs = 0;
    const windowHours = new Map<string, Promise<number[]>>();
    for (const pipeline of await this.deps.pipelines.listActive()) {
      if (await this.runIfDue(pipeline, now, windowHours)) runs += 1;
    }
    const errors: unknown[] = [];
    await this.approvalFlow.carryOutDueApprovals().catch((error: unknown) => errors.push(error));
    await this.acting.resumeRuns().catch((error: unknown) => errors.push(error));
    if (errors.length > 0) throw errors[0];
    return runs;
  }

  // One pipeline's scheduled run for its tick due at `now`, if any; its failure is recorded as its
  // run's, failed, and never thrown to the tick. True when a run was made.
  async runIfDue(
    pipeline: PipelineWithDefinition,
    now: Date,
    windowHours = new Map<string, Promise<number[]>>(),
  ): Promise<boolean> {
    const tick = await this.findDue(pipeline, now, windowHours);
    return tick ? this.runForTick(pipeline, tick) : false;
  }

  // The tick job's side of fairness: each due pipeline whose tick no run has claimed yet is handed to
  // `send` (one pipeline-run job each, ranked within its team: pipelines.limits.ts rankByTeam), then
  // approvals past their grace and stalled runs are seen to. Answers how many were sent.
  async dispatchDuePipelines(
    send: (due: { pipelineId: string; teamId: string; tick: string; priority: number }[]) => Promise<void>,
  ): Promise<number> {
    const now = this.deps.now();
    const windowHours = new Map<string, Promise<number[]>>();
    const due: { pipelineId: string; teamId: string; tick: string }[] = [];
    const active = await this.deps.pipelines.listActive();
    const claimed = await this.deps.runTransaction((transaction) =>
      new PipelineLimitsRepository(transaction.db).listClaimedTicks(
        active.map((pipeline) => pipeline.id),
        new Date(now.getTime() - pipelineCatchUpMs),
      ),
    );
    for (const pipeline of active) {
      const tick = await this.findDue(pipeline, now, windowHours);
      if (!tick || claimed.has(`${pipeline.id}:${tick.toISOString()}`)) continue;
      due.push({ pipelineId: pipeline.id, teamId: pipeline.teamId, tick: tick.toISOString() });
    }
    await send(rankByTeam(due));
    const errors: unknown[] = [];
    await this.approvalFlow.carryOutDueApprovals().catch((error: unknown) => errors.push(error));
    await this.acting.resumeRuns().catch((error: unknown) => errors.push(error));
    if (errors.length > 0) throw errors[0];
    return due.length;
  }

  // A pipeline-run job: the pipeline as it is now (paused or deleted since: nothing), run for its tick.
  async runScheduledPipeline(teamId: string, pipelineId: string, tick: Date): Promise<boolean> {
    const pipeline = await this.deps.pipelines.findForTeam(teamId, pipelineId);
    if (!pipeline || pipeline.state !== 'active') return false;
    return this.runForTick(pipeline, tick);
  }

  // The tick due at `now`, if any; a schedule that cannot be read is that pipeline's failed run.
  private async findDue(
    pipeline: PipelineWithDefinition,
    now: Date,
    windowHours: Map<string, Promise<number[]>>,
  ): Promise<Date | undefined> {
    try {
      const tick = findDueTick(pipeline.definition.schedule, now, pipeline.activeSince);
      if (!tick) return undefined;
      // A window pipeline's hour in which none of the team's resources has its window is no run.
      if ('maintenanceWindow' in pipeline.definition.schedule) {
        if (!windowHours.has(pipeline.teamId)) {
          windowHours.set(pipeline.teamId, this.deps.reads.listWindowHours(pipeline.teamId));
        }
        if (!(await windowHours.get(pipeline.teamId)!).includes(tick.getUTCHours())) return undefined;
      }
      return tick;
    } catch (error) {
      // A schedule that cannot be read has no tick: its one failed run is for its activation.
      await this.recordFailedRun(pipeline, pipeline.activeSince, error);
      return undefined;
    }
  }

  private async runForTick(pipeline: PipelineWithDefinition, tick: Date): Promise<boolean> {
    try {
      return (await this.runs.executeRun(pipeline, { kind: 'schedule', tick })) !== undefined;
    } catch (error) {
      await this.recordFailedRun(pipeline, tick, error);
      return true;
    }
  }

  // A scheduled evaluation that threw: its tick's run, failed, so the tick is not tried again each
  // minute and the team sees it (a run committed before the failure keeps its own state).
  private async recordFailedRun(pipeline: PipelineWithDefinition, tick: Date, error: unknown): Promise<void> {
    const at = this.deps.now();
    await this.deps.runTransaction(async (transaction) => {
      const runId = await new RunsRepository(transaction.db).insertScheduledRun({
        pipelineId: pipeline.id,
        teamId: pipeline.teamId,
        version: pipeline.version,
        trigger: 'schedule',
        dryRun: pipeline.definition.gates.dryRun,
        state: 'failed',
        scheduledFor: tick,
        startedBy: null,
        startedAt: at,
        finishedAt: at,
      });
      if (!runId) return;
      await new ActivityRepository(transaction.db).insertManyInTransaction([
        {
          teamId: pipeline.teamId,
          tenantId: null,
          serviceName: describePipelineService(pipeline.name),
          resourceArmId: null,
          logText: `The run failed: ${error instanceof Error ? error.message : String(error)}`,
        },
      ]);
    });
  }

  // Run items older than their 90 days, for every team (the daily purge job); answers how many went.
  async purgeRunItems(): Promise<number> {
    const before = new Date(this.deps.now().getTime() - runItemRetentionDays * dayMs);
    return this.deps.runTransaction((transaction) =>
      new PipelineLimitsRepository(transaction.db).purgeRunItems(before),
    );
  }
}
