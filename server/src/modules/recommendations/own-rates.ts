// Savings at the rates the customer pays, from their bill: the engine prices at retail list prices
// (the backtest's traces carry no bill), which overstates a saving under an Enterprise Agreement
// or MCA discount and is wrong for a VM a reservation covers. The current size costs what the bill
// shows it cost an hour (amortized cost ÷ hours used); the target size its list price times the
// discount the bill shows for virtual machines in the region (what was paid ÷ list over the VMs
// paying as they go), so both sides carry the same agreement. Without a bill, list prices count.
import { formatDollars, roundCents } from '@cloudtrim/contracts/money';
import type { Proposal } from '@cloudtrim/rightsizing/analysis.types';
import { dayMs } from '../../lib/time';

// A VM's virtual machine charges over the bill's recent days.
export interface VmBill {
  amortizedCost: number;
  actualCost: number;
  usageHours: number;
}

export interface OwnRates {
  bill?: VmBill;
  // Effective ÷ list for pay-as-you-go VMs of the tenant in the VM's region; undefined when unseen.
  regionRatio?: number;
}

// A resource is taken as covered by a reservation when most of its amortized cost was not billed as
// used.
const reservedShareThreshold = 0.5;
// Fewer hours than a day of use say too little about a rate.
const minimumUsageHours = 24;
// The bill's days that price a proposal: two weeks before the days Azure still settles.
const billDays = 14;
const billSettlingDays = 3;

// The bill's settled fortnight before `until`, as days (YYYY-MM-DD, both included).
export function readBillDays(until: Date): { from: string; to: string } {
  return {
    from: new Date(until.getTime() - (billSettlingDays + billDays) * dayMs).toISOString().slice(0, 10),
    to: new Date(until.getTime() - billSettlingDays * dayMs).toISOString().slice(0, 10),
  };
}

export function readReservedShare(bill: Pick<VmBill, 'amortizedCost' | 'actualCost'> | undefined): number {
  if (!bill || bill.amortizedCost <= 0) return 0;
  return Math.min(1, Math.max(0, 1 - bill.actualCost / bill.amortizedCost));
}

// Whether a reservation pays for most of it: then shrinking or stopping it saves nothing on the bill.
export function isMostlyReserved(bill: Pick<VmBill, 'amortizedCost' | 'actualCost'> | undefined): boolean {
  return readReservedShare(bill) >= reservedShareThreshold;
}

// What a VM cost an hour of use on its bill (amortized, so an agreement's discount counts), when the
// bill shows enough hours to say.
export function readBilledHourly(bill: VmBill | undefined): number | undefined {
  if (!bill || bill.usageHours < minimumUsageHours || bill.amortizedCost <= 0) return undefined;
  return bill.amortizedCost / bill.usageHours;
}

// The VMs paying as they go with a known list price give the region's effective ÷ list: the median
// of theirs, so a VM resized within the period (its hours priced at the new size's list) or one
// whose usage a share of a reservation covers does not move it.
export function readRegionRatio(vms: { bill: VmBill; listHourly: number | undefined }[]): number | undefined {
  const ratios: number[] = [];
  for (const { bill, listHourly } of vms) {
    if (!listHourly || bill.usageHours < minimumUsageHours) continue;
    if (readReservedShare(bill) > 0.05) continue;
    ratios.push(bill.amortizedCost / (bill.usageHours * listHourly));
  }
  return readMedianRatio(ratios);
}

// The median of what resources paid against their list price.
export function readMedianRatio(ratios: number[]): number | undefined {
  if (ratios.length === 0) return undefined;
  const sorted = [...ratios].sort((first, second) => first - second);
  const middle = Math.floor(sorted.length / 2);
  const ratio = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  // Outside (0, 1.5] it is a bill we misread, not a discount.
  return ratio > 0 && ratio <= 1.5 ? ratio : undefined;
}

// A VM's resize or shutdown, or the deallocation of a VM stopped from its guest (a waste finder's).
export function priceAtOwnRates<Priced extends Pick<Proposal, 'targetSize' | 'memo' | 'annualCostSavings'>>(
  proposal: Priced,
  listHourly: { current: number | undefined; target: number | undefined },
  rates: OwnRates,
): Priced {
  const { bill, regionRatio } = rates;
  const currentList = listHourly.current;
  const billedHourly = readBilledHourly(bill);
  const hasBill = billedHourly !== undefined;
  if (!currentList || (!hasBill && regionRatio === undefined)) {
    return {
      ...proposal,
      memo: `${proposal.memo} No bill read yet for this VM: the saving is at list prices.`,
    };
  }
  const reservedShare = readReservedShare(bill);
  const listSaving = proposal.annualCostSavings;
  if (hasBill && isMostlyReserved(bill)) {
    return {
      ...proposal,
      annualCostSavings: 0,
      memo:
        `${proposal.memo} A reservation covers ${Math.round(reservedShare * 100)}% of this VM's hours: ` +
        `while it does, a smaller size or fewer hours save nothing on the bill unless the reservation freed ` +
        `is used by another VM of its flexibility group. At list prices it would save ${formatDollars(listSaving)} ` +
        `a year; that is not counted in the total on offer.`,
    };
  }
  const ratio = regionRatio ?? 1;
  const currentOwn = billedHourly ?? currentList * ratio;
  let ownSaving: number;
  let rateText: string;
  if (proposal.targetSize && listHourly.target !== undefined && currentList > listHourly.target) {
    // The engine's saving is (current − target) × hours a year at list: the hours come back out of it.
    const hoursPerYear = listSaving / (currentList - listHourly.target);
    const targetOwn = listHourly.target * ratio;
    ownSaving = Math.max(0, (currentOwn - targetOwn) * hoursPerYear);
    rateText =
      `At your rates: ${formatRate(targetOwn)}/h instead of ${formatRate(currentOwn)}/h ` +
      `(list ${formatRate(listHourly.target)}/h instead of ${formatRate(currentList)}/h)`;
  } else {
    ownSaving = listSaving * (currentOwn / currentList);
    rateText = `At your rates: ${formatRate(currentOwn)}/h (list ${formatRate(currentList)}/h)`;
  }
  const source = hasBill ? 'its bill' : 'the discount your bill shows in its region';
  return {
    ...proposal,
    annualCostSavings: roundCents(ownSaving),
    memo: `${proposal.memo} ${rateText}, from ${source}; the saving counts your rates (at list: ${formatDollars(listSaving)} a year).`,
  };
}

function formatRate(hourly: number): string {
  return `$${hourly.toFixed(4).replace(/0{1,2}$/, '')}`;
}
