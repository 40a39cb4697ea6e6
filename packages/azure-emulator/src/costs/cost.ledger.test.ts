import { describe, expect, it } from 'vitest';
import {
  findAppServicePlanSize,
  findDatabaseObjective,
  findDiskTier,
  publicIpHourlyPrices,
  snapshotGiBMonthlyPrice,
} from '../catalog/platform.catalog';
import { computeRegionalPrice } from '../catalog/price.catalog';
import { findVirtualMachineSize } from '../catalog/sku.catalog';
import { generateFleet } from '../fleet/fleet.generator';
import { describeObjectiveSku, recordSkuChange, type FleetResource } from '../fleet/fleet.model';
import {
  CostLedger,
  isSeasonalShutdown,
  microUnits,
  readAmortizedShare,
  recordedHistoryDays,
  type BilledItem,
  type CostType,
} from './cost.ledger';
import { dayMs, hourMs } from '../time';
import type { InjectedAnomaly } from './cost.anomalies';
import { parseQueryDefinition, runQuery } from './cost.query';

const startMs = Date.UTC(2026, 10, 24, 21, 10);

function createLedger(seed = 42, fleetSize = 60, readNow = () => new Date(startMs)) {
  const fleet = generateFleet({ seed, fleetSize });
  return { fleet, ledger: new CostLedger(fleet, readNow, startMs) };
}

function readDailyLines(
  ledger: CostLedger,
  item: BilledItem,
  fromDay: number,
  toDay: number,
  type: CostType,
) {
  const lines: { day: number; line: number; cost: number; quantity: number }[] = [];
  ledger.emitLines(
    item,
    fromDay,
    toDay,
    type,
    ledger.readHorizon(),
    (runFrom, runTo, line, cost, quantity) => {
      for (let day = runFrom; day <= runTo; day += 1) lines.push({ day, line, cost, quantity });
    },
  );
  return lines;
}

const everything = {
  type: 'AmortizedCost',
  timeframe: 'Custom',
  timePeriod: { from: '2025-11-25T00:00:00Z', to: '2026-11-24T00:00:00Z' },
  dataset: { granularity: 'Monthly', aggregation: { totalCost: { name: 'Cost', function: 'Sum' } } },
};

describe('the cost ledger', () => {
  it('is a pure function of the seed and the clock: two emulators bill the same, another seed not', () => {
    const first = createLedger();
    const second = createLedger();
    const other = createLedger(7);
    const run = ({ fleet, ledger }: ReturnType<typeof createLedger>) =>
      runQuery(
        ledger,
        ledger.listItems(fleet.tenants[0]?.subscriptions[0]?.subscriptionId ?? ''),
        parseQueryDefinition(everything, new Date(startMs), ledger.firstDay),
      ).rows;
    expect(run(first)).toEqual(run(second));
    expect(run(first)).not.toEqual(run(other));
  });

  it('spreads a reservation over its 365 days to the millionth', () => {
    const reservation = {
      readId: () => 'r',
      size: 'Standard_D4s_v5',
      purchaseDay: 20_000,
      purchaseMicro: 1_234_567_891,
    };
    const shares = Array.from({ length: 365 }, (_, index) => readAmortizedShare(reservation, 20_000 + index));
    expect(shares.reduce((sum, share) => sum + share, 0)).toBe(reservation.purchaseMicro);
    expect(Math.max(...shares) - Math.min(...shares)).toBeLessThanOrEqual(1);
  });

  it('bills a stopped machine but not a deallocated one, from the hour the change was recorded', () => {
    const { fleet, ledger } = createLedger();
    const item = ledger
      .listItems(fleet.tenants[1]?.subscriptions[0]?.subscriptionId ?? '')
      .find(
        (candidate) =>
          candidate.kind === 'virtualMachine' &&
          !candidate.reservation &&
          candidate.machine?.powerHistory[0]?.state === 'running',
      );
    const machine = item?.machine;
    if (!item || !machine) throw new Error('Fabrikam has a running machine');
    const day = Math.floor(startMs / dayMs) - 2;
    fleet.recordPowerState(machine, 'stopped', day * dayMs + 6 * hourMs);
    fleet.recordPowerState(machine, 'deallocated', day * dayMs + 9 * hourMs + 30_000);
    fleet.recordPowerState(machine, 'running', day * dayMs + 18 * hourMs);
    const [line] = readDailyLines(ledger, item, day, day, 'ActualCost');
    // Hours 0-9 running or stopped; 10-17 deallocated (the change at 09:00:30 counts from 09:01).
    expect(line?.quantity).toBe(16 * microUnits);
  });

  it('grew over the year and shut development machines down on weekends before the recorded month', () => {
    const { fleet, ledger } = createLedger(42, 400);
    const development = fleet.tenants[0]?.subscriptions[1]?.subscriptionId ?? '';
    const machineItem = ledger
      .listItems(development)
      .find(
        (candidate) =>
          candidate.kind === 'virtualMachine' &&
          candidate.machine?.powerHistory[0]?.state === 'running' &&
          candidate.firstHour < ledger.firstDay * 24,
      );
    if (!machineItem) throw new Error('Development has a machine running all year');
    const early = ledger.recordedFromDay - 60;
    const billedDays = new Set(
      readDailyLines(ledger, machineItem, early, early + 13, 'ActualCost').map((line) => line.day),
    );
    for (let day = early; day <= early + 13; day += 1)
      expect(billedDays.has(day)).toBe(!isSeasonalShutdown(day));
    const recent = ledger.recordedFromDay;
    expect(readDailyLines(ledger, machineItem, recent, recent + 6, 'ActualCost')).toHaveLength(7);
    expect(recordedHistoryDays).toBe(30);

    const arrivals = ledger
      .listItems(fleet.tenants[0]?.subscriptions[0]?.subscriptionId ?? '')
      .filter((candidate) => candidate.firstHour > ledger.firstDay * 24);
    expect(arrivals.length).toBeGreaterThan(0);
  });

  it('prices an hour at the size the machine had in it', () => {
    const { fleet, ledger } = createLedger();
    const item = ledger
      .listItems(fleet.tenants[1]?.subscriptions[0]?.subscriptionId ?? '')
      .find(
        (candidate) =>
          candidate.kind === 'virtualMachine' &&
          !candidate.reservation &&
          candidate.machine?.powerHistory[0]?.state === 'running',
      );
    const machine = item?.machine;
    const bigger = findVirtualMachineSize('Standard_E16s_v5');
    if (!item || !machine || !bigger) throw new Error('Fabrikam has a running machine');
    const day = Math.floor(startMs / dayMs) - 5;
    const [before] = readDailyLines(ledger, item, day, day, 'ActualCost');
    fleet.recordResize(machine, bigger, day * dayMs + 12 * hourMs);
    const [after] = readDailyLines(ledger, item, day, day, 'ActualCost');
    expect(after?.quantity).toBe(before?.quantity);
    expect(after?.cost).not.toBe(before?.cost);
  });
});

describe('the anomalies in the bill', () => {
  function readScopeDay(
    ledger: CostLedger,
    { subscriptionId, resourceGroupName, serviceName }: InjectedAnomaly,
    day: number,
  ): number {
    const query = parseQueryDefinition(
      {
        type: 'AmortizedCost',
        timeframe: 'Custom',
        timePeriod: {
          from: new Date(day * dayMs).toISOString(),
          to: new Date(day * dayMs).toISOString(),
        },
        dataset: {
          granularity: 'Daily',
          aggregation: { totalCost: { name: 'Cost', function: 'Sum' } },
          filter: { dimensions: { name: 'ServiceName', operator: 'In', values: [serviceName] } },
        },
      },
      new Date(startMs),
      ledger.firstDay,
    );
    const [row] = runQuery(ledger, ledger.listItems(subscriptionId, resourceGroupName), query).rows;
    return Number(row?.[0] ?? 0);
  }

  it('are known by seed, spread over the year with weeks of ordinary bill between them', () => {
    const { ledger } = createLedger(42, 400);
    const anomalies = ledger.listAnomalies();
    expect(anomalies).toEqual(createLedger(42, 400).ledger.listAnomalies());
    expect(anomalies).not.toEqual(createLedger(7, 400).ledger.listAnomalies());
    expect(new Set(anomalies.map((anomaly) => anomaly.kind))).toEqual(
      new Set(['scaleOut', 'forgottenMachine', 'planTierJump']),
    );
    for (const subscriptionId of new Set(anomalies.map((anomaly) => anomaly.subscriptionId))) {
      const list = anomalies.filter((anomaly) => anomaly.subscriptionId === subscriptionId);
      for (let index = 1; index < list.length; index += 1) {
        expect(list[index]!.fromDay - list[index - 1]!.toDay).toBeGreaterThanOrEqual(21);
      }
    }
    expect(anomalies.every((anomaly) => anomaly.fromDay >= ledger.firstDay + 70)).toBe(true);
  });

  it("hold one begun four days before the clock's start in the first subscription (inside the alert window)", () => {
    for (const seed of [42, 7]) {
      const { fleet, ledger } = createLedger(seed, 60);
      const startDay = Math.floor(startMs / 86_400_000);
      const first = fleet.tenants[0]!.subscriptions[0]!.subscriptionId;
      const recent = ledger
        .listAnomalies()
        .filter((anomaly) => anomaly.subscriptionId === first && anomaly.fromDay <= startDay)
        .at(-1)!;
      expect(recent.fromDay).toBeGreaterThanOrEqual(startDay - 6);
      expect(recent.toDay).toBeGreaterThanOrEqual(startDay - 2);
    }
  });

  it('bill as rows of the ledger: the scope costs more on their days, as before once they end', () => {
    const { ledger } = createLedger(42, 400);
    for (const kind of ['scaleOut', 'forgottenMachine', 'planTierJump'] as const) {
      const anomaly = ledger
        .listAnomalies()
        .find((candidate) => candidate.kind === kind && candidate.toDay < ledger.recordedFromDay - 14);
      if (!anomaly) throw new Error(`The year holds a ${kind}`);
      const during = readScopeDay(ledger, anomaly, anomaly.fromDay + 1);
      // A week before and a few weeks after fall on the same weekday as the day compared.
      const before = readScopeDay(ledger, anomaly, anomaly.fromDay - 6);
      const after = readScopeDay(
        ledger,
        anomaly,
        anomaly.fromDay + 1 + 7 * Math.ceil((anomaly.toDay - anomaly.fromDay + 1) / 7),
      );
      expect(during, kind).toBeGreaterThan(before * 1.1);
      expect(Math.abs(after - before), kind).toBeLessThan(before * 0.05 + 1);
      const resourceIds = new Set(anomaly.resources.map((resource) => resource.resourceId));
      const billed = ledger
        .listItems(anomaly.subscriptionId)
        .filter((item) => resourceIds.has(item.readResourceId()));
      expect(billed.length).toBeGreaterThan(0);
    }
  });
});

describe('disks, snapshots, public IPs, plans and databases in the bill', () => {
  // Ten days back: settled, inside the recorded month.
  const day = Math.floor(startMs / dayMs) - 10;
  const findItem = (ledger: CostLedger, resource: FleetResource) => {
    const item = ledger
      .listItems(resource.subscriptionId)
      .find((candidate) => candidate.readResourceId() === resource.id.toLowerCase());
    if (!item) throw new Error(`The bill has ${resource.name}`);
    return item;
  };
  const readDayCosts = (ledger: CostLedger, item: BilledItem, from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, index) =>
      readDailyLines(ledger, item, from + index, from + index, 'ActualCost').reduce(
        (sum, line) => sum + line.cost,
        0,
      ),
    );
  const readMicro = (ledger: CostLedger, item: BilledItem, eastUsPrice: number) =>
    Math.round(
      computeRegionalPrice(eastUsPrice, item.location) *
        (1 - ledger.readProfile(item.tenantIndex).discount) *
        microUnits,
    );

  it('bills an unattached disk a month at its tier, at the new tier from a change, and not after its deletion', () => {
    const { fleet, ledger } = createLedger(42, 120);
    const disk = fleet.managedDisks.find(
      (candidate) => !candidate.machine && candidate.sku === 'Premium_LRS',
    );
    if (!disk) throw new Error('The fleet has an unattached Premium SSD disk');
    const item = findItem(ledger, disk);
    const daysInMonth = new Date(Date.UTC(2026, 11, 0)).getUTCDate();
    const premium = readMicro(ledger, item, findDiskTier('Premium_LRS', disk.sizeGiB).monthlyPrice);
    const standard = readMicro(ledger, item, findDiskTier('Standard_LRS', disk.sizeGiB).monthlyPrice);
    recordSkuChange(disk.skuHistory, 'Standard_LRS', (day + 1) * dayMs + 12 * hourMs);
    fleet.deleteResource(disk.id, (day + 2) * dayMs + 6 * hourMs + 60_000);
    expect(readDayCosts(ledger, item, day, day + 3)).toEqual([
      Math.round(premium / daysInMonth),
      Math.round((premium * 12 + standard * 12) / (24 * daysInMonth)),
      // The deletion at 06:01 ends the billing after the hour holding it.
      Math.round((standard * 7) / (24 * daysInMonth)),
      0,
    ]);
  });

  it('bills a snapshot created after the bill was read, by the GiB it holds', () => {
    const { fleet, ledger } = createLedger();
    const disk = fleet.managedDisks.find((candidate) => !candidate.machine);
    if (!disk) throw new Error('The fleet has an unattached disk');
    ledger.listItems(disk.subscriptionId);
    const snapshot = {
      ...disk,
      type: 'Microsoft.Compute/snapshots' as const,
      id: `${disk.id}-snapshot`.replace('/disks/', '/snapshots/'),
      name: `${disk.name}-snapshot`,
      createdMs: day * dayMs,
      sourceResourceId: disk.id,
      sourceUniqueId: 'unique',
      usedGiB: 12,
      isIncremental: true,
      deletedMs: undefined,
    };
    fleet.addResource(snapshot);
    ledger.recordCreatedResource(snapshot);
    const item = findItem(ledger, snapshot);
    const daysInMonth = new Date(Date.UTC(2026, 11, 0)).getUTCDate();
    expect(readDayCosts(ledger, item, day - 1, day)).toEqual([
      0,
      Math.round((12 * readMicro(ledger, item, snapshotGiBMonthlyPrice)) / daysInMonth),
    ]);
  });

  it('bills a public IP by the hour until its deletion', () => {
    const { fleet, ledger } = createLedger();
    const address = fleet.publicIpAddresses.find((candidate) => !candidate.ipConfigurationId);
    if (!address) throw new Error('The fleet has an idle public IP');
    const item = findItem(ledger, address);
    fleet.deleteResource(address.id, (day + 1) * dayMs + 3 * hourMs);
    const hourly = readMicro(ledger, item, publicIpHourlyPrices[address.sku]);
    expect(readDayCosts(ledger, item, day, day + 2)).toEqual([24 * hourly, 3 * hourly, 0]);
  });

  it('bills a plan and a database at their new tier from the hour after the change', () => {
    const { fleet, ledger } = createLedger(42, 400);
    const plan = fleet.appServicePlans.find((candidate) => candidate.sku.name === 'P1v3');
    const database = fleet.sqlDatabases.find((candidate) => candidate.sku.serviceObjective === 'S3');
    if (!plan || !database) throw new Error('The fleet has a P1v3 plan and an S3 database');
    const planItem = findItem(ledger, plan);
    const databaseItem = findItem(ledger, database);
    const p0v3 = findAppServicePlanSize('P0v3')!;
    const p1v3 = findAppServicePlanSize('P1v3')!;
    const price = (size: typeof p0v3) =>
      plan.kind === 'linux' ? size.linuxHourlyPrice : size.windowsHourlyPrice;
    recordSkuChange(plan.skuHistory, { ...plan.sku, name: 'P0v3', size: 'P0v3' }, day * dayMs + 18 * hourMs);
    const s1 = findDatabaseObjective('S1')!;
    const s3 = findDatabaseObjective('S3')!;
    recordSkuChange(database.skuHistory, describeObjectiveSku(s1), day * dayMs + 18 * hourMs);
    const capacity = plan.sku.capacity;
    expect(readDayCosts(ledger, planItem, day, day + 1)).toEqual([
      (18 * readMicro(ledger, planItem, price(p1v3)) + 6 * readMicro(ledger, planItem, price(p0v3))) *
        capacity,
      24 * readMicro(ledger, planItem, price(p0v3)) * capacity,
    ]);
    const hourly = (objective: typeof s1) =>
      Math.round(readMicro(ledger, databaseItem, objective.dailyPrice ?? 0) / 24);
    expect(readDayCosts(ledger, databaseItem, day, day + 1)).toEqual([
      18 * hourly(s3) + 6 * hourly(s1),
      24 * hourly(s1),
    ]);
  });
});
