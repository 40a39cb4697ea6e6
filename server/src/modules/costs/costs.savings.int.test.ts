// Savings on the bill, on the emulator's movable clock: a resize applied through the executor is
// measured once the week after it has settled (automation log, Recent Activity when it under-delivers,
// the year's realized total); and the rates the bill shows price recommendations (§4): Contoso's
// negotiated discount, and its reserved VMs that a smaller size would not make cheaper.
import { readCurrentSize } from '@cloudtrim/azure-emulator/arm/arm.views';
import { listSizesOfferedInRegion } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activityLogs, automationLogs, realizedSavings } from '../../db/schema';
import {
  connectTenant,
  createCloudTestContext,
  listRunningVms,
  type CloudTestContext,
} from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { readRegionRatio, readReservedShare } from '../recommendations/own-rates';
import { RecommendationsRepository } from '../recommendations/recommendations.repository';
import { applyResizeNow } from '../automation/testing/apply-resize';
import { dayMs } from '../../lib/time';

let clockMs = Date.UTC(2026, 10, 2, 10, 0);
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let owner: TestUser;
let tenantId: string;

beforeAll(async () => {
  context = await createCloudTestContext({
    now: readClock,
    emulator: {
      fleetSize: 24,
      now: readClock,
      operationDurationMs: 50,
      throttleLimits: { costQueryCapacity: 10_000, costQueryRefillPerMinute: 10_000 },
    },
  });
  owner = await createUser(context);
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
}, 60_000);
afterAll(() => context.close());

describe('savings proven on the bill', () => {
  it('measures an applied resize on the weeks before and after it, once settled, and says it under-delivered', async () => {
    const db = context.container.database.db;
    const [resource] = await listRunningVms(db, tenantId);
    const machine = context.emulator.fleet.findVirtualMachine(resource!.armId)!;
    const current = readCurrentSize(machine);
    const target = listSizesOfferedInRegion(resource!.region)
      .filter((size) => size.family === current.family && size.vcpus < current.vcpus)
      .at(-1)!;
    // A promise no resize could keep, so the measure under-delivers.
    const change = await applyResizeNow(context.container, db, {
      teamId: owner.teamId,
      tenantId,
      resourceId: resource!.id,
      currentSize: current.name,
      targetSize: target.name,
      annualCostSavings: 1_000_000,
    });

    // Six days on, the week after has not settled: nothing is measured.
    clockMs += 6 * dayMs;
    await context.container.costs.syncTenant(tenantId, { signal: AbortSignal.timeout(60_000) });
    expect(await db.select().from(realizedSavings)).toEqual([]);

    clockMs += 6 * dayMs;
    const summary = await context.container.costs.syncTenant(tenantId, {
      signal: AbortSignal.timeout(60_000),
    });
    expect(summary?.measuredCount).toBe(1);
    const [saving] = await db.select().from(realizedSavings);
    expect(saving).toMatchObject({ scheduledChangeId: change.id, expectedAnnual: 1_000_000 });
    // The smaller size costs less an hour on the bill, from the hour it was made.
    expect(saving!.afterHourly!).toBeLessThan(saving!.beforeHourly!);
    expect(saving!.realizedAnnual).toBeGreaterThan(0);

    const log = await db.select().from(automationLogs).where(eq(automationLogs.scheduledChangeId, change.id));
    expect(log.map((entry) => entry.action)).toContainEqual(
      expect.stringMatching(
        /^Saving on the bill: \$[\d,.]+ a year realized against \$1,000,000\.00 expected \(\$[\d.]+\/h before, \$[\d.]+\/h after, a week each\)$/,
      ),
    );
    const activity = await db.select().from(activityLogs).where(eq(activityLogs.tenantId, tenantId));
    expect(activity.map((entry) => entry.logText)).toContainEqual(
      expect.stringContaining(`The change to ${resource!.name} saved $`),
    );

    // Measured once: another run finds nothing new.
    expect(
      (await context.container.costs.syncTenant(tenantId, { signal: AbortSignal.timeout(60_000) }))
        ?.measuredCount,
    ).toBe(0);
    const token = await logIn(context, owner);
    const answer = await context.app.inject({
      method: 'GET',
      url: '/api/v1/cost/summary',
      headers: { ...bearer(token), 'content-type': 'application/json' },
    });
    const realized = answer.json<{ RealizedSavingsYearToDate: number }>().RealizedSavingsYearToDate;
    const days = (clockMs - saving!.appliedAt.getTime()) / dayMs;
    expect(realized).toBeCloseTo((saving!.realizedAnnual / 365) * days, 1);
  }, 180_000);
});

describe('savings at the customer’s own rates', () => {
  it('reads Contoso’s 15% discount, Fabrikam’s list prices and its reserved VMs from the bill', async () => {
    await context.container.costs.syncTenant(tenantId, { signal: AbortSignal.timeout(60_000) });
    const bills = await new RecommendationsRepository(context.container.database.db).listVmBills(
      tenantId,
      '2026-10-20',
      '2026-11-03',
    );
    expect(bills.length).toBeGreaterThan(5);
    const catalogue = await context.container.pricing.ensureFreshForTenant(tenantId);
    expect(catalogue.failures).toEqual([]);
    const byRegion = new Map<string, typeof bills>();
    for (const bill of bills) byRegion.set(bill.region, [...(byRegion.get(bill.region) ?? []), bill]);
    const ratios: number[] = [];
    for (const [region, rows] of byRegion) {
      const prices = (await context.container.pricing.loadCatalogue(region)).pricesByOs;
      const ratio = readRegionRatio(
        rows.map((row) => ({
          bill: row,
          listHourly: prices[row.osType === 'Windows' ? 'Windows' : 'Linux'].get(row.sku ?? '')?.hourlyPrice,
        })),
      );
      if (ratio !== undefined) ratios.push(ratio);
    }
    expect(ratios.length).toBeGreaterThan(0);
    for (const ratio of ratios) expect(ratio).toBeCloseTo(0.85, 1);

    // Fabrikam pays list, and a reservation covers some of its production VMs.
    const fabrikamId = await connectTenant(context, owner.teamId, 1, 0);
    await context.container.inventory.syncTenant(fabrikamId);
    await context.container.pricing.ensureFreshForTenant(fabrikamId);
    await context.container.costs.syncTenant(fabrikamId, { signal: AbortSignal.timeout(60_000) });
    const fabrikamBills = await new RecommendationsRepository(context.container.database.db).listVmBills(
      fabrikamId,
      '2026-10-20',
      '2026-11-01',
    );
    const reservedIds = new Set(
      context.emulator.fleet.tenants[1]!.subscriptions.flatMap((subscription) =>
        context.emulator.costs
          .listItems(subscription.subscriptionId)
          .filter((item) => item.reservation && item.kind === 'virtualMachine')
          .map((item) => item.readResourceId()),
      ),
    );
    const reservedBills = fabrikamBills.filter((bill) => reservedIds.has(bill.armId));
    expect(reservedBills.length).toBeGreaterThan(0);
    expect(reservedBills.every((bill) => readReservedShare(bill) >= 0.5)).toBe(true);
    const payingBills = fabrikamBills.filter((bill) => !reservedIds.has(bill.armId));
    expect(payingBills.every((bill) => readReservedShare(bill) < 0.05)).toBe(true);
    const region = payingBills[0]!.region;
    const prices = (await context.container.pricing.loadCatalogue(region)).pricesByOs;
    const fabrikamRatio = readRegionRatio(
      fabrikamBills
        .filter((bill) => bill.region === region)
        .map((bill) => ({
          bill,
          listHourly: prices[bill.osType === 'Windows' ? 'Windows' : 'Linux'].get(bill.sku ?? '')
            ?.hourlyPrice,
        })),
    );
    expect(fabrikamRatio).toBeCloseTo(1, 1);
  });
});
