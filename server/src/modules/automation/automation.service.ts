// The one writer of scheduled changes: applying recommendations (now or at the maintenance window),
// planning those of Automated resources, the changes of the guard and of active hours, following a
// resource's automation settings, dispatching what is due and sending again what stalled. Every path
// takes the VM's lock in its transaction, and a VM has at most one change in flight: a second apply
// answers 409 naming it, the guard and active hours queue behind it. The executor
// (automation.executor.ts) carries the changes out.
import { automationValues } from '@cloudtrim/contracts/automation';
import type { AutomationLogResponse } from '@cloudtrim/contracts/recommendations';
import type { ScheduleResponse } from '@cloudtrim/contracts/schedule';
import type { CloudCredentials, CloudProvider } from '../../cloud/cloud-provider';
import type { Transaction, TransactionRunner } from '../../db/transaction';
import { automationExecuteJob } from '../../queue/automation-work';
import type { JobQueue } from '../../queue/queue';
import { conflict, forbidden, HttpError, notFound } from '../../lib/http-errors';
import type { ActivityService } from '../activity/activity.service';
import type { NewActivityEntry } from '../activity/activity.repository';
import type { TenantsService } from '../tenants/tenants.service';
import { tenantReadOnlyText } from '../tenants/tenants.service';
import {
  AutomationRepository,
  logEntryOf,
  type ApplyTarget,
  type ChangeToMeasure,
  type PlannedSaving,
  type ChangeKind,
  type ChangeOrigin,
  type ChangeRow,
  type NewChange,
  type NewLogEntry,
  type RecommendationKind,
} from './automation.repository';
import { automationServiceName, startGraceMs } from './automation.names';
import type { PipelineChangeListener, PipelineChangeSettlement } from './automation.pipeline-hook';
import {
  describeResourceChange,
  isDeletion,
  isResourceChange,
  type ResourceChangeKind,
} from './automation.resource-steps';
import { findNextWindowStart } from './automation.timing';
import { formatHour } from '../../lib/time';

export type ApplyTiming = 'now' | 'window';

export const deletionNotScheduledText =
  'Only APPLY NOW deletes a resource: a deletion cannot be undone, so it is never scheduled at the maintenance window or automated.';

// The change each kind of recommendation leads to (active hours set our own setting instead).
const changeKindOfRecommendation: Readonly<Record<Exclude<RecommendationKind, 'activeHours'>, ChangeKind>> = {
  resize: 'resize',
  shutdown: 'deallocate',
  deallocate: 'deallocate',
  deleteDisk: 'deleteDisk',
  deletePublicIp: 'deletePublicIp',
  diskTier: 'diskTier',
  deletePlan: 'deletePlan',
  planTier: 'planTier',
  databaseObjective: 'databaseObjective',
};

// Another module's record of an apply, in the apply's transaction: false when it was made already.
export type ApplyRecord = (transaction: Transaction) => Promise<boolean>;

// A pipeline run's apply: its record (the run's item marked acted), and the run the change carries
// (`pipeline_run_id`), so that the change's failure reaches the run's item as its stops' do.
export interface PipelineApply {
  runId: string;
  record: ApplyRecord;
}

// How many due changes one dispatch transaction claims; it loops until none are left.
const dispatchBatchSize = 500;

// A change another module asks for (the guard's rollback, an active-hours start or deallocation),
// with its log entry.
export interface ChangeRequest {
  change: NewChange;
  resourceArmId: string;
  resourceName: string;
  action: string;
}

export interface ResourceSettingsChange {
  teamId: string;
  tenantId: string;
  resourceId: string;
  automated: number;
  isWindowChanged: boolean;
  nextWindowStart: Date;
}

export class AutomationService {
  constructor(
    private readonly automation: AutomationRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly queue: Pick<JobQueue, 'send' | 'sendMany'>,
    private readonly activity: ActivityService,
    private readonly tenants: Pick<TenantsService, 'openForWork'>,
    private readonly cloud: Pick<CloudProvider, 'getVirtualMachine' | 'getResourceState'>,
    private readonly now: () => Date,
    // A pipeline run's change cancelled here (its recommendation replaced, its resource set to No
    // Change) tells the run, as the executor's cancellations do.
    private readonly onPipelineChangeSettled: PipelineChangeListener,
  ) {}

  // A GET, so a retry, a prefetch or a double click must change nothing the first call did not.
  // `pipeline`: a pipeline run's apply, its record (the run's item marked acted) written first in the
  // transaction that plans the change; when it answers false (recorded already, by another run of the
  // same work) nothing is planned.
  async applyRecommendation(
    teamId: string,
    recommendationId: number,
    timing: ApplyTiming,
    pipeline?: PipelineApply,
  ): Promise<{ message: string }> {
    const target = await this.automation.targets.findApplyTarget(teamId, recommendationId);
    if (!target) throw notFound('Recommendation not found.');
    if (target.canWrite === false) throw forbidden(tenantReadOnlyText);
    if (target.kind !== 'activeHours') {
      const kind = changeKindOf(target.kind);
      if (timing === 'window' && isDeletion(kind)) throw conflict(deletionNotScheduledText);
      if (target.status === 'open') await this.assertLiveSize(target, kind);
    }
    return this.planRecommendation(target, timing, timing, pipeline);
  }

  // After an analysis: each new recommendation of a resource set to Automate is planned at its window.
  async planAutomatedResources(tenantId: string): Promise<number> {
    const pending = await this.automation.targets.listAutomatedRecommendationIds(tenantId, this.now());
    let planned = 0;
    for (const { id, teamId } of pending) {
      const target = await this.automation.targets.findApplyTarget(teamId, id);
      if (!target || target.canWrite === false) continue;
      try {
        await this.planRecommendation(target, 'window', 'automated');
        planned += 1;
      } catch (error) {
        // Another change of the VM is in flight or it is held: the next analysis plans it again.
        if (!(error instanceof HttpError)) throw error;
      }
    }
    return planned;
  }

  // Plans other modules' changes in their transaction: each starts at once unless its VM has a
  // change in flight, in which case it waits, planned, for the dispatcher. Answers the change ids.
  async requestChanges(transaction: Transaction, requests: ChangeRequest[]): Promise<number[]> {
    const automation = new AutomationRepository(transaction.db);
    const started: number[] = [];
    const ids: number[] = [];
    const at = this.now();
    for (const request of requests) {
      await automation.lockResource(request.change.resourceId);
      const change = await automation.planChange(request.change);
      ids.push(change.id);
      const isDue = request.change.changeAt.getTime() <= at.getTime();
      const isFree = !(await automation.findInFlight(request.change.resourceId));
      if (isDue && isFree && (await automation.claimChange(change.id, at, this.startLeaseEnd(at)))) {
        started.push(change.id);
      }
      await automation.log.insertLog({
        teamId: request.change.teamId,
        resourceId: request.change.resourceId,
        resourceArmId: request.resourceArmId,
        friendlyName: request.resourceName,
        predictionMethod: request.change.predictionMethod,
        action: isFree || !isDue ? request.action : `${request.action}; queued behind the change in flight`,
        scheduledChangeId: change.id,
      });
    }
    await this.queue.sendMany(
      automationExecuteJob,
      started.map((changeId) => ({ changeId })),
      { db: transaction },
    );
    return ids;
  }

  // A resource's automation settings changed: No Change drops the changes recommendations planned
  // for it, leaving Automate drops the ones automation planned (in both cases also one claimed that
  // has not begun in Azure), and a new window moves the changes planned at the window to its next
  // start, as a new version. A guard's rollback is never dropped: it undoes a resize that hurt.
  async followResourceSettings(
    settings: ResourceSettingsChange,
  ): Promise<{ cancelledChanges: number; movedChanges: number }> {
    return this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      await automation.lockResource(settings.resourceId);
      let cancelledChanges = 0;
      if (settings.automated !== automationValues.automated) {
        const isRecommendOnly = settings.automated === automationValues.recommend;
        const origins: ChangeOrigin[] = isRecommendOnly ? ['automated'] : ['now', 'window', 'automated'];
        const reason = isRecommendOnly
          ? 'the resource was set to Recommend Only'
          : 'the resource was set to No Change';
        const cancelled = await automation.cancelUnstartedChanges(
          { resourceId: settings.resourceId },
          origins,
          reason,
        );
        await this.tellPipelines(transaction, cancelled, reason, 'optedOut');
        cancelledChanges = cancelled.length;
      }
      let movedChanges = 0;
      if (settings.isWindowChanged) {
        const planned = await automation.listPlannedChanges(settings.resourceId, ['window', 'automated']);
        movedChanges = await automation.movePlannedChanges(
          planned.map((change) => change.id),
          settings.nextWindowStart,
        );
      }
      return { cancelledChanges, movedChanges };
    });
  }

  // Recommendations an analysis replaced: the changes they planned and have not begun end cancelled.
  async cancelChangesOfRecommendations(recommendationIds: number[], reason: string): Promise<number> {
    if (recommendationIds.length === 0) return 0;
    const cancelled = await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      const rows = await automation.cancelUnstartedChanges(
        { recommendationIds },
        ['now', 'window', 'automated'],
        reason,
      );
      for (const row of rows) {
        const change = await automation.findChange(row.id);
        if (change) {
          await automation.log.insertLog(
            logEntryOf(change, `${capitalize(describeKind(row))} cancelled: ${reason}`),
          );
        }
      }
      await this.tellPipelines(transaction, rows, reason, 'noRecommendation');
      return rows;
    });
    return cancelled.length;
  }

  async listChangesToMeasure(tenantId: string, from: Date, to: Date): Promise<ChangeToMeasure[]> {
    return this.automation.savings.listChangesToMeasure(tenantId, from, to);
  }

  // What the planned changes will save, for the cost forecast (the schedule's one reader outside).
  async listPlannedSavings(teamId: string, tenantId?: string): Promise<PlannedSaving[]> {
    return this.automation.savings.listPlannedSavings(teamId, tenantId);
  }

  // The measured saving of a change, in its resource's automation log.
  async recordMeasuredSaving(change: ChangeToMeasure, action: string): Promise<void> {
    await this.automation.log.insertLog({
      teamId: change.teamId,
      resourceId: change.resourceId,
      resourceArmId: change.resourceArmId,
      friendlyName: change.resourceName,
      predictionMethod: change.predictionMethod,
      action,
      scheduledChangeId: change.id,
    });
  }

  async listSchedule(teamId: string, resourceArmId?: string): Promise<ScheduleResponse> {
    await this.assertKnownResource(teamId, resourceArmId);
    const rows = await this.automation.listSchedule(teamId, resourceArmId);
    return {
      Data: rows.map((row) => ({
        Id: row.id,
        ResourceId: row.resourceArmId,
        FriendlyName: row.friendlyName,
        ChangeDateTime: row.changeAt,
        NewSize: row.newSize ?? describeSizelessChange(row.kind),
        Version: String(row.version),
      })),
    };
  }

  async listLog(teamId: string, resourceArmId?: string): Promise<AutomationLogResponse> {
    await this.assertKnownResource(teamId, resourceArmId);
    const rows = await this.automation.log.listLog(teamId, resourceArmId);
    return {
      Data: rows.map((row) => ({
        ResourceId: row.resourceArmId,
        FriendlyName: row.friendlyName,
        When: row.createdAt,
        PredictionMethod: row.predictionMethod,
        Action: row.action,
      })),
    };
  }

  // One resource's entries: another team's resource, or no one's, is not found (not an empty list).
  private async assertKnownResource(teamId: string, resourceArmId: string | undefined): Promise<void> {
    if (resourceArmId !== undefined && !(await this.automation.log.knowsResource(teamId, resourceArmId))) {
      throw notFound('Resource not found.');
    }
  }

  // Every minute: window changes whose hour passed unclaimed move to the next window; due changes
  // are claimed with their executions sent in the same transaction (a crash between the two can
  // neither leave a claimed change without a job nor send a job twice); changes whose run stopped
  // answering are sent again.
  async dispatchDueChanges(): Promise<number> {
    await this.moveMissedWindowChanges();
    let dispatched = 0;
    for (const claim of [
      (automation: AutomationRepository, at: Date) =>
        automation.claimDueChanges(at, dispatchBatchSize, this.startLeaseEnd(at)),
      (automation: AutomationRepository, at: Date) =>
        automation.reclaimLapsedChanges(at, dispatchBatchSize, this.startLeaseEnd(at)),
    ]) {
      for (;;) {
        const claimed = await this.runTransaction(async (transaction) => {
          const ids = await claim(new AutomationRepository(transaction.db), this.now());
          await this.queue.sendMany(
            automationExecuteJob,
            ids.map((changeId) => ({ changeId })),
            { db: transaction },
          );
          return ids.length;
        });
        dispatched += claimed;
        if (claimed < dispatchBatchSize) break;
      }
    }
    return dispatched;
  }

  // A change at the window never runs outside it (workers down over 02:00 must not resize at 09:00).
  private async moveMissedWindowChanges(): Promise<void> {
    const at = this.now();
    const missed = await this.automation.listMissedWindowChanges(at);
    const activities: NewActivityEntry[] = [];
    for (const change of missed) {
      const nextStart = findNextWindowStart(at, change.maintenanceWindow);
      const action = `${capitalize(describeKind(change))} missed its window at ${change.changeAt.toISOString()}; moved to the next window, ${nextStart.toISOString()}`;
      const isMoved = await this.runTransaction(async (transaction) => {
        const automation = new AutomationRepository(transaction.db);
        await automation.lockResource(change.resourceId);
        if ((await automation.movePlannedChanges([change.id], nextStart)) === 0) return false;
        await automation.log.insertLog(logEntryOf(change, action));
        return true;
      });
      if (isMoved) activities.push(this.toActivity(change, action));
    }
    await this.activity.record(activities);
  }

  // Apply on a resource whose size (a VM's) or SKU (a disk's, plan's, database's) in Azure is no
  // longer the one the recommendation was made from would change something else than what the user
  // read: 409. Azure is asked when it answers; otherwise the last inventory's decides, and the
  // executor asks again before it acts.
  private async assertLiveSize(target: ApplyTarget, kind: ChangeKind): Promise<void> {
    if (!target.currentSize) return;
    const liveSize = (await this.readLiveSize(target, kind)) ?? target.resourceSize;
    if (liveSize && liveSize.toLowerCase() !== target.currentSize.toLowerCase()) {
      throw conflict(
        `${target.resourceName} is now ${liveSize}, not ${target.currentSize} as when this recommendation was made; it will be analysed again.`,
      );
    }
  }

  private async readLiveSize(target: ApplyTarget, kind: ChangeKind): Promise<string | null | undefined> {
    let credentials: CloudCredentials | undefined;
    try {
      credentials = (await this.tenants.openForWork(target.tenantId, 'apply'))?.credentials;
      if (!credentials) return undefined;
      const options = { signal: AbortSignal.timeout(10_000) };
      if (isResourceChange(kind)) {
        return (await this.cloud.getResourceState(credentials, target.resourceArmId, options))?.sku;
      }
      return (await this.cloud.getVirtualMachine(credentials, target.resourceArmId, options)).size;
    } catch {
      return undefined;
    }
  }

  private async planRecommendation(
    target: ApplyTarget,
    timing: ApplyTiming,
    origin: ChangeOrigin,
    pipeline?: PipelineApply,
  ): Promise<{ message: string }> {
    if (target.kind === 'activeHours') return this.applyActiveHours(target, pipeline?.record);
    const kind = changeKindOf(target.kind);
    // Automated planning never plans a deletion (its listing leaves them out; this holds regardless).
    if (isDeletion(kind) && timing !== 'now') throw conflict(deletionNotScheduledText);
    const hasTarget = kind === 'resize' || (isResourceChange(kind) && !isDeletion(kind));
    if (hasTarget && !target.targetSize) throw conflict('This recommendation names no size.');
    const now = this.now();
    const changeAt = timing === 'now' ? now : findNextWindowStart(now, target.maintenanceWindow);
    const outcome = await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      await automation.lockResource(target.resourceId);
      if (pipeline && !(await pipeline.record(transaction))) return undefined;
      const live = await automation.findLiveChangeOf(target.recommendationId);
      // A retried GET of an apply that failed says so rather than trying again.
      if (live?.state === 'failed') {
        throw conflict(
          `This recommendation was applied and the change failed: ${live.error ?? 'no reason given'}.`,
        );
      }
      // Already started, done, or planned at the window again: nothing new. Apply now on a change
      // planned at the window brings it forward.
      if (live && (live.state !== 'planned' || timing === 'window')) return undefined;
      if (target.status === 'superseded') throw conflict('A newer recommendation has replaced this one.');
      if (target.heldUntil && target.heldUntil.getTime() > now.getTime()) {
        throw conflict(
          `This resource's recommendations are held after a rollback until ${target.heldUntil.toISOString()}.`,
        );
      }
      if (target.status === 'held')
        throw conflict("This resource's recommendations are held after a rollback.");
      const inFlight = await automation.findInFlight(target.resourceId);
      if (inFlight) {
        throw conflict(
          `Another change of ${target.resourceName} is in progress (change ${inFlight.id}: ${describeKind(inFlight)}); apply again once it has finished.`,
        );
      }
      const change = await automation.planChange({
        teamId: target.teamId,
        tenantId: target.tenantId,
        resourceId: target.resourceId,
        recommendationId: target.recommendationId,
        kind,
        origin,
        predictionMethod: target.predictionMethod,
        previousSize: target.resourceSize ?? target.currentSize,
        newSize: hasTarget ? target.targetSize : null,
        changeAt,
        expectedSize: target.currentSize,
        // A disk, IP, plan or database has no power state; the executor checks its own facts.
        expectedPowerState: isResourceChange(kind) ? null : target.resourcePowerState,
        pipelineRunId: pipeline?.runId ?? null,
      });
      if (timing === 'now') {
        await automation.claimChange(change.id, now, this.startLeaseEnd(now));
        await this.queue.send(automationExecuteJob, { changeId: change.id }, { db: transaction });
      }
      const action = describePlan(kind, target.targetSize, timing, changeAt, change.version);
      await automation.log.insertLog({
        teamId: target.teamId,
        resourceId: target.resourceId,
        resourceArmId: target.resourceArmId,
        friendlyName: target.resourceName,
        predictionMethod: target.predictionMethod,
        action,
        scheduledChangeId: change.id,
      });
      return action;
    });
    if (outcome) await this.activity.record([this.toActivity(target, outcome)]);
    return {
      message:
        timing === 'now'
          ? 'The change has started.'
          : `The change is scheduled for ${changeAt.toISOString()}.`,
    };
  }

  // Active hours are our own setting: the active-hours job starts and deallocates the VM.
  private async applyActiveHours(target: ApplyTarget, record?: ApplyRecord): Promise<{ message: string }> {
    if (target.status === 'applied') return { message: 'The active hours are set.' };
    const action = `Active hours set to ${formatHour(target.activeHoursStart)}-${formatHour(target.activeHoursEnd)} UTC`;
    const isSet = await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      await automation.lockResource(target.resourceId);
      if (record && !(await record(transaction))) return false;
      await automation.effects.setActiveHours(
        target.resourceId,
        target.activeHoursStart,
        target.activeHoursEnd,
        this.now(),
      );
      await automation.effects.setRecommendationStatus(target.recommendationId, 'applied');
      await automation.log.insertLog({
        teamId: target.teamId,
        resourceId: target.resourceId,
        resourceArmId: target.resourceArmId,
        friendlyName: target.resourceName,
        predictionMethod: target.predictionMethod,
        action,
        scheduledChangeId: null,
      });
      return true;
    });
    if (isSet) await this.activity.record([this.toActivity(target, action)]);
    return { message: 'The active hours are set.' };
  }

  private toActivity(
    subject: { teamId: string; tenantId: string; resourceArmId: string; resourceName: string },
    action: string,
  ): NewActivityEntry {
    return {
      teamId: subject.teamId,
      tenantId: subject.tenantId,
      serviceName: automationServiceName,
      resourceArmId: subject.resourceArmId,
      logText: `${subject.resourceName}: ${action}`,
    };
  }

  private async tellPipelines(
    transaction: Transaction,
    cancelled: ChangeRow[],
    reason: string,
    skip: PipelineChangeSettlement['skip'],
  ): Promise<void> {
    for (const change of cancelled) {
      if (change.pipelineRunId === null) continue;
      await this.onPipelineChangeSettled(transaction, {
        runId: change.pipelineRunId,
        resourceId: change.resourceId,
        outcome: 'cancelled',
        reason,
        skip,
      });
    }
  }

  private startLeaseEnd(at: Date): Date {
    return new Date(at.getTime() + startGraceMs);
  }

  // Entries of what another module decided without a change (active hours' skipped boundaries), in
  // the caller's transaction: the automation log is written here only.
  async writeLogs(transaction: Transaction, entries: NewLogEntry[]): Promise<void> {
    await new AutomationRepository(transaction.db).log.insertLogs(entries);
  }
}

function capitalize(text: string): string {
  return `${text[0]!.toUpperCase()}${text.slice(1)}`;
}

function changeKindOf(kind: Exclude<RecommendationKind, 'activeHours'>): ChangeKind {
  return changeKindOfRecommendation[kind];
}

function describeKind(change: Pick<ChangeRow, 'kind' | 'newSize'>): string {
  if (isResourceChange(change.kind)) return describeResourceChange(change).toLowerCase();
  if (change.kind === 'resize') return `resize to ${change.newSize}`;
  if (change.kind === 'rollback') return `rollback to ${change.newSize}`;
  if (change.kind === 'tag') return 'tagging';
  return change.kind === 'deallocate' ? 'deallocation' : 'start';
}

function describePlan(
  kind: ChangeKind,
  targetSize: string | null,
  timing: ApplyTiming,
  changeAt: Date,
  version: number,
): string {
  const what = isResourceChange(kind)
    ? describeResourceChange({ kind: kind as ResourceChangeKind, newSize: targetSize })
    : kind === 'resize'
      ? `Resize to ${targetSize}`
      : 'Deallocation';
  return timing === 'now'
    ? `${what} started`
    : `${what} scheduled for ${changeAt.toISOString()} (version ${version})`;
}

function describeSizelessChange(kind: ChangeKind): string {
  if (isDeletion(kind)) return 'Deleted';
  return kind === 'deallocate' ? 'Deallocated' : kind === 'start' ? 'Started' : '';
}
