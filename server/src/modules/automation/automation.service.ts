// Applying recommendations (now or at the maintenance window), the schedule of pending changes,
// the automation log, and planning the recommendations of Automated resources. The executor
// (automation.executor.ts) carries the changes out.
import type { AutomationLogResponse } from '@cloudtrim/contracts/recommendations';
import type { ScheduleResponse } from '@cloudtrim/contracts/schedule';
import { sql } from 'drizzle-orm';
import type { Transaction, TransactionRunner } from '../../db/transaction';
import { automationExecuteJob } from '../../jobs/automation-work';
import type { JobQueue } from '../../jobs/queue';
import { conflict, forbidden, notFound } from '../../lib/http-errors';
import type { ActivityService } from '../activity/activity.service';
import { AutomationRepository, type ApplyTarget, type ChangeOrigin } from './automation.repository';
import { findNextWindowStart } from './automation.timing';
import { tenantReadOnlyText } from '../tenants/tenants.service';

export type ApplyTiming = 'now' | 'window';

export const automationServiceName = 'Automation';

// How many due changes one dispatch transaction claims; it loops until none are left.
const dispatchBatchSize = 500;

export class AutomationService {
  constructor(
    private readonly automation: AutomationRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly queue: Pick<JobQueue, 'send' | 'sendMany'>,
    private readonly activity: ActivityService,
    private readonly now: () => Date,
  ) {}

  // A GET, so a retry, a prefetch or a double click must change nothing the first call did not.
  async applyRecommendation(
    teamId: string,
    recommendationId: number,
    timing: ApplyTiming,
  ): Promise<{ message: string }> {
    const target = await this.automation.findApplyTarget(teamId, recommendationId);
    if (!target) throw notFound('Recommendation not found.');
    if (target.canWrite === false) throw forbidden(tenantReadOnlyText);
    return this.planRecommendation(target, timing, timing);
  }

  // After an analysis: each new recommendation of a resource set to Automate is planned at its window.
  async planAutomatedResources(tenantId: string): Promise<number> {
    const pending = await this.automation.listAutomatedRecommendationIds(tenantId, this.now());
    let planned = 0;
    for (const { id, teamId } of pending) {
      const target = await this.automation.findApplyTarget(teamId, id);
      if (!target || target.canWrite === false) continue;
      await this.planRecommendation(target, 'window', 'automated');
      planned += 1;
    }
    return planned;
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
    const rows = await this.automation.listLog(teamId, resourceArmId);
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
    if (resourceArmId !== undefined && !(await this.automation.knowsResource(teamId, resourceArmId))) {
      throw notFound('Resource not found.');
    }
  }

  // Claims every due planned change and sends its execution in the same transaction: a crash
  // between the two cannot leave a claimed change without a job, nor send a job twice.
  async dispatchDueChanges(): Promise<number> {
    let dispatched = 0;
    for (;;) {
      const claimed = await this.runTransaction(async (transaction) => {
        const ids = await new AutomationRepository(transaction.db).claimDueChanges(
          this.now(),
          dispatchBatchSize,
        );
        await this.queue.sendMany(
          automationExecuteJob,
          ids.map((changeId) => ({ changeId })),
          { db: transaction },
        );
        return ids.length;
      });
      dispatched += claimed;
      if (claimed < dispatchBatchSize) return dispatched;
    }
  }

  private async planRecommendation(
    target: ApplyTarget,
    timing: ApplyTiming,
    origin: ChangeOrigin,
  ): Promise<{ message: string }> {
    if (target.kind === 'activeHours') return this.applyActiveHours(target);
    if (target.kind === 'resize' && !target.targetSize) throw conflict('This recommendation names no size.');
    const kind = target.kind === 'resize' ? 'resize' : 'deallocate';
    const now = this.now();
    const changeAt = timing === 'now' ? now : findNextWindowStart(now, target.maintenanceWindow);
    const outcome = await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      // One apply of a resource at a time, so two racing clicks see each other's change.
      await lockResource(transaction, target.resourceId);
      const live = await automation.findLiveChangeOf(target.recommendationId);
      // Already started, done, or planned at the window again: nothing new. Apply now on a change
      // planned at the window brings it forward.
      if (live && (live.state !== 'planned' || timing === 'window')) return undefined;
      if (target.status === 'superseded' || target.status === 'held') {
        throw conflict(
          target.status === 'held'
            ? "This resource's recommendations are held after a rollback."
            : 'A newer recommendation has replaced this one.',
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
        newSize: kind === 'resize' ? target.targetSize : null,
        changeAt,
      });
      if (timing === 'now') {
        await automation.claimChange(change.id, now);
        await this.queue.send(automationExecuteJob, { changeId: change.id }, { db: transaction });
      }
      const action = describePlan(kind, target.targetSize, timing, changeAt, change.version);
      await automation.insertLog({
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
    if (outcome) {
      await this.activity.record([
        {
          teamId: target.teamId,
          tenantId: target.tenantId,
          serviceName: automationServiceName,
          resourceArmId: target.resourceArmId,
          logText: `${target.resourceName}: ${outcome}`,
        },
      ]);
    }
    return {
      message:
        timing === 'now'
          ? 'The change has started.'
          : `The change is scheduled for ${changeAt.toISOString()}.`,
    };
  }

  // Active hours are our own setting: the active-hours job starts and deallocates the VM.
  private async applyActiveHours(target: ApplyTarget): Promise<{ message: string }> {
    if (target.status === 'applied') return { message: 'The active hours are set.' };
    const action = `Active hours set to ${formatHour(target.activeHoursStart)}-${formatHour(target.activeHoursEnd)} UTC`;
    await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      await automation.setActiveHours(target.resourceId, target.activeHoursStart, target.activeHoursEnd);
      await automation.setRecommendationStatus(target.recommendationId, 'applied');
      await automation.insertLog({
        teamId: target.teamId,
        resourceId: target.resourceId,
        resourceArmId: target.resourceArmId,
        friendlyName: target.resourceName,
        predictionMethod: target.predictionMethod,
        action,
        scheduledChangeId: null,
      });
    });
    await this.activity.record([
      {
        teamId: target.teamId,
        tenantId: target.tenantId,
        serviceName: automationServiceName,
        resourceArmId: target.resourceArmId,
        logText: `${target.resourceName}: ${action}`,
      },
    ]);
    return { message: 'The active hours are set.' };
  }
}

async function lockResource(transaction: Transaction, resourceId: string): Promise<void> {
  await transaction.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`apply:${resourceId}`}))`);
}

function describePlan(
  kind: 'resize' | 'deallocate',
  targetSize: string | null,
  timing: ApplyTiming,
  changeAt: Date,
  version: number,
): string {
  const what = kind === 'resize' ? `Resize to ${targetSize}` : 'Deallocation';
  return timing === 'now'
    ? `${what} started`
    : `${what} scheduled for ${changeAt.toISOString()} (version ${version})`;
}

function describeSizelessChange(kind: string): string {
  return kind === 'deallocate' ? 'Deallocated' : kind === 'start' ? 'Started' : '';
}

function formatHour(hour: number | null): string {
  return hour === null ? '--:--' : `${String(hour).padStart(2, '0')}:00`;
}
