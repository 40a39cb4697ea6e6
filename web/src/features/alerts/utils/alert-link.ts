import type { Alert } from '@cloudtrim/contracts/alerts';
import { dayMs } from '@cloudtrim/contracts/time';

// Where an alert is looked into: a cost alert in /analysis filtered to its scope, over a period that
// holds its day (the page's periods count back from today); a pipeline's (an approval waiting, a run
// that failed) in /automation, where its runs and approvals are; a security finding's in /security.

function monthsBetween(day: string, today: string): number {
  const [year, month] = day.split('-').map(Number);
  const [thisYear, thisMonth] = today.split('-').map(Number);
  return (thisYear! - year!) * 12 + (thisMonth! - month!);
}

function choosePeriod(day: string, today: string): string | null {
  const months = monthsBetween(day, today);
  if (months <= 0) return null;
  if (months === 1) return 'last-month';
  const daysAgo = (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${day}T00:00:00Z`)) / dayMs;
  return daysAgo < 90 ? 'last-90-days' : 'last-12-months';
}

export function createAlertAnalysisHref(
  alert: Pick<Alert, 'Filter' | 'Date'>,
  now: Date = new Date(),
): string {
  const { TenantId, SubscriptionId, ResourceGroup, Service, Tag } = alert.Filter;
  const period = choosePeriod(alert.Date.slice(0, 10), now.toISOString().slice(0, 10));
  const entries = Object.entries({
    period,
    tenantId: TenantId,
    subscriptionId: SubscriptionId,
    resourceGroup: ResourceGroup,
    service: Service,
    tag: Tag,
  }).filter((entry): entry is [string, string] => Boolean(entry[1]));
  const search = new URLSearchParams(entries).toString();
  return search ? `/analysis?${search}` : '/analysis';
}

export const alertLinkTexts: Readonly<Record<Alert['Kind'], string>> = {
  budget: 'Show in Cost Analysis',
  anomaly: 'Show in Cost Analysis',
  approval: 'Review in Automation Pipelines',
  pipeline: 'Review in Automation Pipelines',
  security: 'Review in Security',
};

export function createAlertHref(
  alert: Pick<Alert, 'Kind' | 'Filter' | 'Date'>,
  now: Date = new Date(),
): string {
  if (alert.Kind === 'security') return '/security';
  return alert.Kind === 'approval' || alert.Kind === 'pipeline'
    ? '/automation'
    : createAlertAnalysisHref(alert, now);
}
