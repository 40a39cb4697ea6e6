import { notAvailableText } from '@cloudtrim/contracts/messages';

/**
 * SPEC §3 shows times as a local date-time with 'UTC' appended. The server keeps UTC, so the reader's
 * locale formats the UTC clock time: the label then tells the truth in every time zone.
 */
export function formatUtcDateTime(
  isoDateTime: string | null | undefined,
  { locale, isCompact = false }: { locale?: string; isCompact?: boolean } = {},
): string {
  if (!isoDateTime) return notAvailableText;
  const date = new Date(isoDateTime);
  if (Number.isNaN(date.getTime())) return notAvailableText;
  const style: Intl.DateTimeFormatOptions = isCompact ? { dateStyle: 'short', timeStyle: 'short' } : {};
  return `${date.toLocaleString(locale, { ...style, timeZone: 'UTC' })} UTC`;
}
