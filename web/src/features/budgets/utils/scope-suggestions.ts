import type { ScopeItem, ScopeQuery } from '@cloudtrim/contracts/scope';
import type { Suggestion } from '../../../components/suggest-field';

// What the tag field (NAME=VALUE) asks the estate for as it is typed: the tag keys until a '=' is
// typed, then that key's values.
export function readTagQuery(text: string, tenantId: string, subscriptionId: string): ScopeQuery {
  const narrow = { tenantId: tenantId || undefined, subscriptionId: readGuid(subscriptionId) };
  const equals = text.indexOf('=');
  if (equals < 0) return { kind: 'tagKeys', search: text.trim() || undefined, ...narrow };
  return {
    kind: 'tagValues',
    tagKey: text.slice(0, equals).trim() || ' ',
    search: text.slice(equals + 1).trim() || undefined,
    ...narrow,
  };
}

// The scope's items as the field's suggestions: a tag key as `key=`, a value as `key=value`.
export function toSuggestions(query: ScopeQuery, items: readonly ScopeItem[]): Suggestion[] {
  if (query.kind === 'tagKeys') return items.map((item) => ({ value: `${item.Value}=`, label: item.Label }));
  if (query.kind === 'tagValues')
    return items.map((item) => ({ value: `${query.tagKey}=${item.Value}`, label: item.Label }));
  if (query.kind === 'subscriptions')
    return items.map((item) => ({ value: item.Value, label: `${item.Label} (${item.Value})` }));
  return items.map((item) => ({ value: item.Value, label: item.Label }));
}

// A subscription narrows the lists only once it is a whole id (a typed prefix narrows nothing).
export function readGuid(text: string): string | undefined {
  const trimmed = text.trim().toLowerCase();
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(trimmed) ? trimmed : undefined;
}
