import {
  costFilterSchema,
  costTypes,
  type CostFilter,
  type CostGroupBy,
  type CostType,
} from '@cloudtrim/contracts/costs';
import { costGroupings, type CostGrouping } from './cost-groups';
import { costPeriods, defaultCostPeriod, type CostPeriod } from './cost-periods';

// What /analysis shows lives in its URL (period, grouping, cost type, filters), so a view can be
// reloaded, shared and gone back to. A value the URL holds that is not valid falls back to the default.

export interface CostSettings {
  period: CostPeriod;
  grouping: CostGrouping;
  /** The tag key grouped by when the grouping is Tag. */
  tagKey: string;
  costType: CostType;
  filter: CostFilter;
}

export const costFilterNames = ['tenantId', 'subscriptionId', 'resourceGroup', 'service', 'tag'] as const;
export type CostFilterName = (typeof costFilterNames)[number];

const defaults = { period: defaultCostPeriod, grouping: 'service', costType: 'actual' } as const;
const tagKeyPattern = /^[^\s:]{1,128}$/;

function readChoice<Choice extends string>(
  value: string | null,
  choices: readonly Choice[],
  fallback: Choice,
): Choice {
  return choices.find((choice) => choice === value) ?? fallback;
}

export function readCostFilter(values: Partial<Record<CostFilterName, string | null>>): CostFilter {
  const filter: CostFilter = {};
  for (const name of costFilterNames) {
    const value = values[name]?.trim();
    if (!value) continue;
    const parsed = costFilterSchema.shape[name].safeParse(value);
    if (parsed.success && parsed.data !== undefined) filter[name] = parsed.data;
  }
  return filter;
}

export function readCostSettings(params: URLSearchParams): CostSettings {
  return {
    period: readChoice(params.get('period'), costPeriods, defaults.period),
    grouping: readChoice(params.get('groupBy'), costGroupings, defaults.grouping),
    tagKey: params.get('tagKey')?.trim() ?? '',
    costType: readChoice(params.get('costType'), costTypes, defaults.costType),
    filter: readCostFilter(Object.fromEntries(costFilterNames.map((name) => [name, params.get(name)]))),
  };
}

/** The URL's query for `settings`: defaults left out, so the plain /analysis is the default view. */
export function writeCostSettings(settings: CostSettings): URLSearchParams {
  const params = new URLSearchParams();
  if (settings.period !== defaults.period) params.set('period', settings.period);
  if (settings.grouping !== defaults.grouping) params.set('groupBy', settings.grouping);
  if (settings.grouping === 'tag' && settings.tagKey) params.set('tagKey', settings.tagKey);
  if (settings.costType !== defaults.costType) params.set('costType', settings.costType);
  for (const name of costFilterNames) {
    const value = settings.filter[name];
    if (value) params.set(name, value);
  }
  return params;
}

export function isValidTagKey(tagKey: string): boolean {
  return tagKeyPattern.test(tagKey);
}

/** The call's groupBy; none while Tag waits for a key. */
export function getCostGroupBy(settings: Pick<CostSettings, 'grouping' | 'tagKey'>): CostGroupBy | null {
  if (settings.grouping !== 'tag') return settings.grouping;
  return isValidTagKey(settings.tagKey) ? `tag:${settings.tagKey}` : null;
}
