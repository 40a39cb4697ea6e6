// CPU credits of a burstable (B-series) size, as Azure defines them: the VM earns credits at its base
// CPU performance and spends them on what it runs; one credit is one vCPU at 100% for one minute.
// While the bank holds credits the VM may run every vCPU; once it is empty it runs at most its base.
// The same step is the backtest's judge (../shared/backtest/README.md), the engine's check and the
// emulator's workloads, so the three agree on when a VM is throttled.

export interface CreditTerms {
  // Base CPU performance in vCPUs (Azure's tables give it in percent of one vCPU: B2s 40% is 0.4).
  baseVcpus: number;
  // The most credits the bank holds (Azure: 24 hours of banking at the base).
  maxBankedCredits: number;
  // What the bank holds when the VM starts on the size: a resize starts a new bank.
  initialCredits: number;
}

// A measured bank under one credit has run out: Azure Monitor reports fractions, and a VM held to its
// base sits just above zero.
export const emptyBankCredits = 1;

// A credit is a vCPU-minute, so a base of b vCPUs banks b × 60 credits an hour.
export function bankedPerHour(terms: CreditTerms): number {
  return terms.baseVcpus * 60;
}

export interface CreditStep {
  // The bank after the step.
  bank: number;
  // The vCPUs the VM ran: the demand, or its cap when throttled.
  ranVcpus: number;
  isThrottled: boolean;
}

// One step of `stepMinutes` with `demandVcpus` of work on a size of `vcpus`: the most it can run is
// its base plus what the bank pays for over the step, never more than its vCPUs. Demand above that
// is throttled (the VM runs at the cap and the bank ends empty); otherwise the bank moves by the base
// earned less what ran, up to its maximum.
export function stepCredits(
  bank: number,
  demandVcpus: number,
  vcpus: number,
  terms: CreditTerms,
  stepMinutes: number,
): CreditStep {
  const cap = Math.min(vcpus, terms.baseVcpus + bank / stepMinutes);
  if (demandVcpus > cap && cap < vcpus) return { bank: 0, ranVcpus: cap, isThrottled: true };
  const ranVcpus = Math.min(demandVcpus, cap);
  return {
    bank: Math.min(terms.maxBankedCredits, bank + (terms.baseVcpus - ranVcpus) * stepMinutes),
    ranVcpus,
    isThrottled: false,
  };
}

export interface CreditRun {
  // The lowest the bank stood after any step (the start counts), and where it ended.
  lowestBank: number;
  endBank: number;
  throttledSteps: number;
}

// The bank over a run of demand (busy vCPUs per step, NaN where nothing was read: the bank stands
// still there), each reading multiplied by `scale`.
export function runCredits(
  demandVcpus: ArrayLike<number>,
  vcpus: number,
  terms: CreditTerms,
  stepMinutes: number,
  startBank: number,
  scale = 1,
  from = 0,
  to = demandVcpus.length,
): CreditRun {
  let bank = Math.min(terms.maxBankedCredits, startBank);
  let lowestBank = bank;
  let throttledSteps = 0;
  for (let step = from; step < to; step += 1) {
    const demand = demandVcpus[step]!;
    if (Number.isNaN(demand)) continue;
    // Inlined stepCredits: this runs for every burstable candidate of every VM analysed.
    const cap = Math.min(vcpus, terms.baseVcpus + bank / stepMinutes);
    const scaled = demand * scale;
    if (scaled > cap && cap < vcpus) {
      bank = 0;
      throttledSteps += 1;
    } else {
      bank = Math.min(terms.maxBankedCredits, bank + (terms.baseVcpus - Math.min(scaled, cap)) * stepMinutes);
    }
    if (bank < lowestBank) lowestBank = bank;
  }
  return { lowestBank, endBank: bank, throttledSteps };
}
