import { notAvailableText } from '@cloudtrim/contracts/messages';
import { formatMoney } from '@cloudtrim/contracts/money';

// Money in the bill's currency, written as the app writes dollars (SPEC §3: a $ prefix, thousands
// separators, 2 decimals). Building an Intl.NumberFormat costs far more than using one: one per style.
const formatters = new Map<string, Intl.NumberFormat>();

function getFormatter(currency: string, isCompact: boolean): Intl.NumberFormat | null {
  const key = `${currency}|${isCompact}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    try {
      formatter = new Intl.NumberFormat('en-US', {
        style: 'currency',
        currency,
        ...(isCompact
          ? { notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 }
          : { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
      });
    } catch {
      // Not an ISO 4217 code: the amount is written with the code after it instead.
      return null;
    }
    formatters.set(key, formatter);
  }
  return formatter;
}

export function formatCost(amount: number, currency: string): string {
  const formatter = getFormatter(currency, false);
  if (formatter) return formatter.format(amount);
  return formatMoney(amount, currency);
}

/** For a chart's axis: $1.2K, $35K. */
export function formatCompactCost(amount: number, currency: string): string {
  const formatter = getFormatter(currency, true);
  if (formatter) return formatter.format(amount);
  return `${amount.toLocaleString('en-US', { notation: 'compact', maximumFractionDigits: 1 })} ${currency}`;
}

/** The change from `previous` to `current` in percent; none when there was nothing to compare with. */
export function getChangePercent(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return ((current - previous) / Math.abs(previous)) * 100;
}

export type ChangeDirection = 'up' | 'down' | 'flat' | 'none';

/** Rounded as shown, so +0.0% never reads as a rise. */
function roundChange(percent: number): number {
  return Math.round(percent * 10) / 10;
}

export function getChangeDirection(percent: number | null): ChangeDirection {
  if (percent === null) return 'none';
  const rounded = roundChange(percent);
  if (rounded > 0) return 'up';
  return rounded < 0 ? 'down' : 'flat';
}

export function formatChangePercent(percent: number | null): string {
  if (percent === null) return notAvailableText;
  const rounded = roundChange(percent);
  const text = Math.abs(rounded).toLocaleString('en-US', {
    minimumFractionDigits: 1,
    maximumFractionDigits: 1,
  });
  if (rounded > 0) return `+${text}%`;
  return rounded < 0 ? `-${text}%` : `${text}%`;
}
