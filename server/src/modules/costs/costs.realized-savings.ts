// Savings proven on the bill: each applied resize or shutdown measured on the settled week before it
// and the week after, recorded against what it promised, and said when it delivered under half.
import { formatDollars } from '@cloudtrim/contracts/money';
import { activityServiceNames, type ActivityService } from '../activity/activity.service';
import type { AutomationService } from '../automation/automation.service';
import type { ChangeToMeasure } from '../automation/automation.repository';
import { dailyHistoryDays, formatDay, readToday, settlingDays } from './costs.plan';
import type { CostsRepository } from './costs.repository';
import { dayMs, daysPerYear } from '../../lib/time';

// An applied change is judged on the settled week before it and the week after.
const measuredDays = 7;
// A change that realized less than this share of its promise is said in Recent Activity.
const underdeliveredShare = 0.5;

export class RealizedSavings {
  constructor(
    private readonly costs: CostsRepository,
    private readonly activity: ActivityService,
    private readonly changes: Pick<AutomationService, 'listChangesToMeasure' | 'recordMeasuredSaving'>,
    private readonly now: () => Date,
  ) {}

  // Each applied resize or shutdown whose week after has settled on the bill: its cost per running
  // hour (and per day) the week before and the week after, annualised, against what it promised.
  async measure(tenantId: string): Promise<number> {
    const today = readToday(this.now());
    const lastSettledDay = today - (settlingDays + 1) * dayMs;
    // The week before must lie within the days kept by day.
    const earliest = new Date(today - (dailyHistoryDays - measuredDays - 1) * dayMs);
    const latest = new Date(lastSettledDay - measuredDays * dayMs);
    if (latest <= earliest) return 0;
    let measured = 0;
    for (const change of await this.changes.listChangesToMeasure(tenantId, earliest, latest)) {
      if (await this.measureChange(tenantId, change)) measured += 1;
    }
    return measured;
  }

  private async measureChange(tenantId: string, change: ChangeToMeasure): Promise<boolean> {
    const appliedDay = readToday(change.completedAt);
    const armId = change.resourceArmId.toLowerCase();
    const [before, after] = await Promise.all([
      this.costs.readVmDays(
        tenantId,
        armId,
        formatDay(appliedDay - measuredDays * dayMs),
        formatDay(appliedDay - dayMs),
      ),
      this.costs.readVmDays(
        tenantId,
        armId,
        formatDay(appliedDay + dayMs),
        formatDay(appliedDay + measuredDays * dayMs),
      ),
    ]);
    const beforeHourly = before.hours > 0 ? before.cost / before.hours : null;
    const afterHourly = after.hours > 0 ? after.cost / after.hours : null;
    const beforeDaily = before.cost / measuredDays;
    const afterDaily = after.cost / measuredDays;
    // A resize changes what an hour costs; a shutdown how many hours are paid.
    const realizedAnnual =
      change.kind === 'resize' && beforeHourly !== null && afterHourly !== null
        ? (beforeHourly - afterHourly) * (after.hours / measuredDays) * daysPerYear
        : (beforeDaily - afterDaily) * daysPerYear;
    const isNew = await this.costs.insertRealizedSaving({
      scheduledChangeId: change.id,
      teamId: change.teamId,
      tenantId,
      appliedAt: change.completedAt,
      expectedAnnual: change.expectedAnnual,
      realizedAnnual,
      beforeHourly,
      afterHourly,
      beforeDaily,
      afterDaily,
      measuredAt: this.now(),
    });
    if (!isNew) return false;
    const rates =
      change.kind === 'resize' && beforeHourly !== null && afterHourly !== null
        ? `${formatRate(beforeHourly)}/h before, ${formatRate(afterHourly)}/h after`
        : `${formatDollars(beforeDaily)} a day before, ${formatDollars(afterDaily)} a day after`;
    await this.changes.recordMeasuredSaving(
      change,
      `Saving on the bill: ${formatDollars(realizedAnnual)} a year realized against ${formatDollars(change.expectedAnnual)} expected (${rates}, a week each)`,
    );
    if (change.expectedAnnual > 0 && realizedAnnual < underdeliveredShare * change.expectedAnnual) {
      await this.activity.record([
        {
          teamId: change.teamId,
          tenantId,
          serviceName: activityServiceNames.costs,
          resourceArmId: change.resourceArmId,
          logText: `The change to ${change.resourceName} saved ${formatDollars(realizedAnnual)} a year on the bill, under half of the ${formatDollars(change.expectedAnnual)} it promised (${rates})`,
        },
      ]);
    }
    return true;
  }
}

function formatRate(hourly: number): string {
  return `$${hourly.toFixed(4).replace(/0{1,2}$/, '')}`;
}
