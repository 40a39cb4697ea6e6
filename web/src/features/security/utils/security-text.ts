import type { SecurityFinding, SecuritySeverity, SecurityStatus } from '@cloudtrim/contracts/security';
import { dayMs } from '@cloudtrim/contracts/time';

export interface FindingFilters {
  status: SecurityStatus | '';
  severity: SecuritySeverity | '';
  checkId: string;
  tenantId: string;
  search: string;
  sort: 'Severity' | 'LastSeen' | 'FirstSeen' | 'ResourceName' | 'CheckId';
  order: 'asc' | 'desc';
}

export const defaultFindingFilters: FindingFilters = {
  status: 'open',
  severity: '',
  checkId: '',
  tenantId: '',
  search: '',
  sort: 'Severity',
  order: 'desc',
};

export const severityLabels: Readonly<Record<SecuritySeverity, string>> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
};

export const severityVariants: Readonly<Record<SecuritySeverity, string>> = {
  critical: 'danger',
  high: 'warning',
  medium: 'info',
  low: 'secondary',
};

// Dark text where white on the colour would not reach WCAG AA contrast.
export const severityTextColors: Readonly<Record<SecuritySeverity, 'dark' | undefined>> = {
  critical: undefined,
  high: 'dark',
  medium: 'dark',
  low: undefined,
};

export const statusLabels: Readonly<Record<SecurityStatus, string>> = {
  open: 'Open',
  muted: 'Muted',
  resolved: 'Resolved',
};

export const noFindingsText = 'No findings match: nothing exposed here that the checks can see.';
export const noScanYetText = 'No scan yet: scans run with each inventory sync, or scan now.';

/** The list call's query string for the filters and page. */
export function buildFindingQuery(filters: FindingFilters, offset: number): string {
  const query = new URLSearchParams({ offset: String(offset), Sort: filters.sort, Order: filters.order });
  if (filters.status) query.set('Status', filters.status);
  if (filters.severity) query.set('Severity', filters.severity);
  if (filters.checkId) query.set('CheckId', filters.checkId);
  if (filters.tenantId) query.set('TenantId', filters.tenantId);
  if (filters.search.trim()) query.set('Search', filters.search.trim());
  return query.toString();
}

/** A click on a column heading: that column descending, or the other way when it already sorts. */
export function toggleSort(filters: FindingFilters, sort: FindingFilters['sort']): FindingFilters {
  if (filters.sort !== sort)
    return { ...filters, sort, order: sort === 'ResourceName' || sort === 'CheckId' ? 'asc' : 'desc' };
  return { ...filters, order: filters.order === 'asc' ? 'desc' : 'asc' };
}

export function describeMute(finding: Pick<SecurityFinding, 'Mute'>): string | null {
  if (!finding.Mute) return null;
  const source = finding.Mute.RuleId ? ' by a mute rule' : '';
  return `Muted until ${finding.Mute.Until}${source} by ${finding.Mute.By}: ${finding.Mute.Reason}`;
}

function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * dayMs).toISOString().slice(0, 10);
}

/** The days a mute may end on: tomorrow to a year from today (UTC), and a month out by default. */
export function readMuteRange(now: Date): { min: string; max: string; suggested: string } {
  const today = now.toISOString().slice(0, 10);
  return { min: addDays(today, 1), max: addDays(today, 365), suggested: addDays(today, 30) };
}

/** What is wrong with a mute draft, by field; empty when it can be sent. */
export function validateMuteDraft(
  draft: { reason: string; until: string },
  now: Date,
): Partial<Record<'Reason' | 'Until', string>> {
  const errors: Partial<Record<'Reason' | 'Until', string>> = {};
  const reason = draft.reason.trim();
  if (reason.length < 3 || reason.length > 500) errors.Reason = 'Say why, in 3 to 500 characters.';
  const { min, max } = readMuteRange(now);
  if (!/^\d{4}-\d{2}-\d{2}$/.test(draft.until) || draft.until < min || draft.until > max) {
    errors.Until = `Pick a day from ${min} to ${max}.`;
  }
  return errors;
}

export function formatPercent(value: number): string {
  return `${Math.round(value * 100)}%`;
}
