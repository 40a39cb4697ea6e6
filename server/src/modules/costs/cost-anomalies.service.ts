// After each ingestion of a tenant's bill: every subscription's resource group and service judged
// day by day against its own history (cost-anomalies.ts), the changes Cloudtrim applied expected
// from their day, and each new anomaly raised once as an alert naming the resources that drove it.
import { formatMoney, roundCents } from '@cloudtrim/contracts/money';
import type { AlertDriver } from '@cloudtrim/contracts/alerts';
import type { AutomationService } from '../automation/automation.service';
import type { AlertsService } from '../alerts/alerts.service';
import { anomalyHistoryDays, findCostAnomalies, readMinimumImpact, type CostAnomaly } from './cost-anomalies';
import type { CostAnomaliesRepository, ResourceDayRow } from './cost-anomalies.repository';
import { formatDay, readToday, settlingDays } from './costs.plan';
import { dayMs } from '../../lib/time';

// The days judged at each run: a run of anomalous days is one anomaly only if the search sees where
// it began, so it looks three weeks back (the longest a run lasts before it is the new level).
const judgedDays = 21;
// An anomaly is alerted when it began this recently: the first ingestion of a new tenant reads
// three months, and what went wrong two months ago is no news worth a mail.
const alertedDays = 7;
// The subscription's usual day, for the least amount worth an alert: the four weeks before.
const usualDays = 28;

interface Cell {
  subscriptionId: string;
  resourceGroup: string;
  serviceName: string;
  currency: string;
  resources: Map<string, Map<string, number>>;
}

export class CostAnomaliesService {
  constructor(
    private readonly anomalies: CostAnomaliesRepository,
    private readonly changes: Pick<AutomationService, 'listChangesToMeasure'>,
    private readonly alerts: Pick<AlertsService, 'raise'>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // The alerts raised (new ones only: a key the team has already raised does nothing).
  async evaluateTenant(tenantId: string): Promise<number> {
    const tenant = await this.anomalies.findTenant(tenantId);
    if (!tenant?.isActive) return 0;
    const now = this.now();
    const today = readToday(now);
    // Today is partial: the days judged end yesterday; the last settling days only for rising.
    const lastDay = today - dayMs;
    const settledTo = today - (settlingDays + 1) * dayMs;
    const judgedFrom = today - judgedDays * dayMs;
    const historyFrom = judgedFrom - anomalyHistoryDays * dayMs;
    const changedOn = new Map<string, string[]>();
    for (const change of await this.changes.listChangesToMeasure(tenantId, new Date(historyFrom), now)) {
      const armId = change.resourceArmId.toLowerCase();
      changedOn.set(armId, [...(changedOn.get(armId) ?? []), formatDay(readToday(change.completedAt))]);
    }
    const changedIds = [...changedOn.keys()];
    const period = [formatDay(historyFrom), formatDay(lastDay)] as const;
    // Each scope as one sum, the changed resources apart (they are judged by their own days); a
    // scope with an anomaly to alert is read again by resource, for the drivers.
    const rows = [
      ...(await this.anomalies.listScopeDays(tenantId, ...period, changedIds)),
      ...(changedIds.length > 0
        ? await this.anomalies.listResourceDays(tenantId, ...period, { resourceIds: changedIds })
        : []),
    ];
    if (rows.length === 0) return 0;
    const readDays = new Set(rows.map((row) => row.day));
    const unreadDays = new Set<string>();
    for (let day = historyFrom; day <= lastDay; day += dayMs) {
      if (!readDays.has(formatDay(day))) unreadDays.add(formatDay(day));
    }
    const names = await this.anomalies.listSubscriptionNames(tenantId);
    const minimumImpacts = readMinimumImpacts(rows, formatDay(judgedFrom - usualDays * dayMs));
    const alertedFrom = formatDay(today - alertedDays * dayMs);
    let raised = 0;
    for (const cell of groupCells(rows)) {
      const judge = (scopeCell: Cell) =>
        findCostAnomalies({
          resources: [...scopeCell.resources].map(([resourceId, days]) => ({
            resourceId,
            days,
            changedOn: changedOn.get(resourceId) ?? [],
          })),
          from: formatDay(judgedFrom),
          to: formatDay(lastDay),
          settledTo: formatDay(settledTo),
          minimumImpact: minimumImpacts.get(cell.subscriptionId) ?? 0,
          unreadDays,
        }).filter((anomaly) => anomaly.day >= alertedFrom);
      if (judge(cell).length === 0) continue;
      const [byResource] = groupCells(
        await this.anomalies.listResourceDays(tenantId, ...period, {
          subscriptionId: cell.subscriptionId,
          resourceGroup: cell.resourceGroup,
          serviceName: cell.serviceName,
        }),
      );
      if (!byResource) continue;
      for (const anomaly of judge(byResource)) {
        if (await this.raise(tenantId, tenant.teamId, cell, names, anomaly)) raised += 1;
      }
    }
    return raised;
  }

  private async raise(
    tenantId: string,
    teamId: string,
    cell: Cell,
    names: ReadonlyMap<string, string>,
    anomaly: CostAnomaly,
  ): Promise<boolean> {
    const subscriptionName = names.get(cell.subscriptionId) ?? cell.subscriptionId;
    const scope = `Subscription ${subscriptionName} · resource group ${cell.resourceGroup} · ${cell.serviceName}`;
    const difference = anomaly.actual - anomaly.expected;
    const share = anomaly.expected > 0 ? Math.round((Math.abs(difference) / anomaly.expected) * 100) : null;
    const change = anomaly.direction === 'above' ? 'more' : 'less';
    const drivers: AlertDriver[] = anomaly.drivers.map((driver) => ({
      ResourceId: driver.resourceId,
      Name: readResourceName(driver.resourceId),
      Expected: roundCents(driver.expected),
      Actual: roundCents(driver.actual),
    }));
    const named = drivers
      .slice(0, 3)
      .map(
        (driver) =>
          `${driver.Name} ${formatMoney(driver.Actual, cell.currency)} (expected ${formatMoney(driver.Expected, cell.currency)})`,
      )
      .join(', ');
    return this.alerts.raise({
      teamId,
      kind: 'anomaly',
      key: `anomaly:${cell.subscriptionId}:${cell.resourceGroup.toLowerCase()}:${cell.serviceName}:${anomaly.day}`,
      title:
        share === null
          ? `${cell.serviceName} in ${cell.resourceGroup} cost ${formatMoney(anomaly.actual, cell.currency)} on ${anomaly.day}, nothing expected`
          : `${cell.serviceName} in ${cell.resourceGroup} cost ${share}% ${change} than expected on ${anomaly.day}`,
      scope,
      filter: {
        TenantId: tenantId,
        SubscriptionId: cell.subscriptionId,
        ResourceGroup: cell.resourceGroup,
        Service: cell.serviceName,
      },
      day: anomaly.day,
      amount: roundCents(anomaly.actual),
      expected: roundCents(anomaly.expected),
      currency: cell.currency,
      drivers,
      mailKind: 'anomaly',
      tenantId,
      summary:
        `${scope} cost ${formatMoney(anomaly.actual, cell.currency)} on ${anomaly.day} against ${formatMoney(anomaly.expected, cell.currency)} expected ` +
        `(${formatMoney(anomaly.low, cell.currency)} to ${formatMoney(anomaly.high, cell.currency)} would have been usual)` +
        (named ? `; what drove it: ${named}.` : '.'),
    });
  }
}

function groupCells(rows: readonly ResourceDayRow[]): Cell[] {
  const cells = new Map<string, Cell>();
  for (const row of rows) {
    const key = `${row.subscriptionId}\u0001${row.resourceGroup.toLowerCase()}\u0001${row.serviceName}`;
    let cell = cells.get(key);
    if (!cell) {
      cell = {
        subscriptionId: row.subscriptionId,
        resourceGroup: row.resourceGroup,
        serviceName: row.serviceName,
        currency: row.currency,
        resources: new Map(),
      };
      cells.set(key, cell);
    }
    const days = cell.resources.get(row.resourceId) ?? new Map<string, number>();
    days.set(row.day, (days.get(row.day) ?? 0) + row.cost);
    cell.resources.set(row.resourceId, days);
  }
  return [...cells.values()];
}

// Each subscription's least amount worth an alert, from its daily cost since four weeks before the
// days judged.
function readMinimumImpacts(rows: readonly ResourceDayRow[], usualFrom: string): Map<string, number> {
  const totals = new Map<string, Map<string, number>>();
  for (const row of rows) {
    if (row.day < usualFrom) continue;
    const days = totals.get(row.subscriptionId) ?? new Map<string, number>();
    days.set(row.day, (days.get(row.day) ?? 0) + row.cost);
    totals.set(row.subscriptionId, days);
  }
  return new Map(
    [...totals].map(([subscriptionId, days]) => [subscriptionId, readMinimumImpact([...days.values()])]),
  );
}

// The resource's name is the last segment of its ARM id, also for a resource deleted since.
function readResourceName(resourceId: string): string {
  return resourceId.slice(resourceId.lastIndexOf('/') + 1);
}
