// The rollback guard: after a VM is made smaller or moved to a burstable size, its CPU and memory
// (1-minute points, collected every 5 minutes), and on a burstable size its CPU credits, are read in
// the engine's guard steps; when the guard rule fires the previous size is restored at once, and the
// resource's recommendations are held back for 30 days.
import { automationValues } from '@cloudtrim/contracts/automation';
import { isBurstable } from '@cloudtrim/rightsizing/burstable-sizes';
import {
  guardRule,
  isGuardTripped,
  isThrottleTripped,
  type GuardRule,
} from '@cloudtrim/rightsizing/guard-rule';
import type { TransactionRunner } from '../../db/transaction';
import type { NewActivityEntry } from '../activity/activity.repository';
import type { ActivityService } from '../activity/activity.service';
import { AutomationRepository, type ChangeWithResource } from './automation.repository';
import type { AutomationService } from './automation.service';
import { automationServiceName } from './automation.names';
import { dayMs } from '../../lib/time';
import {
  availableMemoryMetricName,
  cpuCreditsRemainingMetricName,
  cpuMetricName,
} from '../metrics/metric-catalog';

// The hold after a first rollback (SPEC's 30 days); each further rollback doubles it.
const holdDaysAfterRollback = 30;
const bytesPerGiB = 1024 ** 3;

export class AutomationGuard {
  constructor(
    private readonly automation: AutomationRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly changes: Pick<AutomationService, 'requestChanges'>,
    private readonly activity: ActivityService,
    private readonly now: () => Date,
    private readonly rule: GuardRule = guardRule,
  ) {}

  // The handler of automation-guard: returns how many VMs it rolled back.
  async checkGuardedChanges(): Promise<number> {
    let rolledBack = 0;
    for (const change of await this.automation.guardWatch.listGuardedChanges(this.now())) {
      const trip = await this.findTrip(change);
      if (trip && (await this.rollBack(change, trip))) rolledBack += 1;
    }
    return rolledBack;
  }

  // What tripped the guard ("CPU above 80%", "CPU credits empty"), if anything did.
  private async findTrip(change: ChangeWithResource): Promise<string | undefined> {
    if (!change.completedAt) return undefined;
    const cpu = await this.automation.effects.readMetricValues(
      change.resourceId,
      cpuMetricName,
      change.completedAt,
    );
    if (isGuardTripped(toSteps(cpu, this.rule.stepMinutes), this.rule)) {
      return `CPU above ${this.rule.overloadPct}%`;
    }
    if (change.newSize && isBurstable({ name: change.newSize })) {
      const credits = await this.automation.effects.readMetricValues(
        change.resourceId,
        cpuCreditsRemainingMetricName,
        change.completedAt,
      );
      if (isThrottleTripped(toSteps(credits, this.rule.stepMinutes), this.rule)) return 'CPU credits empty';
    }
    const memoryGiB = change.newSize
      ? await this.automation.effects.readSizeMemoryGiB(change.resourceId, change.newSize)
      : undefined;
    if (!memoryGiB) return undefined;
    const available = await this.automation.effects.readMetricValues(
      change.resourceId,
      availableMemoryMetricName,
      change.completedAt,
    );
    const usedPercent = available.map((bytes) => 100 - (bytes / (memoryGiB * bytesPerGiB)) * 100);
    return isGuardTripped(toSteps(usedPercent, this.rule.stepMinutes), this.rule)
      ? `memory above ${this.rule.overloadPct}%`
      : undefined;
  }

  // Plans the rollback (started at once unless another change of the VM is in flight), ends the
  // watch and holds the resource's recommendations, all in one transaction: done once however often
  // the guard runs. A VM rolled back before is held twice as long each time and set to Recommend
  // Only: automation has twice made it worse.
  private async rollBack(change: ChangeWithResource, trip: string): Promise<boolean> {
    const at = this.now();
    const hours = (this.rule.consecutiveSteps * this.rule.stepMinutes) / 60;
    const action = `Guard: ${trip} for ${hours} h on ${change.newSize}; restoring ${change.previousSize}`;
    const outcome = await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      await automation.lockResource(change.resourceId);
      if (!(await automation.guardWatch.endGuard(change.id))) return undefined;
      const earlierRollbacks = await automation.guardWatch.countRollbacks(change.resourceId);
      await this.changes.requestChanges(transaction, [
        {
          change: {
            teamId: change.teamId,
            tenantId: change.tenantId,
            resourceId: change.resourceId,
            recommendationId: change.recommendationId,
            kind: 'rollback',
            origin: 'guard',
            predictionMethod: change.predictionMethod ?? '',
            previousSize: change.newSize,
            newSize: change.previousSize,
            changeAt: at,
            expectedSize: change.newSize,
          },
          resourceArmId: change.resourceArmId,
          resourceName: change.resourceName,
          action,
        },
      ]);
      const holdDays = holdDaysAfterRollback * 2 ** earlierRollbacks;
      await automation.effects.holdRecommendations(
        change.resourceId,
        new Date(at.getTime() + holdDays * dayMs),
      );
      if (change.recommendationId !== null) {
        await automation.effects.setRecommendationStatus(change.recommendationId, 'held');
      }
      const isDemoted = earlierRollbacks > 0;
      if (isDemoted) await automation.effects.setAutomated(change.resourceId, automationValues.recommend);
      return { holdDays, isDemoted };
    });
    if (!outcome) return false;
    const entries: NewActivityEntry[] = [
      {
        teamId: change.teamId,
        tenantId: change.tenantId,
        serviceName: automationServiceName,
        resourceArmId: change.resourceArmId,
        logText: `${change.resourceName}: ${action}; recommendations held for ${outcome.holdDays} days`,
      },
    ];
    if (outcome.isDemoted) {
      entries.push({
        teamId: change.teamId,
        tenantId: change.tenantId,
        serviceName: automationServiceName,
        resourceArmId: change.resourceArmId,
        logText: `${change.resourceName}: rolled back a second time, so it is set to Recommend Only; its changes now wait for someone to apply them`,
      });
    }
    await this.activity.record(entries);
    return true;
  }
}

// 1-minute values averaged into the rule's steps, oldest first; a partial last step is left out.
export function toSteps(values: readonly number[], stepMinutes: number): number[] {
  const steps: number[] = [];
  for (let start = 0; start + stepMinutes <= values.length; start += stepMinutes) {
    let sum = 0;
    for (let index = start; index < start + stepMinutes; index += 1) sum += values[index]!;
    steps.push(sum / stepMinutes);
  }
  return steps;
}
