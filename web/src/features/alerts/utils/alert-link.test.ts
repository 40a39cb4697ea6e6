import { describe, expect, it } from 'vitest';
import { createAlertAnalysisHref, createAlertHref } from './alert-link';

const now = new Date('2026-11-25T09:00:00Z');
const subscriptionId = '11111111-2222-3333-4444-555555555555';

describe('an alert’s link to /analysis', () => {
  it('filters to the alert’s scope in /analysis’s own query names', () => {
    const href = createAlertAnalysisHref(
      {
        Date: '2026-11-24',
        Filter: { SubscriptionId: subscriptionId, ResourceGroup: 'web-rg', Service: 'Virtual Machines' },
      },
      now,
    );
    expect(href).toBe(
      `/analysis?subscriptionId=${subscriptionId}&resourceGroup=web-rg&service=Virtual+Machines`,
    );
    expect(createAlertAnalysisHref({ Date: '2026-11-01', Filter: {} }, now)).toBe('/analysis');
  });

  it('opens a period that holds the alert’s day', () => {
    expect(createAlertAnalysisHref({ Date: '2026-10-31', Filter: {} }, now)).toBe(
      '/analysis?period=last-month',
    );
    expect(createAlertAnalysisHref({ Date: '2026-09-02', Filter: {} }, now)).toBe(
      '/analysis?period=last-90-days',
    );
    expect(createAlertAnalysisHref({ Date: '2026-03-02', Filter: { Tag: 'env=prod' } }, now)).toBe(
      '/analysis?period=last-12-months&tag=env%3Dprod',
    );
  });
});

describe('where an alert is looked into', () => {
  it('is /automation for an approval waiting or a failed pipeline run, /analysis for a cost alert', () => {
    expect(createAlertHref({ Kind: 'approval', Date: '2026-10-02', Filter: {} }, now)).toBe('/automation');
    expect(createAlertHref({ Kind: 'pipeline', Date: '2026-10-02', Filter: {} }, now)).toBe('/automation');
    expect(createAlertHref({ Kind: 'anomaly', Date: '2026-09-02', Filter: { Tag: 'env=prod' } }, now)).toBe(
      '/analysis?period=last-90-days&tag=env%3Dprod',
    );
  });
});
