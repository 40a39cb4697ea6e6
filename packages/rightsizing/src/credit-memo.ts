// What the Memo says about burstable sizes: the wording only, every number passed in.
import type { CreditVerdict } from './credit-check';
import { bankedPerHour } from './cpu-credits';

export interface BurstableMemoFigures {
  size: string;
  vcpus: number;
  verdict: CreditVerdict;
  historyDays: number;
  horizonDays: number;
}

// A burstable target: what it is held to once its credits run out, and how low the bank would go.
export function describeBurstableTarget({
  size,
  vcpus,
  verdict,
  historyDays,
  horizonDays,
}: BurstableMemoFigures): string {
  const terms = verdict.terms!;
  const grown = describeGrowth(verdict.growth);
  const replayed = verdict.isMeasured
    ? `Its bank as Azure Monitor reported it went no lower than ${formatCredits(verdict.lowestBank)} credits; ` +
      `replayed from today's ${formatCredits(verdict.startBank)} over ${horizonDays} forecast days${grown}, it would go no lower than ` +
      `${formatCredits(Math.min(verdict.lowestBank, verdict.startBank))} and never run out.`
    : `Replayed over the last ${historyDays} days and ${horizonDays} forecast days${grown}, its bank would have gone no lower than ` +
      `${formatCredits(verdict.lowestBank)} credits (${formatShare(verdict.lowestBank, terms.maxBankedCredits)} of the most it holds) and never run out.`;
  return (
    ` ${size} is burstable: once its CPU credits run out it runs at no more than its base of ` +
    `${formatVcpus(terms.baseVcpus)} of its ${vcpus} vCPUs. It banks ${formatCredits(bankedPerHour(terms))} credits an hour, ` +
    `up to ${formatCredits(terms.maxBankedCredits)}, and a resize starts it at ${formatCredits(terms.initialCredits)}. ` +
    replayed +
    ` Its busiest day, ${formatVcpus(verdict.busiestDayVcpus)} busy on average, stays under the base.`
  );
}

// A cheaper burstable size that carried the peaks but was passed over for its credits.
export function describeRefusedBurstable(verdict: CreditVerdict): string {
  const grown = describeGrowth(verdict.growth);
  switch (verdict.shortfall) {
    case 'throttled':
      return ` ${verdict.size} (burstable) is cheaper but was not chosen: replayed${grown}, its CPU credits would run out and hold it to its base of ${formatVcpus(verdict.terms!.baseVcpus)}.`;
    case 'drains':
      return ` ${verdict.size} (burstable) is cheaper but was not chosen: its busiest day, ${formatVcpus(verdict.busiestDayVcpus)} busy on average${grown}, is above its base of ${formatVcpus(verdict.terms!.baseVcpus)}, so its bank would only drain.`;
    case 'unknown':
      return ` ${verdict.size} (burstable) is cheaper but was not chosen: its credit figures are unknown, so whether its credits would last cannot be judged.`;
    default:
      return '';
  }
}

// Why a VM whose own bank ran out gets no smaller size.
export function describeRunOutBank(size: string): string {
  return `${size} ran out of CPU credits in the days analysed (Azure Monitor's CPU Credits Remaining reached 0): its CPU readings were held to its base then, so they show less than it needed, and no smaller size is proposed.`;
}

// Said only when it shows in two decimals.
function describeGrowth(growth: number): string {
  const shown = growth.toFixed(2);
  return shown === '1.00' ? '' : ` with the demand ×${shown} for its growth`;
}

function formatCredits(credits: number): string {
  return Math.round(credits).toLocaleString('en-US');
}

function formatShare(part: number, whole: number): string {
  return `${Math.round((part / whole) * 100)}%`;
}

function formatVcpus(vcpus: number): string {
  const rounded = Number(vcpus.toFixed(2));
  return `${rounded} vCPU${rounded === 1 ? '' : 's'}`;
}
