import { describe, expect, it } from 'vitest';
import { findVirtualMachineSize } from '../catalog/sku.catalog';
import { generateFleet } from '../fleet/fleet.generator';
import { virtualMachineNamespace } from './metric.catalog';
import { computeSeries, type SeriesWindow } from './metric.series';

const startMinute = Date.UTC(2026, 10, 18, 9, 0) / 60000;
const window: SeriesWindow = {
  startMinute,
  endMinute: startMinute + 60,
  intervalMinutes: 1,
  lastCompleteMinute: startMinute + 1000,
};

describe('computeSeries', () => {
  it('derives Percentage CPU from demand over the current capacity', () => {
    const fleet = generateFleet({ seed: 9, fleetSize: 20 });
    const machine = fleet.virtualMachines.find((candidate) => candidate.powerHistory[0]?.state === 'running');
    if (!machine) throw new Error('The fleet has a running machine');
    const [cpu, memory] = computeSeries(fleet, machine, virtualMachineNamespace, [0, 1], window);
    const vcpus = machine.sizeHistory[0]?.size.vcpus ?? 1;
    const memoryGiB = machine.sizeHistory[0]?.size.memoryGiB ?? 1;
    for (let minute = 0; minute < 60; minute += 1) {
      const demand = fleet.demandAt(machine.id, new Date((startMinute + minute) * 60000));
      expect(cpu?.sum[minute]).toBeCloseTo(Math.min(100, (demand.cpuCores / vcpus) * 100), 9);
      expect(cpu?.minimum[minute]).toBeLessThanOrEqual(cpu?.sum[minute] ?? 0);
      expect(memory?.sum[minute]).toBeCloseTo(
        Math.max(memoryGiB * 0.02, memoryGiB - demand.memoryGiB) * 1024 ** 3,
        0,
      );
    }
  });

  it('reports nothing for minutes not yet over', () => {
    const fleet = generateFleet({ seed: 9, fleetSize: 20 });
    const machine = fleet.virtualMachines.find((candidate) => candidate.powerHistory[0]?.state === 'running');
    if (!machine) throw new Error('The fleet has a running machine');
    const [cpu] = computeSeries(fleet, machine, virtualMachineNamespace, [0], {
      ...window,
      lastCompleteMinute: startMinute + 29,
    });
    expect(cpu?.count.slice(0, 30).every((count) => count === 1)).toBe(true);
    expect(cpu?.count.slice(30).every((count) => count === 0)).toBe(true);
  });

  it('serves CPU Credits Remaining and Consumed for a B size, its CPU held to what the credits allow', () => {
    const fleet = generateFleet({ seed: 5, fleetSize: 30 });
    const resizeMinute = Date.UTC(2026, 10, 18, 22, 0) / 60000;
    const machine = fleet.virtualMachines.find(
      (candidate) =>
        candidate.powerHistory[0]?.state === 'running' &&
        fleet.demandAt(candidate.id, new Date(resizeMinute * 60000)).cpuCores > 0.3,
    )!;
    fleet.recordResize(machine, findVirtualMachineSize('Standard_B1s')!, resizeMinute * 60000);
    // Four hours across midnight: the bank runs out on the way.
    const across: SeriesWindow = {
      startMinute: resizeMinute - 30,
      endMinute: resizeMinute + 240,
      intervalMinutes: 1,
      lastCompleteMinute: resizeMinute + 1000,
    };
    const [cpu, remaining, consumed] = computeSeries(
      fleet,
      machine,
      virtualMachineNamespace,
      [0, 6, 7],
      across,
    );
    let throttledMinutes = 0;
    for (let minute = 0; minute < 270; minute += 1) {
      const at = new Date((across.startMinute + minute) * 60000);
      const credits = fleet.creditsAt(machine.id, at);
      if (minute < 30) {
        expect(credits).toBeUndefined();
        expect(remaining?.count[minute]).toBe(0);
        continue;
      }
      expect(remaining?.sum[minute]).toBeCloseTo(credits!.remaining, 9);
      expect(consumed?.sum[minute]).toBeCloseTo(credits!.consumed, 9);
      expect(cpu?.sum[minute]).toBeCloseTo(fleet.cpuPercentAt(machine.id, at)!, 9);
      expect(cpu?.sum[minute]).toBeCloseTo(Math.min(100, credits!.consumed * 100), 9);
      if (credits!.consumed < fleet.demandAt(machine.id, at).cpuCores - 1e-9) throttledMinutes += 1;
    }
    expect(throttledMinutes).toBeGreaterThan(30);
  });
});
