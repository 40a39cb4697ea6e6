import {
  pipelineActionLabels,
  type ApprovalState,
  type PipelineAction,
  type PipelineFindingKind,
  type PipelineItem,
  type PipelineItemOutcome,
  type PipelineLastRun,
  type PipelineRecommendationKind,
  type PipelineRunState,
  type PipelineSchedule,
  type PipelineSkipReason,
  type PipelineState,
  type PipelineTagOperator,
} from '@cloudtrim/contracts/pipelines';
import { notAvailableText } from '@cloudtrim/contracts/messages';
import { formatCost } from '../../../lib/format-cost';
import { formatUtcDateTime } from '../../../lib/format-date-time';

// How pipelines, their runs and approvals are written on /automation.

export const pipelinesTitleText = 'Automation Pipelines';
export const noPipelinesText = 'No pipelines yet.';
export const noRunsText = 'No runs yet: run the pipeline now, or wait for its schedule.';
export const noApprovalsText = 'Nothing is waiting for your approval.';
export const noMatchesText = 'Nothing matches this pipeline right now.';
export const neverRunText = 'Never';
export const maintenanceWindowText = 'Each resource’s maintenance window';

export const pipelineStateLabels: Record<PipelineState, string> = { active: 'Active', paused: 'Paused' };

export const runStateLabels: Record<PipelineRunState, string> = {
  running: 'Running',
  succeeded: 'Succeeded',
  failed: 'Failed',
  awaitingApproval: 'Awaiting approval',
};

export const approvalStateLabels: Record<ApprovalState, string> = {
  waiting: 'Waiting',
  approved: 'Approved',
  rejected: 'Rejected',
  done: 'Done',
  cancelled: 'Cancelled',
};

export const outcomeLabels: Record<PipelineItemOutcome, string> = {
  matched: 'Matched',
  acted: 'Acted',
  skipped: 'Skipped',
  failed: 'Failed',
};

export const skipReasonLabels: Record<PipelineSkipReason, string> = {
  optedOut: 'opted out (cloudtrim:exclude)',
  notEnoughInARow: 'not matched enough runs in a row',
  overBlastRadius: 'over the blast radius',
  awaitingApproval: 'awaiting approval',
  rejected: 'rejected',
  held: 'held (a change in flight, or a hold after a rollback)',
  readOnly: 'its tenant is read-only',
  noRecommendation: 'no open recommendation',
  notApplicable: 'the action does not apply to it',
};

export const findingKindLabels: Record<PipelineFindingKind, string> = {
  recommendation: 'An open recommendation',
  idle: 'Idle',
  stoppedNotDeallocated: 'Stopped but not deallocated',
  unattachedDays: 'Unattached for a number of days',
  costOver: 'Costs more than an amount a month',
};

export const recommendationKindLabels: Record<PipelineRecommendationKind, string> = {
  resize: 'Resize',
  shutdown: 'Shut down',
  activeHours: 'Active hours',
  deallocate: 'Deallocate',
  diskTier: 'Change a disk’s tier',
  planTier: 'Change an App Service plan’s tier',
  databaseObjective: 'Change a database’s service objective',
  deleteDisk: 'Delete a disk',
  deletePublicIp: 'Delete a public IP address',
  deletePlan: 'Delete an App Service plan',
};

export const tagOperatorLabels: Record<PipelineTagOperator, string> = {
  equals: 'equals',
  notEquals: 'does not equal',
  exists: 'exists',
  notExists: 'is absent',
};

/** Savings are the recommendations' annual savings, in dollars as SPEC writes them. */
export function formatSaving(amount: number): string {
  return formatCost(amount, 'USD');
}

/** `Stop`, `Tag owner = finops`. */
export function describeAction(action: PipelineAction): string {
  const label = pipelineActionLabels[action.type];
  return action.tag ? `${label} ${action.tag.key} = ${action.tag.value}` : label;
}

/** `0 19 * * 1-5 (Europe/London)`, or each resource's maintenance window. */
export function describeSchedule(schedule: PipelineSchedule): string {
  return 'cron' in schedule ? `${schedule.cron} (${schedule.timeZone})` : maintenanceWindowText;
}

const zonedFormatters = new Map<string, Intl.DateTimeFormat>();

function getZonedFormatter(timeZone: string): Intl.DateTimeFormat {
  let formatter = zonedFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone });
    zonedFormatters.set(timeZone, formatter);
  }
  return formatter;
}

/**
 * The next run as the schedule's own clock reads it (`26 Nov 2026, 19:00 Europe/London`): a cron's hours
 * are that zone's. A maintenance window is an hour in UTC, written as SPEC writes times.
 */
export function formatNextRun(nextRunAt: string | null, schedule: PipelineSchedule): string {
  if (nextRunAt === null) return notAvailableText;
  if (!('cron' in schedule)) return formatUtcDateTime(nextRunAt);
  return `${getZonedFormatter(schedule.timeZone).format(new Date(nextRunAt))} ${schedule.timeZone}`;
}

/** `25/11/2026, 19:00:00 UTC · Dry run · Succeeded · 4 matched, 0 acted`. */
export function describeLastRun(lastRun: PipelineLastRun | null): string {
  if (lastRun === null) return neverRunText;
  return [
    formatUtcDateTime(lastRun.at),
    lastRun.dryRun ? 'Dry run' : null,
    runStateLabels[lastRun.state],
    `${lastRun.matched} matched, ${lastRun.acted} acted`,
  ]
    .filter((part): part is string => part !== null)
    .join(' · ');
}

/** `Skipped: over the blast radius`, `Acted`. */
export function describeOutcome(item: Pick<PipelineItem, 'outcome' | 'reason'>): string {
  const label = outcomeLabels[item.outcome];
  return item.reason ? `${label}: ${skipReasonLabels[item.reason]}` : label;
}
