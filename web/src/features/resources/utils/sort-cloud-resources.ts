import type { CloudResource } from '@cloudtrim/contracts/resources';
import { runToEnd } from '../../../lib/work-in-slices';

// SPEC §2's order of the Cloud Resources list, worked out as the list arrives (api/get-cloud-resources.ts).

// Built on first use: building the first collator of a page loads the language's collation data,
// 20 ms and more, which as a module-level constant would be spent whenever the screen's code loads.
let collator: Intl.Collator | undefined;

function getCollator(): Intl.Collator {
  collator ??= new Intl.Collator('en', { sensitivity: 'base', numeric: true });
  return collator;
}

/** Builds the collator ahead of its first comparison, in a task of its own while a list loads. */
export function prepareResourceCollator(): void {
  getCollator();
}

// A missing tenant or group sorts after the named ones, so 'Unknown Tenant' and 'Default Group' close
// the list. Neighbours mostly share tenant and group, and equal text needs no collator, which costs
// a microsecond or more a call.
export function compareOptionalText(left: string | null, right: string | null): number {
  if (left === right) return 0;
  if (!left || !right) return Number(!left) - Number(!right);
  return getCollator().compare(left, right);
}

function compareText(left: string, right: string): number {
  return left === right ? 0 : getCollator().compare(left, right);
}

/** What the list is sorted by: all a row needs checked before the first page can be chosen. */
export type SortableCloudResource = Pick<
  CloudResource,
  'ResourceId' | 'TenantId' | 'TenantName' | 'ResourceGroup'
>;

// A resource with its name (the id's last segment) worked out once, not on every comparison.
interface SortEntry<Resource extends SortableCloudResource> {
  resource: Resource;
  name: string;
  isPlainName: boolean;
}

// Names of lower-case letters, digits and hyphens (as Azure's generated ones are) compare by code unit
// exactly as the collator would, up to the first difference, unless a digit run is there (the
// collator's numeric order): the collator is only asked then, so checking 10,000 rows costs a few ms.
const plainName = /^[a-z0-9-]*$/;

function isDigitAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 48 && code <= 57;
}

/** The collator's order of two names, read by code unit where that is the same answer. */
export function compareNames(left: string, right: string, isPlain: boolean): number {
  if (left === right) return 0;
  if (isPlain) {
    let index = 0;
    while (left[index] === right[index]) index += 1;
    const isNumericAtDifference =
      isDigitAt(left, index) || isDigitAt(right, index) || (index > 0 && isDigitAt(left, index - 1));
    if (!isNumericAtDifference) return left < right ? -1 : 1;
  }
  return getCollator().compare(left, right);
}

function compareGroups(left: SortableCloudResource, right: SortableCloudResource): number {
  return (
    compareOptionalText(left.TenantName, right.TenantName) ||
    compareOptionalText(left.TenantId, right.TenantId) ||
    compareOptionalText(left.ResourceGroup, right.ResourceGroup)
  );
}

function compareWithinGroup(
  left: SortEntry<SortableCloudResource>,
  right: SortEntry<SortableCloudResource>,
): number {
  return (
    compareNames(left.name, right.name, left.isPlainName && right.isPlainName) ||
    compareText(left.resource.ResourceId, right.resource.ResourceId)
  );
}

function compareEntries(
  left: SortEntry<SortableCloudResource>,
  right: SortEntry<SortableCloudResource>,
): number {
  return compareGroups(left.resource, right.resource) || compareWithinGroup(left, right);
}

// The id's last segment, as the contract's getLastPathSegment reads it (the last non-empty one),
// without splitting every id into an array.
function readName(resourceId: string): string {
  if (!resourceId.endsWith('/')) return resourceId.slice(resourceId.lastIndexOf('/') + 1);
  const trimmed = resourceId.replace(/\/+$/, '');
  return trimmed ? trimmed.slice(trimmed.lastIndexOf('/') + 1) : resourceId;
}

function getGroupKey(resource: SortableCloudResource): string {
  return JSON.stringify([resource.TenantName, resource.TenantId, resource.ResourceGroup]);
}

// Rows handled between two chances to yield: a few hundred microseconds of work even while cold.
const rowsPerStep = 100;

/**
 * SPEC §2: by tenant, then resource group; by name within a group so the order never shifts. The
 * server answers in nearly this order (its collation and tie-break may differ), so one pass often
 * confirms it. Otherwise the groups (a few hundred) are sorted, then each group's resources by name:
 * far fewer collator calls than one sort of 10,000 rows, which cost more than painting the first page.
 * The work yields every hundred rows, so runInSlices can spread 10,000 rows over several tasks.
 */
export function* sortCloudResourcesInSteps<Resource extends SortableCloudResource>(
  resources: readonly Resource[],
): Generator<void, readonly Resource[]> {
  const entries: SortEntry<Resource>[] = [];
  for (const resource of resources) {
    const name = readName(resource.ResourceId);
    entries.push({ resource, name, isPlainName: plainName.test(name) });
    if (entries.length % rowsPerStep === 0) yield;
  }
  let isSorted = true;
  for (let index = 1; index < entries.length && isSorted; index += 1) {
    isSorted = compareEntries(entries[index - 1]!, entries[index]!) <= 0;
    if (index % rowsPerStep === 0) yield;
  }
  if (isSorted) return resources;

  const groups = new Map<string, SortEntry<Resource>[]>();
  for (const [index, entry] of entries.entries()) {
    const key = getGroupKey(entry.resource);
    const group = groups.get(key);
    if (group) group.push(entry);
    else groups.set(key, [entry]);
    if (index % rowsPerStep === 0) yield;
  }
  const orderedGroups = [...groups.values()].sort((left, right) =>
    compareGroups(left[0]!.resource, right[0]!.resource),
  );
  yield;

  const sorted: Resource[] = [];
  let run: SortEntry<Resource>[] = [];
  const flushRun = () => {
    for (const entry of run.sort(compareWithinGroup)) sorted.push(entry.resource);
    run = [];
  };
  for (const group of orderedGroups) {
    // Groups the collator deems one (a name cased two ways) are sorted together.
    if (run.length > 0 && compareGroups(run[0]!.resource, group[0]!.resource) !== 0) {
      flushRun();
      yield;
    }
    run.push(...group);
  }
  flushRun();
  return sorted;
}

/** The list in SPEC §2's order, worked out at once (sortCloudResourcesInSteps to spread it out). */
export function sortCloudResources<Resource extends SortableCloudResource>(
  resources: readonly Resource[],
): readonly Resource[] {
  return runToEnd(sortCloudResourcesInSteps(resources));
}
