// CPU credits of the B-series, as Azure runs them: a VM earns credits at its base CPU performance
// and spends one for each vCPU-minute it runs; while its bank holds credits it may run every vCPU,
// once it is empty it runs at most its base (throttled). A resize to a B size starts a new bank at
// the size's initial credits; while the VM is not running its bank stands still.
// Figures: Microsoft Learn, "B-series burstable virtual machine sizes" (base CPU performance of the
// VM in percent of one vCPU, initial credits, max banked credits).
import type { VirtualMachineSize } from '../catalog/sku.catalog';
import { computeDemandInto, type Demand, type WorkloadProfile } from './workload.model';

export interface BurstableCredits {
  // Base CPU performance in vCPUs (Azure's table: percent of one vCPU / 100).
  readonly baseVcpus: number;
  readonly initialCredits: number;
  readonly maxBankedCredits: number;
}

const creditsBySize: Readonly<Record<string, BurstableCredits>> = {
  Standard_B1s: { baseVcpus: 0.1, initialCredits: 30, maxBankedCredits: 144 },
  Standard_B1ms: { baseVcpus: 0.2, initialCredits: 30, maxBankedCredits: 288 },
  Standard_B2s: { baseVcpus: 0.4, initialCredits: 60, maxBankedCredits: 576 },
  Standard_B2ms: { baseVcpus: 0.6, initialCredits: 60, maxBankedCredits: 864 },
  Standard_B4ms: { baseVcpus: 0.9, initialCredits: 120, maxBankedCredits: 1296 },
  Standard_B8ms: { baseVcpus: 1.35, initialCredits: 240, maxBankedCredits: 1944 },
  Standard_B12ms: { baseVcpus: 2.02, initialCredits: 360, maxBankedCredits: 2909 },
  Standard_B16ms: { baseVcpus: 2.7, initialCredits: 480, maxBankedCredits: 3888 },
  Standard_B20ms: { baseVcpus: 3.37, initialCredits: 600, maxBankedCredits: 4860 },
};

export function findBurstableCredits(size: VirtualMachineSize): BurstableCredits | undefined {
  return creditsBySize[size.name];
}

// One minute on a size: the cores the VM runs and the bank after it. Demand above the base plus
// what the bank holds is throttled to that (the bank ends empty).
export interface CreditMinute {
  ranCores: number;
  bank: number;
  isThrottled: boolean;
}

export function stepCreditMinute(
  bank: number,
  demandCores: number,
  size: VirtualMachineSize,
  credits: BurstableCredits,
  target: CreditMinute,
): CreditMinute {
  const cap = Math.min(size.vcpus, credits.baseVcpus + bank);
  if (demandCores > cap && cap < size.vcpus) {
    target.ranCores = cap;
    target.bank = 0;
    target.isThrottled = true;
  } else {
    target.ranCores = Math.min(demandCores, cap);
    target.bank = Math.min(credits.maxBankedCredits, bank + credits.baseVcpus - target.ranCores);
    target.isThrottled = false;
  }
  return target;
}

// The bank of every VM at any minute, past or future, as one rule: replayed minute by minute from
// two days before the day's start (00:00 UTC), where a VM that has been on its size since before then
// holds a full bank. Two days of banking at the base fill an emptied bank and empty a full one under
// any load that matters, so where it stood before hardly shows; the rule keeps a bank the same
// whoever asks and in what order. Day starts and each machine's last minute asked are kept.
const minutesPerDay = 1440;
const replayDays = 2;
const keptDayStarts = 8;

// What the banks read of a VM (fleet.model.ts's VirtualMachineRecord has it all).
export interface CreditMachine {
  readonly workload: WorkloadProfile;
  readonly streamKey: number;
  readonly createdMs: number;
  readonly sizeHistory: readonly { readonly fromMinute: number; readonly size: VirtualMachineSize }[];
  readonly powerHistory: readonly { readonly fromMinute: number; readonly state: string }[];
}

interface MachineBanks {
  version: string;
  dayStarts: Map<number, number>;
  lastMinute: number;
  lastBank: number;
}

export class CreditBanks {
  private readonly byMachine = new WeakMap<CreditMachine, MachineBanks>();
  private readonly demand: Demand = { cpuCores: 0, memoryGiB: 0 };
  private readonly step: CreditMinute = { ranCores: 0, bank: 0, isThrottled: false };

  constructor(private readonly seedKey: number) {}

  // The bank as `minute` starts; 0 when the VM is not on a B size then.
  readBank(machine: CreditMachine, minute: number): number {
    const banks = this.readMachineBanks(machine);
    const dayStart = Math.floor(minute / minutesPerDay) * minutesPerDay;
    let from = dayStart;
    let bank = this.readDayStartBank(machine, banks, dayStart);
    if (banks.lastMinute >= dayStart && banks.lastMinute <= minute) {
      from = banks.lastMinute;
      bank = banks.lastBank;
    }
    bank = this.replay(machine, from, minute, bank);
    // A resize at this very minute starts the new bank with it.
    const entry = machine.sizeHistory[findEntryIndex(machine.sizeHistory, minute)]!;
    if (entry.fromMinute === minute) bank = findBurstableCredits(entry.size)?.initialCredits ?? 0;
    this.remember(machine, minute, bank);
    return bank;
  }

  // Keeps where a walk over the minutes got to (the bank as `minute` starts), so the next question
  // continues from there. Called each minute of a walk, after readBank checked the histories.
  remember(machine: CreditMachine, minute: number, bank: number): void {
    const banks = this.byMachine.get(machine);
    if (!banks) return;
    banks.lastMinute = minute;
    banks.lastBank = bank;
  }

  private readDayStartBank(machine: CreditMachine, banks: MachineBanks, dayStart: number): number {
    const kept = banks.dayStarts.get(dayStart);
    if (kept !== undefined) return kept;
    const from = dayStart - replayDays * minutesPerDay;
    const size = sizeAt(machine.sizeHistory, from);
    const credits = findBurstableCredits(size);
    const bank = this.replay(machine, from, dayStart, credits?.maxBankedCredits ?? 0);
    if (banks.dayStarts.size >= keptDayStarts) {
      banks.dayStarts.delete(banks.dayStarts.keys().next().value!);
    }
    banks.dayStarts.set(dayStart, bank);
    return bank;
  }

  // The bank at `to` from `bank` at `from`, minute by minute.
  private replay(machine: CreditMachine, from: number, to: number, bank: number): number {
    const createdMinute = Math.floor(machine.createdMs / 60000);
    // The size in force the minute before, so a resize at `from` itself starts its new bank.
    let sizeIndex = findEntryIndex(machine.sizeHistory, from - 1);
    let powerIndex = findEntryIndex(machine.powerHistory, from);
    for (let minute = from; minute < to; minute += 1) {
      while ((machine.sizeHistory[sizeIndex + 1]?.fromMinute ?? Number.POSITIVE_INFINITY) <= minute) {
        sizeIndex += 1;
        // A resize starts a new bank.
        const credits = findBurstableCredits(machine.sizeHistory[sizeIndex]!.size);
        bank = credits?.initialCredits ?? 0;
      }
      while ((machine.powerHistory[powerIndex + 1]?.fromMinute ?? Number.POSITIVE_INFINITY) <= minute) {
        powerIndex += 1;
      }
      if (minute < createdMinute || machine.powerHistory[powerIndex]?.state !== 'running') continue;
      const size = machine.sizeHistory[sizeIndex]!.size;
      const credits = findBurstableCredits(size);
      if (!credits) continue;
      computeDemandInto(machine.workload, this.seedKey, machine.streamKey, minute, this.demand);
      bank = stepCreditMinute(bank, this.demand.cpuCores, size, credits, this.step).bank;
    }
    return bank;
  }

  // Cached banks hold while the histories do: a change recorded later (a resize, a power change, or
  // a test's clock moved back, which rewrites the future) drops them.
  private readMachineBanks(machine: CreditMachine): MachineBanks {
    const lastSize = machine.sizeHistory.at(-1);
    const lastPower = machine.powerHistory.at(-1);
    const version = `${machine.sizeHistory.length}:${lastSize?.fromMinute}:${lastSize?.size.name}:${machine.powerHistory.length}:${lastPower?.fromMinute}:${lastPower?.state}`;
    let banks = this.byMachine.get(machine);
    if (!banks || banks.version !== version) {
      banks = { version, dayStarts: new Map(), lastMinute: Number.NEGATIVE_INFINITY, lastBank: 0 };
      this.byMachine.set(machine, banks);
    }
    return banks;
  }
}

function sizeAt(history: CreditMachine['sizeHistory'], minute: number): VirtualMachineSize {
  return history[findEntryIndex(history, minute)]!.size;
}

function findEntryIndex(history: readonly { readonly fromMinute: number }[], minute: number): number {
  let index = 0;
  while (index + 1 < history.length && history[index + 1]!.fromMinute <= minute) index += 1;
  return index;
}
