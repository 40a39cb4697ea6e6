import { MonitorClient } from '@azure/arm-monitor';
import { MetricsClient } from '@azure/monitor-query-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

const fixedNow = new Date('2026-11-18T16:00:30Z');
const virtualMachineMetrics = [
  'Percentage CPU',
  'Available Memory Bytes',
  'Network In Total',
  'Network Out Total',
  'Disk Read Operations/Sec',
  'Disk Write Operations/Sec',
];

const creditMetrics = ['CPU Credits Remaining', 'CPU Credits Consumed'];

function pickBatch(kit: TestEmulator, subscriptionId: string, location: string, count: number): string[] {
  return kit.emulator.fleet.virtualMachines
    .filter((machine) => machine.subscriptionId === subscriptionId && machine.location === location)
    .slice(0, count)
    .map((machine) => machine.id);
}

describe('Azure Monitor through @azure/arm-monitor and @azure/monitor-query-metrics', () => {
  let kit: TestEmulator;
  let twin: TestEmulator;
  let subscriptionId: string;

  beforeAll(async () => {
    [kit, twin] = await Promise.all([
      startTestEmulator({ fleetSize: 300, seed: 7, now: () => fixedNow }),
      startTestEmulator({ fleetSize: 300, seed: 7, now: () => fixedNow }),
    ]);
    subscriptionId = kit.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '';
  });

  afterAll(async () => {
    await Promise.all([kit.stop(), twin.stop()]);
  });

  it('describes the virtual machine metrics, the B-series credits among them', async () => {
    const monitor = new MonitorClient(kit.createCredential(0, 0), subscriptionId, kit.armOptions);
    const machineId = pickBatch(kit, subscriptionId, 'eastus', 1)[0] ?? '';
    const definitions = [];
    for await (const definition of monitor.metricDefinitions.list(machineId)) definitions.push(definition);
    expect(definitions.map((definition) => definition.name?.value)).toEqual([
      ...virtualMachineMetrics,
      ...creditMetrics,
    ]);
    expect(definitions[0]).toMatchObject({
      unit: 'Percent',
      primaryAggregationType: 'Average',
      namespace: 'Microsoft.Compute/virtualMachines',
    });
    expect(definitions[2]).toMatchObject({ unit: 'Bytes', primaryAggregationType: 'Total' });
  });

  it('serves metric values with the requested interval and aggregations', async () => {
    const monitor = new MonitorClient(kit.createCredential(0, 0), subscriptionId, kit.armOptions);
    const machineId = pickBatch(kit, subscriptionId, 'eastus', 1)[0] ?? '';
    const answer = await monitor.metrics.list(machineId, {
      timespan: '2026-11-18T10:00:00Z/2026-11-18T16:00:00Z',
      interval: 'PT1H',
      metricnames: virtualMachineMetrics.join(','),
      aggregation: 'Average,Maximum,Minimum,Total,Count',
    });
    expect(answer.interval).toBe('PT1H');
    expect(answer.resourceregion).toBe('eastus');
    expect(answer.value.map((metric) => metric.name.value)).toEqual(virtualMachineMetrics);
    const cpu = answer.value[0]?.timeseries?.[0]?.data ?? [];
    expect(cpu).toHaveLength(6);
    for (const point of cpu) {
      expect(point.count).toBe(60);
      expect(point.minimum).toBeLessThanOrEqual(point.average ?? 0);
      expect(point.maximum).toBeGreaterThanOrEqual(point.average ?? 0);
      expect(point.maximum).toBeLessThanOrEqual(100);
      expect(point.total).toBeCloseTo((point.average ?? 0) * 60, 1);
    }
    await expect(
      monitor.metrics.list(machineId, { metricnames: 'Made Up Metric', timespan: 'PT1H' }),
    ).rejects.toMatchObject({ statusCode: 400, code: 'BadRequest' });
  });

  it('serves CPU credits for a running B-series VM and none for other sizes', async () => {
    const monitor = new MonitorClient(kit.createCredential(0, 0), subscriptionId, kit.armOptions);
    const running = kit.emulator.fleet.virtualMachines.filter(
      (machine) => machine.subscriptionId === subscriptionId && machine.powerHistory[0]?.state === 'running',
    );
    const burstable = running.find((machine) => machine.sizeHistory[0]!.size.series === 'B')!;
    const other = running.find((machine) => machine.sizeHistory[0]!.size.series !== 'B')!;
    const read = (machineId: string) =>
      monitor.metrics.list(machineId, {
        timespan: '2026-11-18T15:00:00Z/2026-11-18T16:00:00Z',
        interval: 'PT1M',
        metricnames: creditMetrics.join(','),
        aggregation: 'Average',
      });
    const [remaining, consumed] = (await read(burstable.id)).value;
    const points = remaining?.timeseries?.[0]?.data ?? [];
    expect(points).toHaveLength(60);
    for (const [index, point] of points.entries()) {
      const credits = kit.emulator.fleet.creditsAt(burstable.id, point.timeStamp)!;
      expect(point.average).toBeCloseTo(credits.remaining, 3);
      expect(consumed?.timeseries?.[0]?.data?.[index]?.average).toBeCloseTo(credits.consumed, 3);
    }
    const none = (await read(other.id)).value;
    expect(none.map((metric) => metric.name.value)).toEqual(creditMetrics);
    expect(
      none.every((metric) => metric.timeseries?.[0]?.data?.every((point) => point.average === undefined)),
    ).toBe(true);
  });

  it('answers getBatch for 50 machines of one region through MetricsClient.queryResources', async () => {
    const metrics = new MetricsClient(kit.emulator.url, kit.createCredential(0, 0), kit.metricsOptions);
    const resourceIds = pickBatch(kit, subscriptionId, 'eastus', 50);
    expect(resourceIds).toHaveLength(50);
    const results = await metrics.queryResources(
      resourceIds,
      virtualMachineMetrics,
      'Microsoft.Compute/virtualMachines',
      {
        startTime: new Date('2026-11-18T15:00:00Z'),
        endTime: new Date('2026-11-18T16:00:00Z'),
        interval: 'PT1M',
        aggregation: 'average,maximum',
      },
    );
    expect(results).toHaveLength(50);
    expect(results.map((result) => result.resourceId)).toEqual(resourceIds);
    const first = results[0];
    expect(first?.resourceRegion).toBe('eastus');
    expect(first?.metrics.map((metric) => metric.name)).toEqual(virtualMachineMetrics);
    const running = results.find(
      (result) => (result.metrics[0]?.timeseries[0]?.data?.[0]?.average ?? -1) >= 0,
    );
    const points = running?.metrics[0]?.timeseries[0]?.data ?? [];
    expect(points).toHaveLength(60);
    expect(points[0]?.timeStamp).toEqual(new Date('2026-11-18T15:00:00Z'));
    expect(kit.emulator.stats.calls.getBatch).toBeGreaterThan(0);
  });

  it('refuses a batch of more than 50 resources', async () => {
    const metrics = new MetricsClient(kit.emulator.url, kit.createCredential(0, 0), kit.metricsOptions);
    const resourceIds = kit.emulator.fleet.virtualMachines
      .filter((machine) => machine.subscriptionId === subscriptionId)
      .slice(0, 51)
      .map((machine) => machine.id);
    await expect(
      metrics.queryResources(resourceIds, ['Percentage CPU'], 'Microsoft.Compute/virtualMachines'),
    ).rejects.toMatchObject({ statusCode: 400 });
  });

  it('gives the same fleet and the same metric values for the same seed', async () => {
    expect(twin.emulator.tenants).toEqual(kit.emulator.tenants);
    expect(twin.emulator.fleet.virtualMachines.map((machine) => machine.id)).toEqual(
      kit.emulator.fleet.virtualMachines.map((machine) => machine.id),
    );
    const resourceIds = pickBatch(kit, subscriptionId, 'westus2', 10);
    const query = async (target: TestEmulator) => {
      const metrics = new MetricsClient(
        target.emulator.url,
        target.createCredential(0, 0),
        target.metricsOptions,
      );
      const results = await metrics.queryResources(
        resourceIds,
        virtualMachineMetrics,
        'Microsoft.Compute/virtualMachines',
        {
          startTime: new Date('2026-11-18T12:00:00Z'),
          endTime: new Date('2026-11-18T14:00:00Z'),
          interval: 'PT5M',
          aggregation: 'average,minimum,maximum,total,count',
        },
      );
      return results.map((result) => result.metrics);
    };
    const [fromKit, fromTwin] = await Promise.all([query(kit), query(twin)]);
    expect(fromTwin).toEqual(fromKit);

    const other = await startTestEmulator({ fleetSize: 300, seed: 8, now: () => fixedNow });
    try {
      expect(other.emulator.tenants[0]?.tenantId).not.toBe(kit.emulator.tenants[0]?.tenantId);
      expect(other.emulator.tenants[0]?.principals[0]?.secret).not.toBe(
        kit.emulator.tenants[0]?.principals[0]?.secret,
      );
    } finally {
      await other.stop();
    }
  });
});
