import type { CostGroupBy } from '@cloudtrim/contracts/costs';
import { notAvailableText } from '@cloudtrim/contracts/messages';
import { getLastPathSegment } from '@cloudtrim/contracts/resources';

// What the user groups the bill by on /analysis; a resource grouping is the top 10's alone.
export const costGroupings = ['service', 'resourceGroup', 'subscription', 'tag'] as const;
export type CostGrouping = (typeof costGroupings)[number];

export const costGroupingLabels: Record<CostGrouping, string> = {
  service: 'Service',
  resourceGroup: 'Resource group',
  subscription: 'Subscription',
  tag: 'Tag',
};

export const untaggedText = '(untagged)';

function isTagGrouping(groupBy: CostGroupBy): groupBy is `tag:${string}` {
  return groupBy.startsWith('tag:');
}

/** The grouping as a sentence names it: 'resource group', 'tag costcenter'. */
export function getGroupingName(groupBy: CostGroupBy): string {
  if (isTagGrouping(groupBy)) return `tag ${groupBy.slice('tag:'.length)}`;
  const names = {
    service: 'service',
    resourceGroup: 'resource group',
    subscription: 'subscription',
    resource: 'resource',
  } as const;
  return names[groupBy];
}

/** The table's first column, in SPEC's upper-case headings: SERVICE, RESOURCE GROUP, TAG COSTCENTER. */
export function getGroupHeading(groupBy: CostGroupBy): string {
  return getGroupingName(groupBy).toUpperCase();
}

/** A group as the user reads it: a resource by its name (the ARM id's last segment), untagged said so. */
export function describeCostGroup(groupBy: CostGroupBy, group: string): string {
  if (isTagGrouping(groupBy)) return group === '' ? untaggedText : group;
  if (group === '') return notAvailableText;
  return groupBy === 'resource' ? getLastPathSegment(group) : group;
}
