import type { ScopeItem } from '@cloudtrim/contracts/scope';
import type { Suggestion } from '../../../components/suggest-field';

// A comma-separated field: the item being typed (after the last comma) is what is searched, and each
// suggestion completes it after the items already there.
export function readLastItem(text: string): string {
  return text.slice(text.lastIndexOf(',') + 1).trim();
}

export function completeLastItem(text: string, items: readonly ScopeItem[]): Suggestion[] {
  const comma = text.lastIndexOf(',');
  const before = comma < 0 ? '' : `${text.slice(0, comma + 1).trimEnd()} `;
  const taken = new Set(
    text
      .slice(0, Math.max(0, comma))
      .split(',')
      .map((part) => part.trim().toLowerCase()),
  );
  return items
    .filter((item) => !taken.has(item.Value.toLowerCase()))
    .map((item) => ({
      value: `${before}${item.Value}`,
      label: item.Label === item.Value ? item.Label : `${item.Label} (${item.Value})`,
    }));
}
