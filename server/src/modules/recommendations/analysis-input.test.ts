import { describe, expect, it } from 'vitest';
import type { SizeOption } from '@cloudtrim/rightsizing/analysis.types';
import { buildWasteCandidate, readVmSeries, summariseUsage } from './analysis-input';
import type { HourlySeries } from './hourly-series';
import type { WasteResourceRow } from './recommendations.repository';

const gib = 1024 ** 3;

function hours(count: number, valueOf: (hour: number) => number): Float64Array {
  return Float64Array.from({ length: count }, (_, hour) => valueOf(hour));
}

function row(overrides: Partial<WasteResourceRow>): WasteResourceRow {
  return {
    id: '00000000-0000-0000-0000-000000000001',
    armId: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Compute/disks/data-07',
    name: 'data-07',
    type: 'Microsoft.Compute/disks',
    region: 'eastus',
    sku: 'Premium_LRS',
    osType: null,
    automated: 0,
    details: { diskState: 'Reserved', diskSizeGb: 128 },
    tags: {},
    stateSince: null,
    isStateDated: false,
    powerState: null,
    hasOwner: false,
    ownerPowerState: null,
    ownerStateSince: null,
    ...overrides,
  };
}

describe('readVmSeries', () => {
  const since = new Date('2026-11-01T00:00:00Z');
  const until = new Date('2026-11-01T04:00:00Z');
  const size: SizeOption = {
    name: 'Standard_D4s_v5',
    family: 'standardDSv5Family',
    vcpus: 4,
    memoryGiB: 16,
    maxDataDisks: 8,
    maxNics: 2,
    hasPremiumIo: true,
    hasAcceleratedNetworking: true,
    isAvailable: true,
  };
  const values = (series: Float64Array | undefined) => [...(series ?? [])];

  it('lays each aggregate on the grid as the engine reads it', () => {
    const hourly: HourlySeries = {
      steps: 4,
      cpuAverage: Float64Array.from([Number.NaN, 20, 30, 40]),
      cpuMaximum: Float64Array.from([90, 50, Number.NaN, 45]),
      memoryAverage: Float64Array.from([12 * gib, 8 * gib, 10 * gib, Number.NaN]),
      memoryP95: Float64Array.from([Number.NaN, 9 * gib, Number.NaN, Number.NaN]),
      memoryMinimum: Float64Array.from([11 * gib, Number.NaN, Number.NaN, 1 * gib]),
      networkAverage: Float64Array.from([1_000, Number.NaN, 2_000, 3_000]),
      creditsAverage: Float64Array.from([100, 80, Number.NaN, 60]),
      creditsMinimum: Float64Array.from([90, Number.NaN, 5, Number.NaN]),
    };
    const series = readVmSeries(hourly, size, since, until);
    // CPU: a peak only where the hour ran, its mean where the peak is missing.
    expect(values(series.cpu.average)).toEqual([Number.NaN, 20, 30, 40]);
    expect(values(series.cpu.maximum)).toEqual([Number.NaN, 50, 30, 45]);
    expect(series).toMatchObject({ runningHours: 3, firstStep: 1 });
    expect(series.cpu).toMatchObject({ startMs: since.getTime(), stepMinutes: 60 });
    // Memory used: size − available; the peak from the lowest minute, else the p95 mirrored below
    // the mean, else the mean.
    expect(values(series.memoryUsedGiB?.average)).toEqual([4, 8, 6, Number.NaN]);
    expect(values(series.memoryUsedGiB?.maximum)).toEqual([5, 9, 6, Number.NaN]);
    // Network: a minute's mean times the hour's 60 minutes.
    expect(values(series.network?.average)).toEqual([60_000, Number.NaN, 120_000, 180_000]);
    expect(values(series.network?.maximum)).toEqual([60_000, Number.NaN, 120_000, 180_000]);
    // Credits: the lowest minute (else the mean) as the level, the mean as the peak.
    expect(values(series.cpuCreditsRemaining?.average)).toEqual([90, 80, Number.NaN, 60]);
    expect(values(series.cpuCreditsRemaining?.maximum)).toEqual([100, 80, Number.NaN, 60]);
  });

  it('leaves out what was not read, and reads no memory without the size', () => {
    const cpuOnly = readVmSeries(
      { steps: 4, cpuAverage: Float64Array.from([1, 2, 3, 4]) },
      size,
      since,
      until,
    );
    expect(values(cpuOnly.cpu.maximum)).toEqual([1, 2, 3, 4]);
    expect(cpuOnly).not.toHaveProperty('memoryUsedGiB');
    expect(cpuOnly).not.toHaveProperty('network');
    expect(cpuOnly).not.toHaveProperty('cpuCreditsRemaining');
    const sizeUnknown = readVmSeries(
      { steps: 4, memoryAverage: Float64Array.from([gib, gib, gib, gib]) },
      undefined,
      since,
      until,
    );
    expect(sizeUnknown).not.toHaveProperty('memoryUsedGiB');
    const nothing = readVmSeries(undefined, size, since, until);
    expect(values(nothing.cpu.average)).toEqual([Number.NaN, Number.NaN, Number.NaN, Number.NaN]);
    expect(nothing).toMatchObject({ runningHours: 0, firstStep: 4 });
  });

  it('refuses a series read over other hours than it was laid on', () => {
    expect(() => readVmSeries({ steps: 3 }, size, since, until)).toThrow(/3 hours read over 4/);
  });
});

describe('summariseUsage', () => {
  it('reads P95 of the hours, the days of hours present and the storage peak', () => {
    // 10 days of hours, CPU 0–99 repeating, every fourth hour missing; memory 40% flat.
    const cpu = hours(240, (hour) => (hour % 4 === 3 ? Number.NaN : hour % 100));
    const summary = summariseUsage(
      {
        cpuAverage: cpu,
        memoryAverage: hours(240, () => 40),
        storageMaximum: hours(240, (hour) => hour * gib),
      },
      null,
    );
    expect(summary.days).toBe(7.5);
    expect(summary.cpuP95Pct).toBeGreaterThanOrEqual(93);
    expect(summary.cpuP95Pct).toBeLessThanOrEqual(96);
    expect(summary.memoryP95Pct).toBe(40);
    expect(summary.dtuP95Pct).toBeNull();
    expect(summary.storageUsedBytes).toBe(239 * gib);
  });

  it("reads storage used from storage_percent of the database's maximum size when bytes are missing", () => {
    const summary = summariseUsage(
      { dtuAverage: hours(24, () => 10), storagePercentMaximum: hours(24, () => 25) },
      100 * gib,
    );
    expect(summary).toMatchObject({ days: 1, dtuP95Pct: 10, storageUsedBytes: 25 * gib });
    expect(summariseUsage({ dtuAverage: hours(24, () => 10) }, 100 * gib).storageUsedBytes).toBeNull();
  });
});

describe('buildWasteCandidate', () => {
  it("carries a disk's VM when inventory has it, none otherwise", () => {
    const attached = buildWasteCandidate(
      row({
        hasOwner: true,
        ownerPowerState: 'deallocated',
        ownerStateSince: Date.UTC(2026, 9, 1),
        stateSince: 5,
      }),
      undefined,
      null,
    );
    expect(attached.owner).toEqual({ powerState: 'deallocated', stateSince: Date.UTC(2026, 9, 1) });
    expect(attached.stateSince).toBe(5);
    expect(attached.usage).toBeNull();
    expect(buildWasteCandidate(row({}), undefined, null).owner).toBeNull();
  });

  it("summarises a database's use against its maximum size, and carries a stopped VM's price", () => {
    const database = buildWasteCandidate(
      row({ type: 'Microsoft.Sql/servers/databases', sku: 'S3', details: { maxSizeBytes: 200 * gib } }),
      { dtuAverage: hours(24 * 8, () => 5), storagePercentMaximum: hours(24 * 8, () => 50) },
      null,
    );
    expect(database.usage).toMatchObject({ days: 8, dtuP95Pct: 5, storageUsedBytes: 100 * gib });
    const vm = buildWasteCandidate(
      row({ type: 'Microsoft.Compute/virtualMachines', powerState: 'stopped' }),
      undefined,
      0.192,
    );
    expect(vm).toMatchObject({ powerState: 'stopped', vmHourly: 0.192 });
  });
});
