// The rollback guard: after a VM is made smaller, its CPU and memory (1-minute points, collected
// every 5 minutes) are read in the engine's guard steps; when the guard rule fires the previous size
// is restored at once, and the resource's recommendations are held back for 30 days.
import { guardRule, isGuardTripped, type GuardRule } from '@cloudtrim/rightsizing/guard-rule';
import type { TransactionRunner } from '../../db/transaction';
import { automationExecuteJob } from '../../jobs/automation-work';
import type { JobQueue } from '../../jobs/queue';
import type { ActivityService } from '../activity/activity.service';
import { AutomationRepository, logEntryOf, type ChangeWithResource } from './automation.repository';
import { automationServiceName } from './automation.service';

const cpuMetric = 'Percentage CPU';
const availableMemoryMetric = 'Available Memory Bytes';
const holdMs = 30 * 24 * 60 * 60 * 1000;
const bytesPerGiB = 1024 ** 3;

export class AutomationGuard {
  constructor(
    private readonly automation: AutomationRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly queue: Pick<JobQueue, 'send'>,
    private readonly activity: ActivityService,
    private readonly now: () => Date,
    private readonly rule: GuardRule = guardRule,
  ) {}

  // The handler of automation-guard: returns how many VMs it rolled back.
  async checkGuardedChanges(): Promise<number> {
    let rolledBack = 0;
    for (const change of await this.automation.listGuardedChanges(this.now())) {
      const hotMetric = await this.findHotMetric(change);
      if (hotMetric && (await this.rollBack(change, hotMetric))) rolledBack += 1;
    }
    return rolledBack;
  }

  private async findHotMetric(change: ChangeWithResource): Promise<string | undefined> {
    if (!change.completedAt) return undefined;
    const cpu = await this.automation.readMetricValues(change.resourceId, cpuMetric, change.completedAt);
    if (isGuardTripped(toSteps(cpu, this.rule.stepMinutes), this.rule)) return 'CPU';
    const memoryGiB = change.newSize
      ? await this.automation.readSizeMemoryGiB(change.resourceId, change.newSize)
      : undefined;
    if (!memoryGiB) return undefined;
    const available = await this.automation.readMetricValues(
      change.resourceId,
      availableMemoryMetric,
      change.completedAt,
    );
    const usedPercent = available.map((bytes) => 100 - (bytes / (memoryGiB * bytesPerGiB)) * 100);
    return isGuardTripped(toSteps(usedPercent, this.rule.stepMinutes), this.rule) ? 'memory' : undefined;
  }

  // Plans the rollback, claims it and sends its execution in one transaction, ends the watch and
  // holds the recommendation: done once however often the guard runs.
  private async rollBack(change: ChangeWithResource, hotMetric: string): Promise<boolean> {
    const at = this.now();
    const hours = (this.rule.consecutiveSteps * this.rule.stepMinutes) / 60;
    const action = `Guard: ${hotMetric} above ${this.rule.overloadPct}% for ${hours} h on ${change.newSize}; restoring ${change.previousSize}`;
    const isPlanned = await this.runTransaction(async (transaction) => {
      const automation = new AutomationRepository(transaction.db);
      const isWatched = await automation.updateChange(change.id, ['succeeded'], { guardUntil: null });
      if (!isWatched) return false;
      const rollback = await automation.planChange({
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
      });
      await automation.claimChange(rollback.id, at);
      await this.queue.send(automationExecuteJob, { changeId: rollback.id }, { db: transaction });
      await automation.holdRecommendations(change.resourceId, new Date(at.getTime() + holdMs));
      if (change.recommendationId !== null) {
        await automation.setRecommendationStatus(change.recommendationId, 'held');
      }
      await automation.insertLog(logEntryOf(change, action, rollback.id));
      return true;
    });
    if (isPlanned) {
      await this.activity.record([
        {
          teamId: change.teamId,
          tenantId: change.tenantId,
          serviceName: automationServiceName,
          resourceArmId: change.resourceArmId,
          logText: `${change.resourceName}: ${action}; recommendations held for 30 days`,
        },
      ]);
    }
    return isPlanned;
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
