import { describe, expect, it } from 'vitest';
import { readGuid, readTagQuery, toSuggestions } from './scope-suggestions';

const subscriptionId = '11111111-2222-3333-4444-555555555555';

describe('the scope pickers', () => {
  it('ask for tag keys until a "=" is typed, then that key’s values, narrowed by a whole subscription id', () => {
    expect(readTagQuery('env', '', '1111')).toEqual({
      kind: 'tagKeys',
      search: 'env',
      tenantId: undefined,
      subscriptionId: undefined,
    });
    expect(readTagQuery('environment=pr', 't1', subscriptionId)).toEqual({
      kind: 'tagValues',
      tagKey: 'environment',
      search: 'pr',
      tenantId: 't1',
      subscriptionId,
    });
  });

  it('offer a key as key=, a value as key=value, and a subscription by display name', () => {
    expect(toSuggestions({ kind: 'tagKeys' }, [{ Value: 'team', Label: 'team' }])).toEqual([
      { value: 'team=', label: 'team' },
    ]);
    expect(toSuggestions({ kind: 'tagValues', tagKey: 'team' }, [{ Value: 'data', Label: 'data' }])).toEqual([
      { value: 'team=data', label: 'data' },
    ]);
    expect(
      toSuggestions({ kind: 'subscriptions' }, [{ Value: subscriptionId, Label: 'Production' }]),
    ).toEqual([{ value: subscriptionId, label: `Production (${subscriptionId})` }]);
    expect(readGuid(` ${subscriptionId.toUpperCase()} `)).toBe(subscriptionId);
  });
});
