// The month-end forecast judged on the emulator's 13 months of bill: for each subscription and each
// tenant as a whole, forecasts made on days 5, 10, 15, 20 and 25 of each of the last 12 complete
// months from the daily actual costs known that day (the 90 days the server keeps by day, read
// from the ledger with its clock on that morning, so the last days still settle as Cost Management
// shows them), against the month's final bill. Beside it the run-rate (month to date ÷ days elapsed
// × days in the month). Targets: MAPE ≥ 30% below the run-rate's, the 80% band holding the actual
// ≥ 80% of the time. BENCH_FLEET_SIZE sets the estate (600 VMs by default), two seeds. Then the same
// forecasts on bills built from documented Azure events (`documented-series.ts`: a reservation
// bought, a scale-out, a shutdown and a database stopped mid-month, a monthly reservation fee on the
// 1st), billed and amortized, on the estates the method's choices were made on and on estates it
// never saw. BENCH_FORECAST_SETS=documented runs only those.
import { CostLedger } from '@cloudtrim/azure-emulator/costs/cost.ledger';
import { dayMs } from '@cloudtrim/azure-emulator/time';
import { parseQueryDefinition, runQuery } from '@cloudtrim/azure-emulator/costs/cost.query';
import { generateFleet } from '@cloudtrim/azure-emulator/fleet/fleet.generator';
import { forecastPeriodCost, forecastRunRate } from '../../server/src/modules/costs/cost-forecast';
import { printTable } from '../support/table';
import { buildDocumentedBill } from './documented-series';

const fleetSize = Number(process.env.BENCH_FLEET_SIZE ?? 600);
const seeds = [42, 7];
// The emulator's clock at start (the history is the 396 days before it); forecasts are made at
// this hour of their day, after the morning's refresh.
const startMs = Date.UTC(2026, 10, 24, 9);
const forecastHourMs = 9 * 3_600_000;
const forecastDays = [5, 10, 15, 20, 25];
const months = 12;
// What the server holds by day (cost_day's backfill) and Cost Management answers by day at once.
const knownDays = 90;
const queryDays = 31;
const targetReduction = 0.3;
const targetHold = 0.8;
// Losing to the run-rate by less than this share of its error is noise.
const noiseShare = 0.05;

interface Outcome {
  seed: number;
  scope: string;
  dayOfMonth: number;
  actual: number;
  expected: number;
  runRate: number;
  isHeld: boolean;
}

// Documented estates: the choices were made on the first eight, the last eight judge them.
const tunedSeeds = [1, 2, 3, 4, 5, 6, 7, 8];
const unseenSeeds = [9, 10, 11, 12, 13, 14, 15, 16];
const isEmulatorRun = process.env.BENCH_FORECAST_SETS !== 'documented';

const startedAt = performance.now();
const outcomes: Outcome[] = [];
if (isEmulatorRun) for (const seed of seeds) outcomes.push(...judgeSeed(seed));
const seconds = (performance.now() - startedAt) / 1000;
const documented = judgeDocumented();
if (isEmulatorRun) reportEmulator();
const documentedSummary = reportDocumented();
process.exitCode = documentedSummary && (!isEmulatorRun || reportVerdict()) ? 0 : 1;

function reportEmulator(): void {
  console.log(
    `\nMonth-end forecasts, ${fleetSize} VMs, seeds ${seeds.join(' and ')}: days ${forecastDays.join(', ')} of the last ${months} complete months (${seconds.toFixed(1)} s)\n`,
  );
  const header = ['scope', 'forecasts', 'MAPE ours', 'MAPE run-rate', 'reduction', 'band holds'];
  const rows: string[][] = [];
  for (const seed of seeds) {
    const scopes = [
      ...new Set(outcomes.filter((outcome) => outcome.seed === seed).map((outcome) => outcome.scope)),
    ];
    for (const scope of scopes) {
      rows.push(
        toRow(
          `${seed} ${scope}`,
          outcomes.filter((outcome) => outcome.seed === seed && outcome.scope === scope),
        ),
      );
    }
  }
  for (const dayOfMonth of forecastDays) {
    rows.push(
      toRow(
        `all, made on day ${dayOfMonth}`,
        outcomes.filter((outcome) => outcome.dayOfMonth === dayOfMonth),
      ),
    );
  }
  rows.push(toRow('all', outcomes));
  printTable(header, rows);
}

function reportVerdict(): boolean {
  const overall = summarise(outcomes);
  const isMet = overall.reduction >= targetReduction && overall.hold >= targetHold;
  console.log(
    `\nEmulator: MAPE ${formatPercent(overall.ours)} against the run-rate's ${formatPercent(overall.runRate)}: ${formatPercent(overall.reduction)} less error (target ≥ ${formatPercent(targetReduction)}); the 80% band held the actual ${formatPercent(overall.hold)} of the time (target ≥ ${formatPercent(targetHold)}): ${isMet ? 'met' : 'missed'}`,
  );
  return isMet;
}

// Each documented estate's last three months, forecast on days 5 to 25 from the 90 days before,
// billed and amortized apart.
function judgeDocumented(): Outcome[] {
  const firstDay = Date.UTC(2026, 4, 1) / dayMs;
  const judgedMonths = [7, 8, 9].map((month) => ({
    first: Date.UTC(2026, month, 1) / dayMs,
    last: Date.UTC(2026, month + 1, 1) / dayMs - 1,
  }));
  const results: Outcome[] = [];
  for (const seed of [...tunedSeeds, ...unseenSeeds]) {
    const bill = buildDocumentedBill(seed, { firstDay, judgedMonths });
    for (const [kind, series] of [
      ['billed', bill.billed],
      ['amortized', bill.amortized],
    ] as const) {
      for (const month of judgedMonths) {
        let actual = 0;
        for (let day = month.first; day <= month.last; day += 1) actual += series.get(day) ?? 0;
        for (const dayOfMonth of forecastDays) {
          const today = month.first + dayOfMonth - 1;
          const days: { day: string; cost: number }[] = [];
          let monthToDate = 0;
          for (let day = Math.max(firstDay, today - knownDays); day < today; day += 1) {
            const cost = series.get(day) ?? 0;
            days.push({ day: formatDay(day), cost });
            if (day >= month.first) monthToDate += cost;
          }
          const forecast = forecastPeriodCost({
            days,
            from: formatDay(month.first),
            to: formatDay(month.last),
            today: formatDay(today),
          });
          results.push({
            seed,
            scope: kind,
            dayOfMonth,
            actual,
            expected: forecast.expected,
            runRate: forecastRunRate(monthToDate, dayOfMonth - 1, month.last - month.first + 1),
            isHeld: forecast.low <= actual && actual <= forecast.high,
          });
        }
      }
    }
  }
  return results;
}

function reportDocumented(): boolean {
  console.log(
    `\nMonth-end forecasts on bills built from documented Azure events: estates ${tunedSeeds.join(', ')} (choices made on them) and ${unseenSeeds.join(', ')} (unseen), days ${forecastDays.join(', ')} of three months each\n`,
  );
  const header = ['set', 'forecasts', 'MAPE ours', 'MAPE run-rate', 'reduction', 'band holds'];
  const rows: string[][] = [];
  for (const [label, set] of [
    ['tuned', tunedSeeds],
    ['unseen', unseenSeeds],
  ] as const) {
    for (const kind of ['billed', 'amortized']) {
      const selected = documented.filter((outcome) => outcome.scope === kind && set.includes(outcome.seed));
      rows.push(toRow(`${label} ${kind}`, selected));
      for (const dayOfMonth of forecastDays) {
        rows.push(
          toRow(
            `  made on day ${dayOfMonth}`,
            selected.filter((outcome) => outcome.dayOfMonth === dayOfMonth),
          ),
        );
      }
    }
  }
  printTable(header, rows);
  // Never worse than the run-rate beyond noise, on either view and either set.
  let isMet = true;
  for (const kind of ['billed', 'amortized']) {
    const summary = summarise(documented.filter((outcome) => outcome.scope === kind));
    const isHeld = summary.ours <= summary.runRate * (1 + noiseShare);
    isMet &&= isHeld;
    console.log(
      `Documented ${kind}: MAPE ${formatPercent(summary.ours)} against the run-rate's ${formatPercent(summary.runRate)} (${formatPercent(summary.reduction)} less error; not worse beyond ${formatPercent(noiseShare)}: ${isHeld ? 'met' : 'missed'}), band held ${formatPercent(summary.hold)}`,
    );
  }
  return isMet;
}

function judgeSeed(seed: number): Outcome[] {
  const fleet = generateFleet({ seed, fleetSize });
  let clockMs = startMs;
  const ledger = new CostLedger(fleet, () => new Date(clockMs), startMs);
  const scopes = fleet.tenants.flatMap((tenant) =>
    tenant.subscriptions.map((subscription) => ({
      tenant: tenant.defaultDomain,
      name: subscription.displayName,
      subscriptionId: subscription.subscriptionId,
    })),
  );
  const startDay = Math.floor(startMs / dayMs);
  const startDate = new Date(startMs);
  const results: Outcome[] = [];
  for (let offset = months; offset >= 1; offset -= 1) {
    const monthFirst = Date.UTC(startDate.getUTCFullYear(), startDate.getUTCMonth() - offset, 1) / dayMs;
    const monthLast =
      Date.UTC(startDate.getUTCFullYear(), startDate.getUTCMonth() - offset + 1, 1) / dayMs - 1;
    if (monthLast >= startDay) continue;
    // The month's final bill, read with the clock at the start (long settled).
    clockMs = startMs;
    const actuals = new Map(
      scopes.map((scope) => [
        scope.subscriptionId,
        sumDays(readDays(scope.subscriptionId, monthFirst, monthLast)),
      ]),
    );
    for (const dayOfMonth of forecastDays) {
      const today = monthFirst + dayOfMonth - 1;
      clockMs = today * dayMs + forecastHourMs;
      const known = new Map(
        scopes.map((scope) => [
          scope.subscriptionId,
          readDays(scope.subscriptionId, today - knownDays, today - 1),
        ]),
      );
      const judge = (scope: string, days: Map<number, number>, actual: number) => {
        const forecast = forecastPeriodCost({
          days: [...days].map(([day, cost]) => ({ day: formatDay(day), cost })),
          from: formatDay(monthFirst),
          to: formatDay(monthLast),
          today: formatDay(today),
        });
        let monthToDate = 0;
        for (const [day, cost] of days) if (day >= monthFirst) monthToDate += cost;
        results.push({
          seed,
          scope,
          dayOfMonth,
          actual,
          expected: forecast.expected,
          runRate: forecastRunRate(monthToDate, dayOfMonth - 1, monthLast - monthFirst + 1),
          isHeld: forecast.low <= actual && actual <= forecast.high,
        });
      };
      for (const scope of scopes) {
        judge(
          `${scope.tenant} ${scope.name}`,
          known.get(scope.subscriptionId)!,
          actuals.get(scope.subscriptionId)!,
        );
      }
      for (const tenant of new Set(scopes.map((scope) => scope.tenant))) {
        const members = scopes.filter((scope) => scope.tenant === tenant);
        const days = new Map<number, number>();
        for (const member of members) {
          for (const [day, cost] of known.get(member.subscriptionId)!)
            days.set(day, (days.get(day) ?? 0) + cost);
        }
        judge(
          `${tenant} (tenant)`,
          days,
          members.reduce((sum, member) => sum + actuals.get(member.subscriptionId)!, 0),
        );
      }
    }
  }
  return results;

  // A subscription's daily actual cost as Cost Management answers it at the clock's time, by 31 days.
  function readDays(subscriptionId: string, fromDay: number, toDay: number): Map<number, number> {
    const days = new Map<number, number>();
    const items = ledger.listItems(subscriptionId);
    for (let from = fromDay; from <= toDay; from += queryDays) {
      const to = Math.min(toDay, from + queryDays - 1);
      const query = parseQueryDefinition(
        {
          type: 'ActualCost',
          timeframe: 'Custom',
          timePeriod: { from: `${formatDay(from)}T00:00:00Z`, to: `${formatDay(to)}T00:00:00Z` },
          dataset: { granularity: 'Daily', aggregation: { totalCost: { name: 'Cost', function: 'Sum' } } },
        },
        new Date(clockMs),
        ledger.firstDay,
      );
      for (const [cost, usageDate] of runQuery(ledger, items, query).rows) {
        days.set(readUsageDay(Number(usageDate)), Number(cost));
      }
    }
    return days;
  }
}

function sumDays(days: Map<number, number>): number {
  let total = 0;
  for (const cost of days.values()) total += cost;
  return total;
}

function summarise(selected: Outcome[]) {
  const ours = mean(selected.map((outcome) => Math.abs(outcome.expected - outcome.actual) / outcome.actual));
  const runRate = mean(
    selected.map((outcome) => Math.abs(outcome.runRate - outcome.actual) / outcome.actual),
  );
  return {
    ours,
    runRate,
    reduction: runRate > 0 ? 1 - ours / runRate : 0,
    hold: mean(selected.map((outcome) => (outcome.isHeld ? 1 : 0))),
  };
}

function toRow(label: string, selected: Outcome[]): string[] {
  const summary = summarise(selected);
  return [
    label,
    String(selected.length),
    formatPercent(summary.ours),
    formatPercent(summary.runRate),
    formatPercent(summary.reduction),
    formatPercent(summary.hold),
  ];
}

function mean(values: number[]): number {
  return values.length > 0 ? values.reduce((sum, value) => sum + value, 0) / values.length : 0;
}

function formatPercent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

function formatDay(day: number): string {
  return new Date(day * dayMs).toISOString().slice(0, 10);
}

// Cost Management's UsageDate: 20261101.
function readUsageDay(usageDate: number): number {
  return (
    Date.UTC(Math.floor(usageDate / 10_000), (Math.floor(usageDate / 100) % 100) - 1, usageDate % 100) / dayMs
  );
}
