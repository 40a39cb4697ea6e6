// Active hours (HOURS START / HOURS END of Cloud Resources): every minute, each VM whose start or end
// hour has just begun is started or deallocated, once per boundary. A VM someone started by hand off
// hours is left alone: the boundary it was stopped at is already recorded, so nothing acts on it
// until the next one.
import type { TransactionRunner } from '../../db/transaction';
import { automationExecuteJob } from '../../jobs/automation-work';
import type { JobQueue } from '../../jobs/queue';
import type { ActivityService } from '../activity/activity.service';
import { writeRoleName } from '../tenants/tenants.service';
import {
  ActiveHoursRepository,
  type ActiveHoursResource,
  type NewActiveHoursLog,
} from './active-hours.repository';
import {
  findLastBoundary,
  formatHour,
  listRecentBoundaryHours,
  type ActiveHoursBoundary,
} from './active-hours.timing';

export const activeHoursServiceName = 'Active Hours';

// A boundary older than this is let go rather than acted on late: hours set (or a worker back) in
// the middle of the day must not deallocate a VM that is serving, or start one hours early.
export const boundaryGraceMs = 15 * 60 * 1000;

interface DueBoundary {
  resource: ActiveHoursResource;
  boundary: ActiveHoursBoundary;
}

export class ActiveHoursService {
  constructor(
    private readonly runTransaction: TransactionRunner,
    private readonly queue: Pick<JobQueue, 'sendMany'>,
    private readonly activity: ActivityService,
    private readonly now: () => Date,
  ) {}

  // The handler of the every-minute job. Answers how many boundaries this call acted on.
  async enforceBoundaries(): Promise<number> {
    const now = this.now();
    const acted = await this.runTransaction(async (transaction) => {
      const repository = new ActiveHoursRepository(transaction.db);
      const candidates = await repository.listCandidates(listRecentBoundaryHours(now, boundaryGraceMs));
      const due = candidates.flatMap((resource): DueBoundary[] => {
        const boundary = findLastBoundary(now, resource.activeHoursStart, resource.activeHoursEnd);
        if (!boundary || now.getTime() - boundary.at.getTime() > boundaryGraceMs) return [];
        if (resource.boundaryAt && resource.boundaryAt.getTime() >= boundary.at.getTime()) return [];
        return [{ resource, boundary }];
      });
      if (due.length === 0) return [];
      // Another worker may have claimed some since the read: only what this claim won is acted on.
      const claimedIds = new Set(
        await repository.claimBoundaries(
          due.map(({ resource, boundary }) => ({ resourceId: resource.id, at: boundary.at })),
        ),
      );
      const claimed = due.filter(({ resource }) => claimedIds.has(resource.id));
      const writable = claimed.filter(({ resource }) => resource.canWrite !== false);
      const changeIds = await repository.insertChanges(
        writable.map(({ resource, boundary }) => ({
          teamId: resource.teamId,
          tenantId: resource.tenantId,
          resourceId: resource.id,
          action: boundary.action,
          changeAt: boundary.at,
          claimedAt: now,
        })),
      );
      const logs = claimed.map(({ resource, boundary }): NewActiveHoursLog => {
        const changeId = changeIds.get(resource.id) ?? null;
        return {
          teamId: resource.teamId,
          resourceId: resource.id,
          resourceArmId: resource.armId,
          friendlyName: resource.name,
          action: describeAction(resource, boundary, changeId !== null),
          scheduledChangeId: changeId,
        };
      });
      await repository.insertLogs(logs);
      // In the same transaction: a change row never lacks its job, and a rolled-back claim sends none.
      await this.queue.sendMany(
        automationExecuteJob,
        [...changeIds.values()].map((changeId) => ({ changeId })),
        { db: transaction },
      );
      return claimed.map(({ resource, boundary }) => ({
        resource,
        text: describeActivity(resource, boundary, changeIds.has(resource.id)),
      }));
    });
    await this.activity.record(
      acted.map(({ resource, text }) => ({
        teamId: resource.teamId,
        tenantId: resource.tenantId,
        serviceName: activeHoursServiceName,
        resourceArmId: resource.armId,
        logText: text,
      })),
    );
    return acted.length;
  }
}

function describeHours(resource: ActiveHoursResource): string {
  return `${formatHour(resource.activeHoursStart)}-${formatHour(resource.activeHoursEnd)} UTC`;
}

function describeAction(
  resource: ActiveHoursResource,
  boundary: ActiveHoursBoundary,
  isActing: boolean,
): string {
  const what = boundary.action === 'start' ? 'Start' : 'Deallocation';
  const text = `${what} for active hours ${describeHours(resource)}`;
  return isActing ? text : `${text} skipped: ${describeReadOnly()}`;
}

function describeActivity(
  resource: ActiveHoursResource,
  boundary: ActiveHoursBoundary,
  isActing: boolean,
): string {
  const hours = describeHours(resource);
  if (!isActing) {
    const what = boundary.action === 'start' ? 'not started' : 'not deallocated';
    return `${resource.name}: ${what} for its active hours (${hours}): ${describeReadOnly()}`;
  }
  return boundary.action === 'start'
    ? `${resource.name}: starting, its active hours (${hours}) have begun`
    : `${resource.name}: deallocating, its active hours (${hours}) have ended`;
}

function describeReadOnly(): string {
  return `the tenant's service principal can only read; grant it the ${writeRoleName} role`;
}
