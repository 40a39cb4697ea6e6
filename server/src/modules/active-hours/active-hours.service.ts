// Active hours (HOURS START / HOURS END of Cloud Resources, UTC): every minute, each VM is brought
// to the state its schedule wants since its last boundary, once per boundary. A boundary missed
// while the workers were down is still acted on, and one whose VM has a change in flight queues
// behind that change (automation's one writer of changes decides). A VM someone started or stopped
// by hand since its last boundary is left alone until the next one.
import type { TransactionRunner } from '../../db/transaction';
import type { ActivityService } from '../activity/activity.service';
import type { NewLogEntry } from '../automation/automation.repository';
import type { AutomationService, ChangeRequest } from '../automation/automation.service';
import { writeRoleName } from '../tenants/tenants.service';
import {
  ActiveHoursRepository,
  activeHoursMethodText,
  type ActiveHoursResource,
} from './active-hours.repository';
import { findLastBoundary, type ActiveHoursBoundary } from './active-hours.timing';
import { dayMs, formatHour } from '../../lib/time';

export const activeHoursServiceName = 'Active Hours';

// The longest a boundary can lie behind now: start and end are at most a day apart.

type Decision = 'act' | 'readOnly' | 'changedByHand';

interface DueBoundary {
  resource: ActiveHoursResource;
  boundary: ActiveHoursBoundary;
  decision: Decision;
}

export class ActiveHoursService {
  constructor(
    private readonly runTransaction: TransactionRunner,
    private readonly changes: Pick<AutomationService, 'requestChanges' | 'writeLogs'>,
    private readonly activity: ActivityService,
    private readonly now: () => Date,
  ) {}

  // The handler of the every-minute job. Answers how many boundaries this call acted on.
  async enforceBoundaries(): Promise<number> {
    const now = this.now();
    const acted = await this.runTransaction(async (transaction) => {
      const repository = new ActiveHoursRepository(transaction.db);
      const candidates = await repository.listCandidates(now);
      const due = candidates.flatMap((resource): DueBoundary[] => {
        const boundary = findLastBoundary(now, resource.activeHoursStart, resource.activeHoursEnd);
        if (!boundary || now.getTime() - boundary.at.getTime() > dayMs) return [];
        if (resource.boundaryAt && resource.boundaryAt.getTime() >= boundary.at.getTime()) return [];
        return [{ resource, boundary, decision: decide(resource, boundary) }];
      });
      if (due.length === 0) return [];
      // Another worker may have claimed some since the read: only what this claim won is acted on.
      const claimedIds = new Set(
        await repository.claimBoundaries(
          due.map(({ resource, boundary }) => ({ resourceId: resource.id, at: boundary.at })),
        ),
      );
      const claimed = due.filter(({ resource }) => claimedIds.has(resource.id));
      const acting = claimed.filter(({ decision }) => decision === 'act');
      await this.changes.requestChanges(
        transaction,
        acting.map(
          ({ resource, boundary }): ChangeRequest => ({
            change: {
              teamId: resource.teamId,
              tenantId: resource.tenantId,
              resourceId: resource.id,
              recommendationId: null,
              kind: boundary.action,
              origin: 'activeHours',
              predictionMethod: activeHoursMethodText,
              previousSize: null,
              newSize: null,
              changeAt: boundary.at,
            },
            resourceArmId: resource.armId,
            resourceName: resource.name,
            action: describeAction(resource, boundary, 'act'),
          }),
        ),
      );
      await this.changes.writeLogs(
        transaction,
        claimed
          .filter(({ decision }) => decision !== 'act')
          .map(
            ({ resource, boundary, decision }): NewLogEntry => ({
              teamId: resource.teamId,
              resourceId: resource.id,
              resourceArmId: resource.armId,
              friendlyName: resource.name,
              action: describeAction(resource, boundary, decision),
              predictionMethod: activeHoursMethodText,
              scheduledChangeId: null,
            }),
          ),
      );
      return claimed;
    });
    await this.activity.record(
      acted.map(({ resource, boundary, decision }) => ({
        teamId: resource.teamId,
        tenantId: resource.tenantId,
        serviceName: activeHoursServiceName,
        resourceArmId: resource.armId,
        logText: describeActivity(resource, boundary, decision),
      })),
    );
    return acted.length;
  }
}

function decide(resource: ActiveHoursResource, boundary: ActiveHoursBoundary): Decision {
  if (resource.canWrite === false) return 'readOnly';
  if (resource.powerStateChangedAt && resource.powerStateChangedAt.getTime() > boundary.at.getTime()) {
    return 'changedByHand';
  }
  return 'act';
}

function describeHours(resource: ActiveHoursResource): string {
  return `${formatHour(resource.activeHoursStart)}-${formatHour(resource.activeHoursEnd)} UTC`;
}

function describeAction(
  resource: ActiveHoursResource,
  boundary: ActiveHoursBoundary,
  decision: Decision,
): string {
  const what = boundary.action === 'start' ? 'Start' : 'Deallocation';
  const text = `${what} for active hours ${describeHours(resource)}`;
  if (decision === 'readOnly') return `${text} skipped: ${describeReadOnly()}`;
  if (decision === 'changedByHand') return `${text} skipped: ${describeChangedByHand(resource)}`;
  return text;
}

function describeActivity(
  resource: ActiveHoursResource,
  boundary: ActiveHoursBoundary,
  decision: Decision,
): string {
  const hours = describeHours(resource);
  if (decision !== 'act') {
    const what = boundary.action === 'start' ? 'not started' : 'not deallocated';
    const why = decision === 'readOnly' ? describeReadOnly() : describeChangedByHand(resource);
    return `${resource.name}: ${what} for its active hours (${hours}): ${why}`;
  }
  return boundary.action === 'start'
    ? `${resource.name}: starting, its active hours (${hours}) have begun`
    : `${resource.name}: deallocating, its active hours (${hours}) have ended`;
}

function describeReadOnly(): string {
  return `the tenant's service principal can only read; grant it the ${writeRoleName} role`;
}

function describeChangedByHand(resource: ActiveHoursResource): string {
  return `it was started or stopped by hand at ${resource.powerStateChangedAt?.toISOString()}, so it is left alone until its next boundary`;
}
