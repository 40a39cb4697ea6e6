import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readerWithoutCostsPermission } from './arm/authorization.routes';
import { computeLinuxHourlyPrice } from './catalog/price.catalog';
import { findVirtualMachineSize } from './catalog/sku.catalog';
import { microUnits, readAmortizedShare, type BilledItem } from './costs/cost.ledger';
import { dayMs } from './time';
import type { VirtualMachineRecord } from './fleet/fleet.model';
import { startTestEmulator, type RawAnswer, type TestEmulator } from './testing/emulator.fixture';

// A Tuesday evening; the last refresh is 20:00, so the data holds Nov 24 up to 20:00.
const startInstant = Date.UTC(2026, 10, 24, 21, 10);
const apiVersion = 'api-version=2023-11-01';
const costAggregation = { totalCost: { name: 'Cost', function: 'Sum' } };

interface QueryAnswer {
  readonly properties: {
    readonly nextLink: string | null;
    readonly columns: readonly { readonly name: string; readonly type: string }[];
    readonly rows: readonly (readonly (string | number)[])[];
  };
}

function formatDay(day: number): string {
  return new Date(day * dayMs).toISOString();
}

function formatDayNumber(day: number): number {
  return Number(formatDay(day).slice(0, 10).replace(/-/g, ''));
}

function sumColumn(answer: QueryAnswer, column = 0): number {
  return answer.properties.rows.reduce((sum, row) => sum + Number(row[column]), 0);
}

describe('Cost Management query over the fleet', () => {
  let kit: TestEmulator;
  let clockMs = startInstant;
  let token: string;
  let contosoProduction: string;
  let fabrikamProduction: string;

  let fabrikamToken: string;
  const query = async (scope: string, body: unknown, principal?: string): Promise<RawAnswer> =>
    kit.send('POST', `${scope}/providers/Microsoft.CostManagement/query?${apiVersion}`, {
      token: principal ?? (scope.includes(fabrikamProduction) ? fabrikamToken : token),
      body: JSON.stringify(body),
    });
  const queryOk = async (scope: string, body: unknown): Promise<QueryAnswer> => {
    const answer = await query(scope, body);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body as QueryAnswer;
  };
  const subscriptionScope = (subscriptionId: string) => `/subscriptions/${subscriptionId}`;
  const readItems = (subscriptionId: string): readonly BilledItem[] =>
    kit.emulator.costs.listItems(subscriptionId);
  const findSteadyMachine = (subscriptionId: string): VirtualMachineRecord => {
    const item = readItems(subscriptionId).find(
      (candidate) =>
        candidate.kind === 'virtualMachine' &&
        !candidate.reservation &&
        candidate.machine?.powerHistory[0]?.state === 'running' &&
        candidate.machine.sizeHistory.length === 1 &&
        candidate.machine.powerHistory.length === 1,
    );
    if (!item?.machine) throw new Error('The fleet has a steady machine');
    return item.machine;
  };
  const dailyCostOf = async (subscriptionId: string, resourceId: string, fromDay: number, toDay: number) => {
    const answer = await queryOk(subscriptionScope(subscriptionId), {
      type: 'ActualCost',
      timeframe: 'Custom',
      timePeriod: { from: formatDay(fromDay), to: formatDay(toDay) },
      dataset: {
        granularity: 'Daily',
        aggregation: costAggregation,
        filter: { dimensions: { name: 'ResourceId', operator: 'In', values: [resourceId] } },
      },
    });
    return new Map(answer.properties.rows.map((row) => [Number(row[1]), Number(row[0])]));
  };

  beforeAll(async () => {
    kit = await startTestEmulator({
      now: () => new Date(clockMs),
      throttleLimits: { costQueryCapacity: 10_000, costQueryRefillPerMinute: 10_000 },
    });
    token = await kit.readToken(0, 0);
    fabrikamToken = await kit.readToken(1, 0);
    contosoProduction = kit.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '';
    fabrikamProduction = kit.emulator.tenants[1]?.subscriptions[0]?.subscriptionId ?? '';
  });

  afterAll(async () => {
    await kit.stop();
  });

  it('answers Daily, Monthly and None in Azure columns, with UsageDate as a number and BillingMonth as a date', async () => {
    const daily = await queryOk(subscriptionScope(contosoProduction), {
      type: 'ActualCost',
      timeframe: 'MonthToDate',
      dataset: { granularity: 'Daily', aggregation: costAggregation },
    });
    expect(daily.properties.columns).toEqual([
      { name: 'Cost', type: 'Number' },
      { name: 'UsageDate', type: 'Number' },
      { name: 'Currency', type: 'String' },
    ]);
    expect(daily.properties.rows.map((row) => row[1])).toEqual(
      Array.from({ length: 24 }, (_, index) => 20261101 + index),
    );
    expect(daily.properties.rows.every((row) => row[2] === 'USD' && Number(row[0]) > 0)).toBe(true);
    expect(daily.properties.nextLink).toBeNull();

    const monthly = await queryOk(subscriptionScope(contosoProduction), {
      type: 'ActualCost',
      timeframe: 'Custom',
      timePeriod: { from: '2025-11-01T00:00:00Z', to: '2026-10-31T23:59:59Z' },
      dataset: {
        granularity: 'Monthly',
        aggregation: { ...costAggregation, quantity: { name: 'UsageQuantity', function: 'Sum' } },
      },
    });
    expect(monthly.properties.columns.map((column) => column.name)).toEqual([
      'Cost',
      'UsageQuantity',
      'BillingMonth',
      'Currency',
    ]);
    expect(monthly.properties.rows).toHaveLength(12);
    expect(monthly.properties.rows[0]?.[2]).toBe('2025-11-01T00:00:00');
    // The estate grew over the year: the last month costs more than the first.
    expect(Number(monthly.properties.rows[11]?.[0])).toBeGreaterThan(Number(monthly.properties.rows[0]?.[0]));

    const total = await queryOk(subscriptionScope(contosoProduction), {
      type: 'ActualCost',
      timeframe: 'TheLastMonth',
      dataset: { aggregation: costAggregation },
    });
    expect(total.properties.columns.map((column) => column.name)).toEqual(['Cost', 'Currency']);
    expect(total.properties.rows).toHaveLength(1);
    expect(Number(total.properties.rows[0]?.[0])).toBeCloseTo(Number(monthly.properties.rows[11]?.[0]), 6);
  });

  it('adds up, for every grouping, to the ungrouped total to the cent', async () => {
    const body = (grouping: unknown[]) => ({
      type: 'AmortizedCost',
      timeframe: 'TheLastMonth',
      dataset: { granularity: 'None', aggregation: costAggregation, grouping },
    });
    const total = sumColumn(await queryOk(subscriptionScope(contosoProduction), body([])));
    expect(total).toBeGreaterThan(0);
    for (const grouping of [
      [{ type: 'Dimension', name: 'ResourceGroupName' }],
      [{ type: 'Dimension', name: 'ServiceName' }],
      [{ type: 'Dimension', name: 'ResourceId' }],
      [
        { type: 'Dimension', name: 'MeterCategory' },
        { type: 'Dimension', name: 'PricingModel' },
      ],
      [
        { type: 'Dimension', name: 'ResourceLocation' },
        { type: 'Dimension', name: 'ChargeType' },
      ],
      [{ type: 'TagKey', name: 'environment' }],
    ]) {
      const grouped = await queryOk(subscriptionScope(contosoProduction), body(grouping));
      expect(Math.abs(sumColumn(grouped) - total), JSON.stringify(grouping)).toBeLessThan(0.005);
    }
  });

  it('groups by a tag key into TagKey and TagValue columns', async () => {
    const answer = await queryOk(subscriptionScope(contosoProduction), {
      type: 'ActualCost',
      timeframe: 'TheLastMonth',
      dataset: { aggregation: costAggregation, grouping: [{ type: 'TagKey', name: 'role' }] },
    });
    expect(answer.properties.columns.map((column) => column.name)).toEqual([
      'Cost',
      'TagKey',
      'TagValue',
      'Currency',
    ]);
    const roles = answer.properties.rows.map((row) => row[2]);
    expect(roles).toContain('web');
    // Plans and databases carry no role tag: they come together untagged.
    expect(answer.properties.rows.some((row) => row[1] === '' && row[2] === '')).toBe(true);
    const byCostCenter = await queryOk(subscriptionScope(contosoProduction), {
      type: 'ActualCost',
      timeframe: 'TheLastMonth',
      dataset: { aggregation: costAggregation, grouping: [{ type: 'TagKey', name: 'costcenter' }] },
    });
    expect(byCostCenter.properties.rows.length).toBeGreaterThan(1);
    expect(
      byCostCenter.properties.rows.every(
        (row) => row[1] === 'costcenter' && /^CC-\d{4}$/.test(String(row[2])),
      ),
    ).toBe(true);
  });

  it('pages 1,000 rows at a time through a nextLink that takes the same body', async () => {
    const body = {
      type: 'ActualCost',
      timeframe: 'MonthToDate',
      dataset: {
        granularity: 'Daily',
        aggregation: costAggregation,
        grouping: [{ type: 'Dimension', name: 'ResourceId' }],
      },
    };
    const first = await queryOk(subscriptionScope(contosoProduction), body);
    expect(first.properties.rows).toHaveLength(1000);
    expect(first.properties.nextLink).toMatch(
      /\/providers\/Microsoft\.CostManagement\/query\?api-version=2023-11-01&\$skiptoken=/,
    );
    const link = new URL(first.properties.nextLink ?? '');
    const second = await kit.send('POST', `${link.pathname}${link.search}`, {
      token,
      body: JSON.stringify(body),
    });
    expect(second.status).toBe(200);
    const secondPage = second.body as QueryAnswer;
    expect(secondPage.properties.rows.length).toBeGreaterThan(0);
    expect(secondPage.properties.rows.length).toBeLessThanOrEqual(1000);
    const ungrouped = await queryOk(subscriptionScope(contosoProduction), {
      ...body,
      dataset: { granularity: 'None', aggregation: costAggregation },
    });
    let pagesTotal = sumColumn(first) + sumColumn(secondPage);
    let next = secondPage.properties.nextLink;
    while (next) {
      const url = new URL(next);
      const page = (
        await kit.send('POST', `${url.pathname}${url.search}`, { token, body: JSON.stringify(body) })
      ).body as QueryAnswer;
      pagesTotal += sumColumn(page);
      next = page.properties.nextLink;
    }
    expect(Math.abs(pagesTotal - sumColumn(ungrouped))).toBeLessThan(0.005);
  });

  it('bills the discount profile: Contoso 15% off list, Fabrikam at list', async () => {
    const day = Math.floor(startInstant / dayMs) - 10;
    for (const [subscriptionId, discount] of [
      [contosoProduction, 0.15],
      [fabrikamProduction, 0],
    ] as const) {
      const machine = findSteadyMachine(subscriptionId);
      const size = findVirtualMachineSize(machine.sizeHistory[0]?.size.name ?? '');
      if (!size) throw new Error('The machine has a catalogue size');
      const hourly = Math.round(
        computeLinuxHourlyPrice(size, machine.location) * (1 - discount) * microUnits,
      );
      const costs = await dailyCostOf(subscriptionId, machine.id, day, day);
      expect([...costs.values()]).toEqual([(24 * hourly) / microUnits]);
    }
  });

  it('shows a reservation purchase on its day in ActualCost and spreads it evenly in AmortizedCost', async () => {
    const item = readItems(contosoProduction).find(
      (candidate) => candidate.kind === 'virtualMachine' && candidate.reservation,
    );
    const reservation = item?.reservation;
    if (!item || !reservation) throw new Error('Contoso has a reservation');
    const body = (type: string) => ({
      type,
      timeframe: 'Custom',
      timePeriod: {
        from: formatDay(reservation.purchaseDay - 1),
        to: formatDay(reservation.purchaseDay + 20),
      },
      dataset: {
        granularity: 'Daily',
        aggregation: costAggregation,
        grouping: [
          { type: 'Dimension', name: 'ChargeType' },
          { type: 'Dimension', name: 'PricingModel' },
        ],
        filter: {
          dimensions: {
            name: 'ResourceId',
            operator: 'In',
            values: [item.readResourceId(), reservation.readId()],
          },
        },
      },
    });
    const actual = await queryOk(subscriptionScope(contosoProduction), body('ActualCost'));
    const purchases = actual.properties.rows.filter((row) => row[2] === 'Purchase');
    expect(purchases).toHaveLength(1);
    expect(purchases[0]?.[0]).toBe(reservation.purchaseMicro / microUnits);
    expect(purchases[0]?.[1]).toBe(formatDayNumber(reservation.purchaseDay));
    const covered = actual.properties.rows.filter((row) => row[2] === 'Usage' && row[3] === 'Reservation');
    expect(covered).toHaveLength(21);
    expect(covered.every((row) => row[0] === 0)).toBe(true);
    expect(actual.properties.rows.filter((row) => row[3] === 'OnDemand').map((row) => row[1])).toEqual([
      formatDayNumber(reservation.purchaseDay - 1),
    ]);

    const amortized = await queryOk(subscriptionScope(contosoProduction), body('AmortizedCost'));
    expect(amortized.properties.rows.some((row) => row[2] === 'Purchase')).toBe(false);
    const shares = amortized.properties.rows
      .filter((row) => row[3] === 'Reservation')
      .map((row) => Number(row[0]));
    expect(shares).toHaveLength(21);
    const evenShare = reservation.purchaseMicro / 365 / microUnits;
    for (const share of shares) expect(Math.abs(share - evenShare)).toBeLessThanOrEqual(1 / microUnits);
    let spread = 0;
    for (let day = 0; day < 365; day += 1)
      spread += readAmortizedShare(reservation, reservation.purchaseDay + day);
    expect(spread).toBe(reservation.purchaseMicro);
  });

  it('filters with and, or and not over dimensions and tags; a resource group scope sees its own', async () => {
    const machine = findSteadyMachine(contosoProduction);
    const groupBody = (filter?: unknown) => ({
      type: 'ActualCost',
      timeframe: 'TheLastMonth',
      dataset: { aggregation: costAggregation, ...(filter ? { filter } : {}) },
    });
    const all = sumColumn(await queryOk(subscriptionScope(contosoProduction), groupBody()));
    const inGroup = sumColumn(
      await queryOk(
        subscriptionScope(contosoProduction),
        groupBody({
          dimensions: { name: 'ResourceGroupName', operator: 'In', values: [machine.resourceGroupName] },
        }),
      ),
    );
    const notInGroup = sumColumn(
      await queryOk(
        subscriptionScope(contosoProduction),
        groupBody({
          not: {
            dimensions: { name: 'ResourceGroupName', operator: 'In', values: [machine.resourceGroupName] },
          },
        }),
      ),
    );
    expect(Math.abs(inGroup + notInGroup - all)).toBeLessThan(0.005);
    const groupScope = sumColumn(
      await queryOk(
        `/subscriptions/${contosoProduction}/resourceGroups/${machine.resourceGroupName}`,
        groupBody(),
      ),
    );
    expect(Math.abs(groupScope - inGroup)).toBeLessThan(0.005);

    const computeOfRole = sumColumn(
      await queryOk(
        subscriptionScope(contosoProduction),
        groupBody({
          and: [
            { tags: { name: 'role', operator: 'In', values: [machine.tags.role ?? ''] } },
            {
              or: [
                { dimensions: { name: 'ServiceName', operator: 'In', values: ['Virtual Machines'] } },
                { dimensions: { name: 'MeterCategory', operator: 'In', values: ['Storage'] } },
              ],
            },
          ],
        }),
      ),
    );
    expect(computeOfRole).toBeGreaterThan(0);
    expect(computeOfRole).toBeLessThan(all);
  });

  it('answers Azure error JSON for a bad request and 400 for a Daily range over 31 days', async () => {
    const tooLong = await query(subscriptionScope(contosoProduction), {
      type: 'ActualCost',
      timeframe: 'Custom',
      timePeriod: { from: '2026-09-01T00:00:00Z', to: '2026-10-02T00:00:00Z' },
      dataset: { granularity: 'Daily', aggregation: costAggregation },
    });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({
      error: { code: 'BadRequest', message: expect.stringContaining('31 days') as unknown },
    });
    const thirtyOne = await query(subscriptionScope(contosoProduction), {
      type: 'ActualCost',
      timeframe: 'Custom',
      timePeriod: { from: '2026-09-01T00:00:00Z', to: '2026-10-01T00:00:00Z' },
      dataset: { granularity: 'Daily', aggregation: costAggregation },
    });
    expect(thirtyOne.status).toBe(200);
    for (const bad of [
      { type: 'Forecast', timeframe: 'MonthToDate', dataset: { aggregation: costAggregation } },
      { type: 'ActualCost', timeframe: 'Custom', dataset: { aggregation: costAggregation } },
      {
        type: 'ActualCost',
        timeframe: 'MonthToDate',
        dataset: {
          aggregation: costAggregation,
          grouping: [
            { type: 'Dimension', name: 'ResourceId' },
            { type: 'Dimension', name: 'ServiceName' },
            { type: 'Dimension', name: 'ChargeType' },
          ],
        },
      },
      {
        type: 'ActualCost',
        timeframe: 'MonthToDate',
        dataset: { aggregation: { x: { name: 'Cost', function: 'Max' } } },
      },
    ]) {
      const answer = await query(subscriptionScope(contosoProduction), bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body).toMatchObject({
        error: { code: 'BadRequest', message: expect.any(String) as unknown },
      });
    }
  });

  it('answers no rows for a period outside the 13 months of history', async () => {
    for (const [from, to] of [
      ['2020-01-01T00:00:00Z', '2020-03-01T00:00:00Z'],
      ['2090-01-01T00:00:00Z', '2090-02-01T00:00:00Z'],
    ]) {
      const answer = await queryOk(subscriptionScope(contosoProduction), {
        type: 'ActualCost',
        timeframe: 'Custom',
        timePeriod: { from, to },
        dataset: { granularity: 'Monthly', aggregation: costAggregation },
      });
      expect(answer.properties.rows).toEqual([]);
    }
  });

  it('refuses 403 AuthorizationFailed to a principal without Cost Management read, which still reads VMs', async () => {
    const noCosts = await kit.readToken(0, 2);
    const refused = await query(
      subscriptionScope(contosoProduction),
      { type: 'ActualCost', timeframe: 'MonthToDate', dataset: { aggregation: costAggregation } },
      noCosts,
    );
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'AuthorizationFailed' } });
    const permissions = await kit.send(
      'GET',
      `/subscriptions/${contosoProduction}/providers/Microsoft.Authorization/permissions?api-version=2022-04-01`,
      { token: noCosts },
    );
    expect((permissions.body as { value: unknown[] }).value[0]).toEqual(readerWithoutCostsPermission);
    const machines = await kit.send(
      'GET',
      `/subscriptions/${contosoProduction}/providers/Microsoft.Compute/virtualMachines?api-version=2024-07-01`,
      { token: noCosts },
    );
    expect(machines.status).toBe(200);
  });

  it('lists two read-only budgets per subscription in Azure shape', async () => {
    const answer = await kit.send(
      'GET',
      `/subscriptions/${contosoProduction}/providers/Microsoft.Consumption/budgets?api-version=2023-05-01`,
      { token },
    );
    expect(answer.status).toBe(200);
    const budgets = (
      answer.body as { value: { name: string; type: string; properties: Record<string, unknown> }[] }
    ).value;
    expect(budgets.map((budget) => budget.name)).toEqual([
      'contoso-production-monthly',
      'contoso-production-compute-quarterly',
    ]);
    expect(budgets[0]).toMatchObject({
      type: 'Microsoft.Consumption/budgets',
      properties: { category: 'Cost', timeGrain: 'Monthly', currentSpend: { unit: 'USD' } },
    });
    expect(Number(budgets[0]?.properties.amount)).toBeGreaterThan(0);
    const refused = await kit.send(
      'GET',
      `/subscriptions/${contosoProduction}/providers/Microsoft.Consumption/budgets?api-version=2023-05-01`,
      { token: await kit.readToken(0, 2) },
    );
    expect(refused.status).toBe(403);
  });

  // Moves the clock: runs after the tests that read the start's data.
  it('bills a resize made through Resource Manager from the next hour on', async () => {
    const machine = findSteadyMachine(contosoProduction);
    const before = machine.sizeHistory[0]?.size;
    const after = findVirtualMachineSize(
      before?.name === 'Standard_D8s_v5' ? 'Standard_D4s_v5' : 'Standard_D8s_v5',
    );
    if (!before || !after) throw new Error('The sizes are in the catalogue');
    const resize = await kit.send('PATCH', `${machine.id}?api-version=2024-07-01`, {
      token,
      body: JSON.stringify({ properties: { hardwareProfile: { vmSize: after.name } } }),
    });
    expect(resize.status).toBe(200);
    // Five days on, the resize day and the next have settled.
    clockMs = startInstant + 6 * dayMs;
    const day = Math.floor(startInstant / dayMs);
    const costs = await dailyCostOf(contosoProduction, machine.id, day - 1, day + 1);
    const hourly = (size: typeof before) =>
      Math.round(computeLinuxHourlyPrice(size, machine.location) * 0.85 * microUnits);
    // The resize at 21:10 takes effect at 21:11: hour 21 is still billed at the old size.
    expect(costs.get(20261123)).toBe((24 * hourly(before)) / microUnits);
    expect(costs.get(20261124)).toBe((22 * hourly(before) + 2 * hourly(after)) / microUnits);
    expect(costs.get(20261125)).toBe((24 * hourly(after)) / microUnits);
  });

  it('shows today partial and lets the last three days settle between refreshes', async () => {
    // Nov 30, 09:10 then 13:10: the refreshes of 08:00 and 12:00, both within Nov 30.
    clockMs = Date.UTC(2026, 10, 30, 9, 10);
    const lastDay = Math.floor(clockMs / dayMs);
    const body = {
      type: 'ActualCost',
      timeframe: 'Custom',
      timePeriod: { from: formatDay(lastDay - 5), to: formatDay(lastDay) },
      dataset: { granularity: 'Daily', aggregation: costAggregation },
    };
    const read = async () =>
      new Map(
        (await queryOk(subscriptionScope(fabrikamProduction), body)).properties.rows.map((row) => [
          row[1],
          row[0],
        ]),
      );
    const first = await read();
    clockMs += 4 * 60 * 60_000;
    const second = await read();
    const dates = [...second.keys()].map(Number).sort();
    expect(dates).toHaveLength(6);
    const [oldest, settled, ...settling] = dates;
    expect(second.get(oldest)).toBe(first.get(oldest));
    expect(second.get(settled)).toBe(first.get(settled));
    const today = settling.pop();
    for (const date of settling) expect(second.get(date)).not.toBe(first.get(date));
    // Today is partial: a later refresh holds more of its hours.
    expect(Number(second.get(today))).toBeGreaterThan(Number(first.get(today)));
    expect(Number(second.get(today))).toBeLessThan(Number(second.get(settled)));
  });
});

describe('Cost Management throttling', () => {
  let kit: TestEmulator;

  beforeAll(async () => {
    kit = await startTestEmulator({ now: () => new Date(startInstant) });
  });

  afterAll(async () => {
    await kit.stop();
  });

  it('answers about four queries a minute per scope, then 429 with its retry-after headers', async () => {
    const token = await kit.readToken(0, 0);
    const subscriptionId = kit.emulator.tenants[0]?.subscriptions[1]?.subscriptionId ?? '';
    const send = () =>
      kit.send(
        'POST',
        `/subscriptions/${subscriptionId}/providers/Microsoft.CostManagement/query?${apiVersion}`,
        {
          token,
          body: JSON.stringify({
            type: 'ActualCost',
            timeframe: 'MonthToDate',
            dataset: { aggregation: costAggregation },
          }),
        },
      );
    const statuses: number[] = [];
    for (let index = 0; index < 4; index += 1) statuses.push((await send()).status);
    expect(statuses).toEqual([200, 200, 200, 200]);
    const refused = await send();
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ error: { code: '429' } });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15);
    for (const variant of ['qpu', 'entity', 'tenant']) {
      expect(refused.headers[`x-ms-ratelimit-microsoft.costmanagement-${variant}-retry-after`]).toBe(
        String(retryAfter),
      );
    }
    // Another scope has its own budget.
    const groupName = kit.emulator.fleet.listResourceGroups(subscriptionId)[0]?.name ?? '';
    const other = await kit.send(
      'POST',
      `/subscriptions/${subscriptionId}/resourceGroups/${groupName}/providers/Microsoft.CostManagement/query?${apiVersion}`,
      {
        token,
        body: JSON.stringify({
          type: 'ActualCost',
          timeframe: 'MonthToDate',
          dataset: { aggregation: costAggregation },
        }),
      },
    );
    expect(other.status).toBe(200);
    kit.emulator.setThrottling(false);
    expect((await send()).status).toBe(200);
  });
});
