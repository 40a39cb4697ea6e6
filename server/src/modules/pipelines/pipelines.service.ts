// Automation pipelines (issue 19): a team's policies, kept as versions, run on their schedule (one run
// per pipeline and tick, whatever the workers) or now, through their gates, acting only through
// AutomationService (the one writer of changes), with approvals for destructive actions. This facade
// is what the routes, jobs and container call; each job is done by its part:
// pipelines.definitions.ts (definitions, YAML, limits), pipelines.preview.ts (preview and savings),
// pipelines.runs.ts (a run), pipelines.ticks.ts (the schedule), pipelines.approval-flow.ts
// (approvals), pipelines.acting.ts (acting through automation), pipelines.settle.ts (a run's end).
import type {
  Approval,
  ApprovalListResponse,
  Pipeline,
  PipelineListResponse,
  PipelinePreviewResponse,
  PipelineRunDetail,
  PipelineRunListResponse,
  PipelineTeamLimits,
  PipelineTemplatesResponse,
} from '@cloudtrim/contracts/pipelines';
import type { Db } from '../../db/database';
import type { Transaction, TransactionRunner } from '../../db/transaction';
import type { AlertsService } from '../alerts/alerts.service';
import type { AuthContext } from '../auth/auth.service';
import type { PipelineChangeSettlement } from '../automation/automation.pipeline-hook';
import type { AutomationService } from '../automation/automation.service';
import type { MailService } from '../mail/mail.service';
import type { RecommendationsRepository } from '../recommendations/recommendations.repository';
import { PipelineActing } from './pipelines.acting';
import { PipelineApprovalFlow } from './pipelines.approval-flow';
import { createPoolRepositories, type PipelineDeps } from './pipelines.context';
import { PipelineDefinitions } from './pipelines.definitions';
import { PipelinePreview } from './pipelines.preview';
import type { PipelineWithDefinition } from './pipelines.repository';
import { PipelineRuns } from './pipelines.runs';
import { RunSettlement } from './pipelines.settle';
import { PipelineTicks } from './pipelines.ticks';

export { PipelineFileError } from './pipelines.definitions';

export class PipelinesService {
  private readonly definitions: PipelineDefinitions;
  private readonly preview: PipelinePreview;
  private readonly runs: PipelineRuns;
  private readonly ticks: PipelineTicks;
  private readonly approvalFlow: PipelineApprovalFlow;
  private readonly acting: PipelineActing;
  private readonly settlement: RunSettlement;

  constructor(
    db: Db,
    runTransaction: TransactionRunner,
    automation: Pick<AutomationService, 'requestChanges' | 'applyRecommendation'>,
    mail: Pick<MailService, 'enqueueMany'>,
    alerts: Pick<AlertsService, 'raise' | 'acknowledgeByKey' | 'reviseByKey'>,
    // A VM's bill, for what stopping it saves an hour.
    bills: Pick<RecommendationsRepository, 'listVmBills'>,
    publicUrl: string,
    now: () => Date = () => new Date(),
  ) {
    const deps: PipelineDeps = {
      ...createPoolRepositories(db),
      runTransaction,
      automation,
      mail,
      alerts,
      bills,
      publicUrl,
      now,
    };
    this.settlement = new RunSettlement(deps);
    this.acting = new PipelineActing(deps, this.settlement);
    this.approvalFlow = new PipelineApprovalFlow(deps, this.settlement, this.acting);
    this.definitions = new PipelineDefinitions(deps, this.approvalFlow);
    this.preview = new PipelinePreview(deps);
    this.runs = new PipelineRuns(deps, this.preview, this.settlement, this.acting, this.approvalFlow);
    this.ticks = new PipelineTicks(deps, this.runs, this.approvalFlow, this.acting);
  }

  listPipelines(teamId: string, query: unknown): Promise<PipelineListResponse> {
    return this.definitions.listPipelines(teamId, query);
  }

  getPipeline(teamId: string, id: string): Promise<Pipeline> {
    return this.definitions.getPipeline(teamId, id);
  }

  createPipeline(auth: AuthContext, input: unknown): Promise<Pipeline> {
    return this.definitions.createPipeline(auth, input);
  }

  updatePipeline(auth: AuthContext, id: string, input: unknown): Promise<Pipeline> {
    return this.definitions.updatePipeline(auth, id, input);
  }

  deletePipeline(auth: AuthContext, id: string): Promise<void> {
    return this.definitions.deletePipeline(auth, id);
  }

  setPipelineState(auth: AuthContext, id: string, state: 'active' | 'paused'): Promise<Pipeline> {
    return this.definitions.setPipelineState(auth, id, state);
  }

  listTemplates(): PipelineTemplatesResponse {
    return this.definitions.listTemplates();
  }

  getJsonSchema(): Record<string, unknown> {
    return this.definitions.getJsonSchema();
  }

  exportPipeline(teamId: string, id: string): Promise<string> {
    return this.definitions.exportPipeline(teamId, id);
  }

  importPipeline(auth: AuthContext, input: unknown): Promise<Pipeline> {
    return this.definitions.importPipeline(auth, input);
  }

  getTeamLimits(teamId: string): Promise<PipelineTeamLimits> {
    return this.definitions.getTeamLimits(teamId);
  }

  setTeamLimits(teamId: string, input: unknown): Promise<PipelineTeamLimits> {
    return this.definitions.setTeamLimits(teamId, input);
  }

  previewPipeline(teamId: string, input: unknown): Promise<PipelinePreviewResponse> {
    return this.preview.previewPipeline(teamId, input);
  }

  runNow(auth: AuthContext, id: string, input: unknown): Promise<PipelineRunDetail> {
    return this.runs.runNow(auth, id, input);
  }

  listRuns(teamId: string, id: string, query: unknown): Promise<PipelineRunListResponse> {
    return this.runs.listRuns(teamId, id, query);
  }

  getRun(teamId: string, runId: string): Promise<PipelineRunDetail> {
    return this.runs.getRun(teamId, runId);
  }

  listApprovals(auth: AuthContext): Promise<ApprovalListResponse> {
    return this.approvalFlow.listApprovals(auth);
  }

  decideApproval(auth: AuthContext, id: string, input: unknown): Promise<Approval> {
    return this.approvalFlow.decideApproval(auth, id, input);
  }

  carryOutDueApprovals(): Promise<number> {
    return this.approvalFlow.carryOutDueApprovals();
  }

  runDuePipelines(): Promise<number> {
    return this.ticks.runDuePipelines();
  }

  runIfDue(
    pipeline: PipelineWithDefinition,
    now: Date,
    windowHours?: Map<string, Promise<number[]>>,
  ): Promise<boolean> {
    return this.ticks.runIfDue(pipeline, now, windowHours);
  }

  dispatchDuePipelines(
    send: (due: { pipelineId: string; teamId: string; tick: string; priority: number }[]) => Promise<void>,
  ): Promise<number> {
    return this.ticks.dispatchDuePipelines(send);
  }

  runScheduledPipeline(teamId: string, pipelineId: string, tick: Date): Promise<boolean> {
    return this.ticks.runScheduledPipeline(teamId, pipelineId, tick);
  }

  purgeRunItems(): Promise<number> {
    return this.ticks.purgeRunItems();
  }

  resumeRuns(): Promise<number> {
    return this.acting.resumeRuns();
  }

  recordSettledChange(transaction: Transaction, settlement: PipelineChangeSettlement): Promise<void> {
    return this.settlement.recordSettledChange(transaction, settlement);
  }
}
