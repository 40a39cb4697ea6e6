import { describe, expect, it } from 'vitest';
import { findVirtualMachineSize } from '../catalog/sku.catalog';
import { findBurstableCredits, stepCreditMinute } from './credit-bank';
import { generateFleet } from './fleet.generator';

const b2s = findVirtualMachineSize('Standard_B2s')!;
const credits = findBurstableCredits(b2s)!;
const minuteMs = 60_000;
const scratch = () => ({ ranCores: 0, bank: 0, isThrottled: false });

describe('CPU credits of B sizes', () => {
  it("carries Azure's published figures, and none for other series", () => {
    expect(credits).toEqual({ baseVcpus: 0.4, initialCredits: 60, maxBankedCredits: 576 });
    expect(findBurstableCredits(findVirtualMachineSize('Standard_D2s_v5')!)).toBeUndefined();
  });

  it('spends a credit a vCPU-minute and banks the base, up to the maximum', () => {
    // 1 busy core: 60 + 0.4 − 1.
    expect(stepCreditMinute(60, 1, b2s, credits, scratch())).toEqual({
      ranCores: 1,
      bank: 59.4,
      isThrottled: false,
    });
    expect(stepCreditMinute(576, 0.1, b2s, credits, scratch()).bank).toBe(576);
  });

  it('holds the VM to its base plus what is left once the bank runs out', () => {
    expect(stepCreditMinute(0.3, 1.5, b2s, credits, scratch())).toEqual({
      ranCores: 0.7,
      bank: 0,
      isThrottled: true,
    });
    expect(stepCreditMinute(0, 1.5, b2s, credits, scratch()).ranCores).toBeCloseTo(0.4);
  });
});

describe('a fleet VM on a B size', () => {
  // A VM that needs more than a B1s's base of 0.1 vCPU, moved onto one.
  function resizeBusyVmToB1s() {
    const fleet = generateFleet({ seed: 5, fleetSize: 30 });
    const resizeMs = Date.UTC(2026, 10, 18, 12, 0);
    const machine = fleet.virtualMachines.find(
      (candidate) =>
        candidate.powerHistory[0]?.state === 'running' &&
        fleet.demandAt(candidate.id, new Date(resizeMs)).cpuCores > 0.3,
    )!;
    fleet.recordResize(machine, findVirtualMachineSize('Standard_B1s')!, resizeMs);
    return { fleet, machine, resizeMs };
  }

  it('starts its new bank at the initial credits, spends it, then runs throttled at its base', () => {
    const { fleet, machine, resizeMs } = resizeBusyVmToB1s();
    const first = fleet.creditsAt(machine.id, new Date(resizeMs));
    const demand = fleet.demandAt(machine.id, new Date(resizeMs)).cpuCores;
    expect(first?.remaining).toBeCloseTo(Math.max(0, 30 + 0.1 - Math.min(1, demand)), 6);
    // 30 credits last about two hours at 0.35 busy: later on the bank is empty and the VM runs at
    // its base of 10% while it asks for more.
    const minutes = Array.from({ length: 6 * 60 }, (_, minute) => new Date(resizeMs + minute * minuteMs));
    const throttled = minutes.filter(
      (at, minute) =>
        minute > 0 &&
        fleet.creditsAt(machine.id, minutes[minute - 1]!)?.remaining === 0 &&
        fleet.demandAt(machine.id, at).cpuCores > 0.1,
    );
    expect(throttled.length).toBeGreaterThan(60);
    for (const at of throttled) {
      expect(fleet.creditsAt(machine.id, at)?.consumed).toBeCloseTo(0.1, 6);
      expect(fleet.cpuPercentAt(machine.id, at)).toBeCloseTo(10, 6);
    }
  });

  it('reads the same bank whatever was asked before, and keeps it while the VM is deallocated', () => {
    const { fleet, machine, resizeMs } = resizeBusyVmToB1s();
    const at = new Date(resizeMs + 20 * minuteMs);
    const fresh = resizeBusyVmToB1s();
    // One asks minute by minute up to it, the other jumps straight there.
    for (let minute = 0; minute < 20; minute += 1)
      fleet.creditsAt(machine.id, new Date(resizeMs + minute * minuteMs));
    expect(fleet.creditsAt(machine.id, at)).toEqual(fresh.fleet.creditsAt(fresh.machine.id, at));
    fleet.recordPowerState(machine, 'deallocated', resizeMs + 25 * minuteMs);
    expect(fleet.creditsAt(machine.id, new Date(resizeMs + 40 * minuteMs))).toBeUndefined();
    expect(fleet.cpuPercentAt(machine.id, new Date(resizeMs + 40 * minuteMs))).toBeUndefined();
  });

  it('reports no credits on other sizes', () => {
    const fleet = generateFleet({ seed: 5, fleetSize: 30 });
    const machine = fleet.virtualMachines.find(
      (candidate) =>
        candidate.powerHistory[0]?.state === 'running' &&
        !candidate.sizeHistory[0]!.size.name.startsWith('Standard_B'),
    )!;
    expect(fleet.creditsAt(machine.id, new Date(Date.UTC(2026, 10, 18)))).toBeUndefined();
  });
});
