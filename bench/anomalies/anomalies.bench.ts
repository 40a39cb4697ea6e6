// Cost anomaly detection judged on the emulator's 13 months of bill (ledger and query in-process,
// 600 VMs, seeds 42 and 7): every scope (a subscription's resource group and service) judged day by
// day from the days before it, as the service does after each ingestion, with the amortized cost
// Cost Management answers by day. Recall on the anomalies the emulator injected (found when an
// anomaly is raised in their scope on one of their days), false alarms on the clean stretches (the
// days outside every injected anomaly of the resource group and the two weeks after it) per scope
// per quarter; beside the baseline, a day outside the mean ± 3σ of its previous 30 days. A run of
// anomalous days counts once, for both. Targets: recall ≥ 0.9 with ≤ 1 false alarm per scope per
// quarter, beating the baseline on both. BENCH_FLEET_SIZE sets the estate.
import { CostLedger } from '@cloudtrim/azure-emulator/costs/cost.ledger';
import { dayMs } from '@cloudtrim/azure-emulator/time';
import { parseQueryDefinition, runQuery } from '@cloudtrim/azure-emulator/costs/cost.query';
import type { InjectedAnomaly } from '@cloudtrim/azure-emulator/costs/cost.anomalies';
import { generateFleet } from '@cloudtrim/azure-emulator/fleet/fleet.generator';
import {
  anomalyHistoryDays,
  findCostAnomalies,
  readMinimumImpact,
} from '../../server/src/modules/costs/cost-anomalies';
import { printTable } from '../support/table';

const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? 600);
const seeds = [42, 7];
const startMs = Date.UTC(2026, 10, 24, 9);
const queryDays = 31;
// After an anomaly ends its scope settles back: these days are neither anomalous nor clean.
const recoveryDays = 14;
const baselineDays = 30;
const baselineDeviations = 3;
const quarterDays = 365.25 / 4;
const targetRecall = 0.9;
const targetFalseAlarms = 1;

interface Scope {
  key: string;
  subscriptionId: string;
  resourceGroupName: string;
  serviceName: string;
  days: Map<number, number>;
}

interface Raised {
  day: number;
  direction: 'above' | 'below';
}

interface Judgement {
  seed: number;
  method: 'ours' | 'baseline';
  found: { anomaly: InjectedAnomaly; delay: number | undefined }[];
  falseAlarms: { scope: string; day: number; direction: string; cause: string }[];
  cleanDays: number;
}

const startedAt = performance.now();
const judgements: Judgement[] = [];
for (const seed of seeds) judgements.push(...judgeSeed(seed));
const seconds = (performance.now() - startedAt) / 1000;

console.log(
  `\nCost anomalies, ${fleetSize} VMs, seeds ${seeds.join(' and ')}: every resource group × service judged daily over the year (${seconds.toFixed(1)} s)\n`,
);
const header = [
  'seed',
  'method',
  'injected',
  'found',
  'recall',
  'median delay (days)',
  'false alarms',
  'clean scope-quarters',
  'per scope per quarter',
];
const rows: string[][] = [];
for (const seed of [...seeds, undefined]) {
  for (const method of ['ours', 'baseline'] as const) {
    const selected = judgements.filter(
      (judgement) => judgement.method === method && (seed === undefined || judgement.seed === seed),
    );
    const summary = summarise(selected);
    rows.push([
      seed === undefined ? 'all' : String(seed),
      method === 'ours' ? 'ours' : 'mean ± 3σ of 30 days',
      String(summary.injected),
      String(summary.found),
      summary.recall.toFixed(2),
      summary.medianDelay === undefined ? '—' : String(summary.medianDelay),
      String(summary.falseAlarms),
      summary.scopeQuarters.toFixed(1),
      summary.falseAlarmRate.toFixed(2),
    ]);
  }
}
printTable(header, rows);

console.log('\nRecall by kind (ours / baseline):');
for (const kind of ['scaleOut', 'forgottenMachine', 'planTierJump'] as const) {
  const recallOf = (method: Judgement['method']) => {
    const found = judgements
      .filter((judgement) => judgement.method === method)
      .flatMap((judgement) => judgement.found.filter((entry) => entry.anomaly.kind === kind));
    const hits = found.filter((entry) => entry.delay !== undefined).length;
    return `${hits}/${found.length}`;
  };
  console.log(`  ${kind}: ${recallOf('ours')} / ${recallOf('baseline')}`);
}
for (const method of ['ours', 'baseline'] as const) {
  const alarms = judgements.filter((judgement) => judgement.method === method).flatMap((j) => j.falseAlarms);
  const causes = new Map<string, number>();
  for (const alarm of alarms) {
    const cause = `${alarm.direction} the band, ${alarm.cause}`;
    causes.set(cause, (causes.get(cause) ?? 0) + 1);
  }
  console.log(
    `\nFalse alarms, ${method === 'ours' ? 'ours' : 'baseline'} (${alarms.length}), by what the bill did that day:`,
  );
  for (const [cause, count] of [...causes].sort((first, second) => second[1] - first[1])) {
    console.log(`  ${count}  ${cause}`);
  }
}

const ours = summarise(judgements.filter((judgement) => judgement.method === 'ours'));
const baseline = summarise(judgements.filter((judgement) => judgement.method === 'baseline'));
const isMet =
  ours.recall >= targetRecall &&
  ours.falseAlarmRate <= targetFalseAlarms &&
  ours.recall >= baseline.recall &&
  ours.falseAlarmRate <= baseline.falseAlarmRate;
console.log(
  `\nRecall ${ours.recall.toFixed(2)} (baseline ${baseline.recall.toFixed(2)}, target ≥ ${targetRecall}); false alarms ${ours.falseAlarmRate.toFixed(2)} per scope per quarter (baseline ${baseline.falseAlarmRate.toFixed(2)}, target ≤ ${targetFalseAlarms}): ${isMet ? 'met' : 'missed'}`,
);
process.exitCode = isMet ? 0 : 1;

function judgeSeed(seed: number): Judgement[] {
  const fleet = generateFleet({ seed, fleetSize });
  const ledger = new CostLedger(fleet, () => new Date(startMs), startMs);
  const startDay = Math.floor(startMs / dayMs);
  // The first days only give the history the first judged day needs.
  const judgedFrom = ledger.firstDay + anomalyHistoryDays;
  const judgedTo = startDay - 1;
  const anomalies = ledger
    .listAnomalies()
    .filter((anomaly) => anomaly.fromDay >= judgedFrom && anomaly.toDay <= judgedTo);
  const subscriptionIds = fleet.tenants.flatMap((tenant) =>
    tenant.subscriptions.map((subscription) => subscription.subscriptionId),
  );
  const scopes: Scope[] = [];
  const minimumImpacts = new Map<string, number>();
  for (const subscriptionId of subscriptionIds) {
    const subscriptionScopes = readScopes(ledger, subscriptionId, ledger.firstDay, judgedTo);
    scopes.push(...subscriptionScopes);
    const totals = new Map<number, number>();
    for (const scope of subscriptionScopes) {
      for (const [day, cost] of scope.days) totals.set(day, (totals.get(day) ?? 0) + cost);
    }
    minimumImpacts.set(subscriptionId, readMinimumImpact([...totals.values()]));
  }
  // What explains a clean day's alarm: a resource billed for the first time (the estate's growth),
  // a reservation bought, the year-end shutdown of development machines, the end of weekend shutdowns a month before
  // the clock's start, or nothing in particular.
  const arrivalDays = new Map<string, Set<number>>();
  const reservationDays = new Map<string, Set<number>>();
  const remember = (days: Map<string, Set<number>>, key: string, day: number) => {
    const known = days.get(key) ?? new Set<number>();
    known.add(day);
    days.set(key, known);
  };
  for (const subscriptionId of subscriptionIds) {
    for (const item of ledger.listItems(subscriptionId)) {
      const key = toKey(subscriptionId, item.resourceGroupName, item.serviceName);
      remember(arrivalDays, key, Math.floor(item.firstHour / 24));
      if (item.kind === 'virtualMachine' && item.reservation) {
        remember(reservationDays, key, item.reservation.purchaseDay);
      }
    }
  }
  const explain = (scope: Scope, day: number): string => {
    const arrivals = arrivalDays.get(scope.key);
    if (arrivals?.has(day) || arrivals?.has(day - 1)) return 'a resource added';
    const reservations = reservationDays.get(scope.key);
    if (reservations?.has(day) || reservations?.has(day - 1)) {
      return 'a reservation began (its amortized share replaces the pay-as-you-go price)';
    }
    const date = new Date(day * dayMs);
    const isYearEnd =
      (date.getUTCMonth() === 11 && date.getUTCDate() >= 20) ||
      (date.getUTCMonth() === 0 && date.getUTCDate() <= 5);
    if (isYearEnd) return 'the year-end shutdown and restart';
    if (day >= ledger.recordedFromDay - 7 && day < ledger.recordedFromDay + 28) {
      return 'weekend shutdowns ended (the recorded month)';
    }
    return 'other';
  };
  const isDisturbed = (scope: Scope, day: number) =>
    ledger
      .listAnomalies()
      .some(
        (anomaly) =>
          anomaly.subscriptionId === scope.subscriptionId &&
          anomaly.resourceGroupName === scope.resourceGroupName &&
          day >= anomaly.fromDay &&
          day <= anomaly.toDay + recoveryDays,
      );
  const judge = (method: Judgement['method'], raise: (scope: Scope) => Raised[]): Judgement => {
    const raisedByScope = new Map(scopes.map((scope) => [scope.key, raise(scope)]));
    const found = anomalies.map((anomaly) => {
      const raised =
        raisedByScope.get(toKey(anomaly.subscriptionId, anomaly.resourceGroupName, anomaly.serviceName)) ??
        [];
      const hit = raised.find(
        (entry) => entry.direction === 'above' && entry.day >= anomaly.fromDay && entry.day <= anomaly.toDay,
      );
      return { anomaly, delay: hit === undefined ? undefined : hit.day - anomaly.fromDay };
    });
    const falseAlarms: Judgement['falseAlarms'] = [];
    let cleanDays = 0;
    for (const scope of scopes) {
      const firstBilled = Math.min(...scope.days.keys());
      for (let day = Math.max(judgedFrom, firstBilled + anomalyHistoryDays); day <= judgedTo; day += 1) {
        if (!isDisturbed(scope, day)) cleanDays += 1;
      }
      for (const entry of raisedByScope.get(scope.key) ?? []) {
        if (entry.day < firstBilled + anomalyHistoryDays || isDisturbed(scope, entry.day)) continue;
        falseAlarms.push({
          scope: scope.key,
          day: entry.day,
          direction: entry.direction,
          cause: explain(scope, entry.day),
        });
      }
    }
    return { seed, method, found, falseAlarms, cleanDays };
  };
  return [
    judge('ours', (scope) =>
      findCostAnomalies({
        resources: [
          {
            resourceId: scope.key,
            days: new Map([...scope.days].map(([day, cost]) => [formatDay(day), cost])),
          },
        ],
        from: formatDay(judgedFrom),
        to: formatDay(judgedTo),
        settledTo: formatDay(judgedTo),
        minimumImpact: minimumImpacts.get(scope.subscriptionId) ?? 0,
      }).map((anomaly) => ({ day: toDayNumber(anomaly.day), direction: anomaly.direction })),
    ),
    judge('baseline', (scope) => raiseBaseline(scope, judgedFrom, judgedTo)),
  ];
}

// The baseline: a day outside the mean ± 3σ of its previous 30 days; a run of them counts once.
function raiseBaseline(scope: Scope, from: number, to: number): Raised[] {
  const raised: Raised[] = [];
  let open: Raised['direction'] | undefined;
  for (let day = from; day <= to; day += 1) {
    const previous = Array.from(
      { length: baselineDays },
      (_, offset) => scope.days.get(day - 1 - offset) ?? 0,
    );
    const mean = previous.reduce((sum, cost) => sum + cost, 0) / baselineDays;
    const deviation = Math.sqrt(
      previous.reduce((sum, cost) => sum + (cost - mean) ** 2, 0) / (baselineDays - 1),
    );
    const cost = scope.days.get(day) ?? 0;
    const direction =
      cost > mean + baselineDeviations * deviation
        ? 'above'
        : cost < mean - baselineDeviations * deviation
          ? 'below'
          : undefined;
    if (direction !== undefined && direction !== open) raised.push({ day, direction });
    open = direction;
  }
  return raised;
}

// A subscription's daily amortized cost by resource group and service, as Cost Management answers
// it, 31 days a query.
function readScopes(ledger: CostLedger, subscriptionId: string, fromDay: number, toDay: number): Scope[] {
  const scopes = new Map<string, Scope>();
  const items = ledger.listItems(subscriptionId);
  for (let from = fromDay; from <= toDay; from += queryDays) {
    const to = Math.min(toDay, from + queryDays - 1);
    const query = parseQueryDefinition(
      {
        type: 'AmortizedCost',
        timeframe: 'Custom',
        timePeriod: { from: `${formatDay(from)}T00:00:00Z`, to: `${formatDay(to)}T00:00:00Z` },
        dataset: {
          granularity: 'Daily',
          aggregation: { totalCost: { name: 'Cost', function: 'Sum' } },
          grouping: [
            { type: 'Dimension', name: 'ResourceGroupName' },
            { type: 'Dimension', name: 'ServiceName' },
          ],
        },
      },
      new Date(startMs),
      ledger.firstDay,
    );
    for (const [cost, usageDate, resourceGroupName, serviceName] of runQuery(ledger, items, query).rows) {
      const key = toKey(subscriptionId, String(resourceGroupName), String(serviceName));
      let scope = scopes.get(key);
      if (!scope) {
        scope = {
          key,
          subscriptionId,
          resourceGroupName: String(resourceGroupName),
          serviceName: String(serviceName),
          days: new Map(),
        };
        scopes.set(key, scope);
      }
      const day = readUsageDay(Number(usageDate));
      scope.days.set(day, (scope.days.get(day) ?? 0) + Number(cost));
    }
  }
  return [...scopes.values()];
}

function summarise(selected: Judgement[]) {
  const found = selected.flatMap((judgement) => judgement.found);
  const hits = found.filter((entry) => entry.delay !== undefined);
  const delays = hits.map((entry) => entry.delay!).sort((first, second) => first - second);
  const falseAlarms = selected.reduce((sum, judgement) => sum + judgement.falseAlarms.length, 0);
  const scopeQuarters = selected.reduce((sum, judgement) => sum + judgement.cleanDays, 0) / quarterDays;
  return {
    injected: found.length,
    found: hits.length,
    recall: found.length > 0 ? hits.length / found.length : 0,
    medianDelay: delays.length > 0 ? delays[Math.floor(delays.length / 2)] : undefined,
    falseAlarms,
    scopeQuarters,
    falseAlarmRate: scopeQuarters > 0 ? falseAlarms / scopeQuarters : 0,
  };
}

function toKey(subscriptionId: string, resourceGroupName: string, serviceName: string): string {
  return `${subscriptionId.slice(0, 8)} ${resourceGroupName.toLowerCase()} ${serviceName}`;
}

function formatDay(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}

function toDayNumber(day: string): number {
  return Math.floor(Date.parse(`${day}T00:00:00Z`) / dayMs);
}

// Cost Management's UsageDate: 20261101.
function readUsageDay(usageDate: number): number {
  return (
    Date.UTC(Math.floor(usageDate / 10_000), (Math.floor(usageDate / 100) % 100) - 1, usageDate % 100) / dayMs
  );
}
