import { MonitorClient } from '@azure/arm-monitor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAppServicePlanSize } from './catalog/platform.catalog';
import { readWriteCount } from './emulator.stats';
import type { AppServicePlanRecord } from './fleet/fleet.model';
import { computeDemand } from './fleet/workload.model';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

const apiVersion = 'api-version=2023-12-01';
const minuteMs = 60_000;
const changeMs = Date.UTC(2026, 10, 18, 15, 0);

interface PlanView {
  readonly id: string;
  readonly sku: { readonly name: string; readonly capacity: number };
  readonly properties: { readonly numberOfSites: number };
}

describe('App Service plans and their apps (Microsoft.Web, raw calls)', () => {
  let kit: TestEmulator;
  let token: string;
  let subscriptionId: string;
  let clockMs = changeMs;

  function pickPlan(predicate: (plan: AppServicePlanRecord) => boolean): AppServicePlanRecord {
    const plan = kit.emulator.fleet.appServicePlans.find(
      (candidate) =>
        candidate.subscriptionId === subscriptionId &&
        candidate.deletedMs === undefined &&
        predicate(candidate),
    );
    if (!plan) throw new Error('The fleet has a fitting plan');
    return plan;
  }

  beforeAll(async () => {
    kit = await startTestEmulator({ now: () => new Date(clockMs) });
    token = await kit.readToken(0, 0);
    subscriptionId = kit.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '';
  });

  afterAll(async () => {
    await kit.stop();
  });

  it('lists plans with and without apps, and the apps on each plan', async () => {
    const list = await kit.send(
      'GET',
      `/subscriptions/${subscriptionId}/providers/Microsoft.Web/serverfarms?${apiVersion}`,
      { token },
    );
    const plans = (list.body as { value: PlanView[] }).value;
    expect(plans.some((plan) => plan.properties.numberOfSites === 0)).toBe(true);
    const busy = plans.find((plan) => plan.properties.numberOfSites > 0)!;
    const sites = await kit.send('GET', `${busy.id}/sites?${apiVersion}`, { token });
    const siteViews = (sites.body as { value: { id: string; properties: { serverFarmId: string } }[] }).value;
    expect(siteViews).toHaveLength(busy.properties.numberOfSites);
    expect(siteViews.every((site) => site.properties.serverFarmId === busy.id)).toBe(true);
    const everySite = await kit.send(
      'GET',
      `/subscriptions/${subscriptionId}/providers/Microsoft.Web/sites?${apiVersion}`,
      { token },
    );
    const allSites = (everySite.body as { value: { id: string; properties: { serverFarmId: string } }[] })
      .value;
    for (const plan of plans) {
      expect(allSites.filter((site) => site.properties.serverFarmId === plan.id)).toHaveLength(
        plan.properties.numberOfSites,
      );
    }
    const one = await kit.send('GET', `${siteViews[0]!.id}?${apiVersion}`, { token });
    expect(one.body).toMatchObject({ id: siteViews[0]!.id, type: 'Microsoft.Web/sites' });
  });

  it('refuses to delete a plan that still has apps (409), and deletes an empty one', async () => {
    const busy = pickPlan((plan) => plan.numberOfSites > 0);
    kit.emulator.resetStats();
    const refused = await kit.send('DELETE', `${busy.id}?${apiVersion}`, { token });
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: { code: 'Conflict' } });
    expect(readWriteCount(kit.emulator.stats, busy.id)).toBe(0);

    const empty = pickPlan((plan) => plan.numberOfSites === 0);
    const deleted = await kit.send('DELETE', `${empty.id}?${apiVersion}`, { token });
    expect(deleted.status).toBe(200);
    expect((await kit.send('GET', `${empty.id}?${apiVersion}`, { token })).status).toBe(404);
    expect(readWriteCount(kit.emulator.stats, empty.id)).toBe(1);
  });

  it('moves a barely used plan to a smaller tier, and its CPU and memory follow from the next minute', async () => {
    const smallerTiers: Readonly<Record<string, string>> = { P2v3: 'P1v3', P1v3: 'P0v3', B2: 'B1', S2: 'S1' };
    const plan = pickPlan(
      (candidate) =>
        candidate.workload.kind === 'idle' &&
        candidate.numberOfSites > 0 &&
        candidate.sku.name in smallerTiers,
    );
    const smaller = smallerTiers[plan.sku.name]!;
    const oldSku = plan.sku;
    clockMs = changeMs;
    kit.emulator.resetStats();
    const answer = await kit.send('PATCH', `${plan.id}?${apiVersion}`, {
      token,
      body: JSON.stringify({ sku: { name: smaller } }),
    });
    expect(answer.status).toBe(200);
    expect((answer.body as PlanView).sku).toMatchObject({ name: smaller, capacity: oldSku.capacity });
    expect(((await kit.send('GET', `${plan.id}?${apiVersion}`, { token })).body as PlanView).sku.name).toBe(
      smaller,
    );
    expect(readWriteCount(kit.emulator.stats, plan.id)).toBe(1);
    const refused = await kit.send('PATCH', `${plan.id}?${apiVersion}`, {
      token,
      body: JSON.stringify({ sku: { name: 'Z9' } }),
    });
    expect(refused.status).toBe(400);

    clockMs = changeMs + 30 * minuteMs;
    const monitor = new MonitorClient(kit.createCredential(0, 0), subscriptionId, kit.armOptions);
    const answerMetrics = await monitor.metrics.list(plan.id, {
      metricnames: 'CpuPercentage,MemoryPercentage',
      timespan: `${new Date(changeMs - 30 * minuteMs).toISOString()}/${new Date(changeMs + 30 * minuteMs).toISOString()}`,
      interval: 'PT1M',
      aggregation: 'Average',
    });
    const [cpu, memory] = answerMetrics.value.map((metric) => metric.timeseries?.[0]?.data ?? []);
    expect(cpu).toHaveLength(60);
    const newSize = findAppServicePlanSize(smaller)!;
    for (const [index, point] of (cpu ?? []).entries()) {
      const demand = computeDemand(
        plan.workload,
        kit.emulator.fleet.seedKey,
        plan.streamKey,
        Math.floor(point.timeStamp.getTime() / minuteMs),
      );
      const isAfter = point.timeStamp.getTime() >= changeMs;
      const workers = oldSku.capacity;
      const vcpus = (isAfter ? newSize.vcpusPerWorker : oldSku.vcpusPerWorker) * workers;
      const memoryGiB = (isAfter ? newSize.memoryGiBPerWorker : oldSku.memoryGiBPerWorker) * workers;
      expect(point.average).toBeCloseTo(Math.min(100, (demand.cpuCores / vcpus) * 100), 3);
      expect(memory?.[index]?.average).toBeCloseTo(Math.min(100, (demand.memoryGiB / memoryGiB) * 100), 3);
      // Barely used: the smaller tier holds it.
      if (isAfter) expect(memory?.[index]?.average).toBeLessThan(80);
    }
  });

  it('serves the plan meters of the Retail Prices API, Linux and Windows', async () => {
    const filter = "serviceName eq 'Azure App Service' and skuName eq 'P1 v3' and armRegionName eq 'eastus'";
    const answer = await kit.send('GET', `/api/retail/prices?$filter=${encodeURIComponent(filter)}`);
    const items = (
      answer.body as { Items: { productName: string; meterName: string; unitOfMeasure: string }[] }
    ).Items;
    expect(items.map((item) => [item.productName, item.meterName, item.unitOfMeasure]).sort()).toEqual([
      ['Azure App Service Premium v3 Plan - Linux', 'P1 v3 App', '1 Hour'],
      ['Azure App Service Premium v3 Plan', 'P1 v3 App', '1 Hour'],
    ]);
  });
});
