import { describe, expect, it } from 'vitest';
import type { MetricSeries } from '../../cloud/cloud-provider';
import { findMetricCatalog } from './metric-catalog';
import {
  groupTargets,
  planMinuteWindow,
  toHourlyAggregates,
  toMinutePoints,
  MinuteWriteBuffer,
  type CollectionGroup,
} from './metric-collection-plan';
import type { CollectionTarget, MinuteBatchWrite } from './metrics.repository';

const virtualMachines = findMetricCatalog('microsoft.compute/virtualmachines')!;
const end = new Date('2026-03-02T10:20:00.000Z');

function createTarget(overrides: Partial<CollectionTarget> = {}): CollectionTarget {
  return {
    armId: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-1',
    type: 'Microsoft.Compute/virtualMachines',
    region: 'eastus',
    azureSubscriptionId: 's1',
    metricIds: virtualMachines.metrics.map((_metric, index) => `m${index}`),
    metricNames: virtualMachines.metrics.map((metric) => metric.name),
    collectedUntil: null,
    ...overrides,
  };
}

describe('planMinuteWindow', () => {
  it("starts a first collection an hour back, the metric panel's window, reading primary aggregations", () => {
    const window = planMinuteWindow(createTarget(), virtualMachines, end)!;
    expect(window.start.toISOString()).toBe('2026-03-02T09:20:00.000Z');
    expect(window.end).toEqual(end);
    expect(window.interval).toBe('PT1M');
    expect(window.metricNames).toHaveLength(6);
    expect(window.aggregations).toEqual(['average', 'total']);
  });

  it('asks a B-series VM with credit metric rows for its CPU credits too, and groups it apart', () => {
    const burstable = createTarget({
      armId: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/vm-b',
      metricNames: [
        ...virtualMachines.metrics.map((metric) => metric.name),
        'CPU Credits Remaining',
        'CPU Credits Consumed',
      ],
    });
    const window = planMinuteWindow(burstable, virtualMachines, end)!;
    expect(window.metricNames.slice(6)).toEqual(['CPU Credits Remaining', 'CPU Credits Consumed']);
    expect(planMinuteWindow(createTarget(), virtualMachines, end)!.metricNames).toHaveLength(6);
    const groups = groupTargets([createTarget(), burstable], (target, catalog) =>
      planMinuteWindow(target, catalog, end),
    );
    expect(groups.map((group) => group.targets.length)).toEqual([1, 1]);
  });

  it('continues from the last collection', () => {
    const collectedUntil = new Date('2026-03-02T09:55:00.000Z');
    const window = planMinuteWindow(createTarget({ collectedUntil }), virtualMachines, end)!;
    expect(window.start).toEqual(collectedUntil);
    expect(window.end).toEqual(end);
  });

  it('has nothing to read for a resource that is up to date', () => {
    expect(planMinuteWindow(createTarget({ collectedUntil: end }), virtualMachines, end)).toBeUndefined();
  });

  it('catches up after a long gap an hour at a time, from at most six hours back', () => {
    const window = planMinuteWindow(
      createTarget({ collectedUntil: new Date('2026-03-01T00:00:00.000Z') }),
      virtualMachines,
      end,
    )!;
    expect(window.start.toISOString()).toBe('2026-03-02T04:00:00.000Z');
    expect(window.end.toISOString()).toBe('2026-03-02T05:00:00.000Z');
  });
});

describe('groupTargets', () => {
  const plan = (target: CollectionTarget, catalog: typeof virtualMachines) =>
    planMinuteWindow(target, catalog, end);

  it('reads up to 50 virtual machines of one subscription, region and window in one call', () => {
    const targets = Array.from({ length: 120 }, (_unused, index) =>
      createTarget({ armId: `/subscriptions/s1/vm-${index}`, metricIds: [`m${index}`] }),
    );
    const groups = groupTargets(targets, plan);
    expect(groups.map((group) => group.targets.length)).toEqual([50, 50, 20]);
    expect(groups[0]!.window.metricNames).toHaveLength(6);
  });

  it('splits by region and subscription, reads plans one by one and skips types without metrics', () => {
    const targets = [
      createTarget({ armId: '/a' }),
      createTarget({ armId: '/b', region: 'westus2' }),
      createTarget({ armId: '/c', azureSubscriptionId: 's2' }),
      createTarget({ armId: '/d', type: 'Microsoft.Web/serverfarms' }),
      createTarget({ armId: '/e', type: 'Microsoft.Web/serverfarms' }),
      createTarget({ armId: '/f', type: 'Microsoft.Sql/servers' }),
    ];
    const groups = groupTargets(targets, plan);
    expect(groups.map((group) => group.targets.map((target) => target.armId))).toEqual([
      ['/a'],
      ['/b'],
      ['/c'],
      ['/d'],
      ['/e'],
    ]);
  });
});

function createGroup(): CollectionGroup {
  const target = createTarget({ armId: '/subscriptions/s1/VM-1' });
  return groupTargets([target], (planned, catalog) => planMinuteWindow(planned, catalog, end))[0]!;
}

function createSeries(metricName: string, values: MetricSeries['values']): MetricSeries {
  const times = [Date.parse('2026-03-02T10:10:00Z'), Date.parse('2026-03-02T10:11:00Z')];
  return { resourceId: '/subscriptions/s1/vm-1', metricName, unit: 'Percent', times, values };
}

describe('toMinutePoints', () => {
  it("stores each metric's primary aggregation, matching resources in any letter case, skipping gaps", () => {
    const points = toMinutePoints(createGroup(), [
      createSeries('Percentage CPU', { average: [12.5, null], total: [700, null] }),
      createSeries('Network In Total', { average: [10, 20], total: [600, 1200] }),
      createSeries('Unknown Metric', { average: [1, 2] }),
    ]);
    expect(points).toEqual({
      metricIds: ['m0', 'm4', 'm4'],
      times: [
        Date.parse('2026-03-02T10:10:00.000Z'),
        Date.parse('2026-03-02T10:10:00.000Z'),
        Date.parse('2026-03-02T10:11:00.000Z'),
      ],
      values: [12.5, 600, 1200],
    });
  });
});

describe('toHourlyAggregates', () => {
  it("takes Azure's hourly average and maximum, a total metric's mean minute, and the maximum as p95", () => {
    const aggregates = toHourlyAggregates(createGroup(), [
      createSeries('Percentage CPU', { average: [20, 30], maximum: [60, 70], total: [1200, 1800] }),
      createSeries('Network In Total', { average: [5, 5], maximum: [90, 100], total: [6000, 3000] }),
    ]);
    expect(aggregates.metricIds).toEqual(['m0', 'm0', 'm4', 'm4']);
    expect(aggregates.averages).toEqual([20, 30, 100, 50]);
    expect(aggregates.maximums).toEqual([60, 70, 100, 100]);
    expect(aggregates.p95s).toEqual(aggregates.maximums);
  });
});

describe('MinuteWriteBuffer', () => {
  const until = new Date('2026-03-02T10:18:00.000Z');
  const rollUp = { from: new Date('2026-03-02T10:00:00.000Z'), to: new Date('2026-03-02T10:00:00.000Z') };
  const answer = (metricId: string, pointCount: number, collectedUntil = until): MinuteBatchWrite => ({
    points: {
      metricIds: Array.from({ length: pointCount }, () => metricId),
      times: Array.from({ length: pointCount }, (_unused, index) => until.getTime() - (index + 1) * 60_000),
      values: Array.from({ length: pointCount }, (_unused, index) => index),
    },
    collectedMetricIds: [metricId],
    collectedUntil,
    rollUp,
  });

  it('gathers answers of one window into a write once it holds enough points', () => {
    const buffer = new MinuteWriteBuffer(10);
    expect(buffer.add(answer('a', 4))).toBeUndefined();
    expect(buffer.add(answer('b', 5))).toBeUndefined();
    const full = buffer.add(answer('c', 3));
    expect(full?.collectedMetricIds).toEqual(['a', 'b', 'c']);
    expect(full?.points.metricIds).toEqual([
      ...Array(4).fill('a'),
      ...Array(5).fill('b'),
      ...Array(3).fill('c'),
    ]);
    expect(full?.points.values).toEqual([0, 1, 2, 3, 0, 1, 2, 3, 4, 0, 1, 2]);
    expect(buffer.drain()).toEqual([]);
  });

  it('keeps answers of other windows apart, and drains what is left, points or none', () => {
    const buffer = new MinuteWriteBuffer(10);
    buffer.add(answer('a', 4));
    buffer.add(answer('b', 0, new Date('2026-03-02T10:13:00.000Z')));
    buffer.add(answer('c', 2));
    const rest = buffer.drain();
    expect(rest.map((write) => [write.collectedUntil.toISOString(), write.collectedMetricIds])).toEqual([
      ['2026-03-02T10:18:00.000Z', ['a', 'c']],
      ['2026-03-02T10:13:00.000Z', ['b']],
    ]);
    expect(buffer.drain()).toEqual([]);
  });
});
