import { describe, expect, it } from 'vitest';
import { buildWasteCandidate, summariseUsage } from './analysis-input';
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
