// The pipelines service's pure pieces: an action's plan, a run's items and runs as the contract has
// them, a Recent Activity entry under the pipeline's name, and the 400 for input the routes have not
// validated.
import { roundCents } from '@cloudtrim/contracts/money';
import type {
  PipelineDefinition,
  PipelineItem,
  PipelineRun,
  PipelineSkipReason,
} from '@cloudtrim/contracts/pipelines';
import type { z } from 'zod';
import { badRequest } from '../../lib/http-errors';
import type { NewActivityEntry } from '../activity/activity.repository';
import type { EvaluatedItem, PipelinePlan } from './pipelines.match';
import { describePipelineService } from './pipelines.notice';
import type { NewPipelineRunItem, PipelineRunItemRow, PipelineRunRow } from './pipelines.runs.repository';

export function toPlan(type: PipelineDefinition['action']['type']): PipelinePlan {
  if (type === 'stop' || type === 'deallocate') return 'deallocate';
  if (type === 'start') return 'start';
  if (type === 'notify' || type === 'tag') return type;
  return 'apply';
}

// The plans carried out as scheduled changes by automation's executor (its claim, lease and logs); a
// tag is a merge, so a change written again changes nothing.
export function isChangePlan(plan: PipelinePlan | null): boolean {
  return plan === 'deallocate' || plan === 'start' || plan === 'tag';
}

export function toItemRow(runId: string, item: EvaluatedItem, approvalId: string | null): NewPipelineRunItem {
  return {
    runId,
    resourceId: item.candidate.resourceId,
    resourceArmId: item.candidate.armId,
    resourceName: item.candidate.name,
    resourceType: item.candidate.subcategory,
    subscriptionId: item.candidate.subscriptionId,
    resourceGroup: item.candidate.resourceGroup,
    outcome: item.outcome,
    reason: item.reason,
    detail: item.detail,
    annualSaving: roundCents(item.annualSaving),
    recommendationId: item.recommendationId,
    approvalId,
  };
}

export function toItem(row: NewPipelineRunItem | PipelineRunItemRow): PipelineItem {
  return {
    resourceId: row.resourceArmId,
    resourceName: row.resourceName,
    resourceType: row.resourceType,
    subscriptionId: row.subscriptionId,
    resourceGroup: row.resourceGroup,
    outcome: row.outcome,
    reason: (row.reason ?? null) as PipelineSkipReason | null,
    detail: row.detail,
    annualSaving: row.annualSaving ?? 0,
  };
}

export function toRun(row: PipelineRunRow, pipelineName: string, emails: Map<string, string>): PipelineRun {
  return {
    id: row.id,
    pipelineId: row.pipelineId,
    pipelineName,
    version: row.version,
    trigger: row.trigger,
    dryRun: row.dryRun,
    state: row.state,
    scheduledFor: row.scheduledFor.toISOString(),
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
    startedBy: row.startedBy ? (emails.get(row.startedBy) ?? null) : null,
    matched: row.matched,
    acted: row.acted,
    skipped: row.skipped,
    failed: row.failed,
    annualSaving: row.annualSaving,
  };
}

export function toActivity(
  teamId: string,
  tenantId: string | null,
  pipelineName: string,
  resourceArmId: string,
  resourceName: string,
  detail: string,
): NewActivityEntry {
  return {
    teamId,
    tenantId,
    serviceName: describePipelineService(pipelineName),
    resourceArmId,
    logText: `${resourceName}: ${detail}`,
  };
}

// The routes have validated already; a service called otherwise answers the same 400.
export function parse<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw badRequest(issue.message, issue.path.map(String).join('.') || undefined);
}
