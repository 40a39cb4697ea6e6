import { describe, expect, it } from 'vitest';
import { getCostGroupBy, readCostSettings, writeCostSettings, type CostSettings } from './cost-settings';

const tenantId = '4f1d7c1e-2b0a-4d5e-9c3f-6a7b8c9d0e1f';

describe('cost settings in the URL', () => {
  it('reads the plain page as this month by service, actual cost, unfiltered', () => {
    expect(readCostSettings(new URLSearchParams())).toEqual({
      period: 'this-month',
      grouping: 'service',
      tagKey: '',
      costType: 'actual',
      filter: {},
    });
  });

  it('writes only what differs from the defaults, and reads it back the same', () => {
    const settings: CostSettings = {
      period: 'last-90-days',
      grouping: 'tag',
      tagKey: 'costcenter',
      costType: 'amortized',
      filter: { tenantId, resourceGroup: 'rg-web', tag: 'team=payments' },
    };
    const params = writeCostSettings(settings);
    expect(params.toString()).toBe(
      `period=last-90-days&groupBy=tag&tagKey=costcenter&costType=amortized&tenantId=${tenantId}&resourceGroup=rg-web&tag=team%3Dpayments`,
    );
    expect(readCostSettings(params)).toEqual(settings);
    expect(writeCostSettings(readCostSettings(new URLSearchParams())).toString()).toBe('');
  });

  it('falls back to the default for a value it does not know, and drops a filter the contract refuses', () => {
    const settings = readCostSettings(
      new URLSearchParams(
        'period=forever&groupBy=colour&costType=free&tenantId=not-a-guid&tag=novalue&service=Storage',
      ),
    );
    expect(settings).toEqual({
      period: 'this-month',
      grouping: 'service',
      tagKey: '',
      costType: 'actual',
      filter: { service: 'Storage' },
    });
  });
});

describe('getCostGroupBy', () => {
  it('asks by the dimension, or by tag:KEY once a valid key is given', () => {
    expect(getCostGroupBy({ grouping: 'resourceGroup', tagKey: '' })).toBe('resourceGroup');
    expect(getCostGroupBy({ grouping: 'tag', tagKey: 'team' })).toBe('tag:team');
    expect(getCostGroupBy({ grouping: 'tag', tagKey: '' })).toBeNull();
    expect(getCostGroupBy({ grouping: 'tag', tagKey: 'cost center' })).toBeNull();
  });
});
