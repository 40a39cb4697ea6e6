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
  isRankedName: boolean;
}

// Azure's names are printable ASCII. The collator orders two such names by their characters' base
// weights, one character at a time, except that a digit run counts by its value (numeric). So each
// character's weight is read once from the collator itself (its order of the 95 printable
// characters, a letter's two cases alike) and names are compared by those weights, with no collator
// call (a microsecond or more each, and the list has 30,000 rows and more: VMs, their disks and
// IPs). Where the punctuation matters: the collator puts '_' before '-', the server's byte order
// after it, so a VM's disk '<vm>_OsDisk_1_…' comes before its data disks '<vm>-data-0' here and
// after them in the answer.
let characterRanks: Uint8Array | undefined;
const unranked = 0;

function getCharacterRanks(): Uint8Array {
  if (characterRanks) return characterRanks;
  const collator = getCollator();
  const characters = Array.from({ length: 95 }, (_, index) => String.fromCharCode(32 + index))
    // A character the collator ignores would not compare one at a time: it is left to the collator.
    .filter((character) => collator.compare(character, '') !== 0)
    .sort(collator.compare);
  const ranks = new Uint8Array(128);
  let rank = unranked;
  characters.forEach((character, index) => {
    if (index === 0 || collator.compare(characters[index - 1]!, character) !== 0) rank += 1;
    ranks[character.charCodeAt(0)] = rank;
  });
  characterRanks = ranks;
  return ranks;
}

/** Builds the collator and the characters' weights read from it, in a task of their own while a list loads. */
export function prepareResourceCollator(): void {
  getCharacterRanks();
}

/** Whether the name is printable ASCII, which compareNames orders without the collator. */
export function isRankedName(name: string): boolean {
  const ranks = getCharacterRanks();
  for (let index = 0; index < name.length; index += 1) {
    const code = name.charCodeAt(index);
    if (code >= ranks.length || ranks[code] === unranked) return false;
  }
  return true;
}

function isDigitAt(text: string, index: number): boolean {
  const code = text.charCodeAt(index);
  return code >= 48 && code <= 57;
}

function readDigitRun(text: string, start: number): string {
  let end = start;
  while (isDigitAt(text, end)) end += 1;
  return text.slice(start, end);
}

/** Two digit runs by value; 0 when only their leading zeros differ. */
function compareNumbers(left: string, right: string): number {
  const leftValue = left.replace(/^0+/, '');
  const rightValue = right.replace(/^0+/, '');
  if (leftValue.length !== rightValue.length) return leftValue.length - rightValue.length;
  if (leftValue === rightValue) return 0;
  return leftValue < rightValue ? -1 : 1;
}

/**
 * The collator's order of two names, read from the characters' weights where both are printable
 * ASCII (`isRanked`: isRankedName of each); digit runs by value, the collator asked only where two
 * runs differ in their leading zeros alone.
 */
export function compareNames(left: string, right: string, isRanked: boolean): number {
  if (left === right) return 0;
  if (!isRanked) return getCollator().compare(left, right);
  const ranks = getCharacterRanks();
  const length = Math.min(left.length, right.length);
  let index = 0;
  while (index < length && ranks[left.charCodeAt(index)] === ranks[right.charCodeAt(index)]) index += 1;
  if ((index > 0 && isDigitAt(left, index - 1)) || (isDigitAt(left, index) && isDigitAt(right, index))) {
    let runStart = index;
    while (runStart > 0 && isDigitAt(left, runStart - 1)) runStart -= 1;
    const leftRun = readDigitRun(left, runStart);
    const rightRun = readDigitRun(right, runStart);
    // The same run in both ('vm-013' and 'vm-013-data-0'): the difference is just after it.
    if (leftRun !== rightRun) return compareNumbers(leftRun, rightRun) || getCollator().compare(left, right);
  }
  if (index === length) return left.length - right.length;
  return ranks[left.charCodeAt(index)]! - ranks[right.charCodeAt(index)]!;
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
    compareNames(left.name, right.name, left.isRankedName && right.isRankedName) ||
    compareText(left.resource.ResourceId, right.resource.ResourceId)
  );
}

// The id's last segment, as the contract's getLastPathSegment reads it (the last non-empty one),
// without splitting every id into an array.
function readName(resourceId: string): string {
  if (!resourceId.endsWith('/')) return resourceId.slice(resourceId.lastIndexOf('/') + 1);
  const trimmed = resourceId.replace(/\/+$/, '');
  return trimmed ? trimmed.slice(trimmed.lastIndexOf('/') + 1) : resourceId;
}

function isSameGroupAsAnswered(left: SortableCloudResource, right: SortableCloudResource): boolean {
  return (
    left.TenantName === right.TenantName &&
    left.TenantId === right.TenantId &&
    left.ResourceGroup === right.ResourceGroup
  );
}

// Rows handled between two chances to yield: a few hundred microseconds of work even while cold.
const rowsPerStep = 100;
const maxMovesPerRow = 4;

/**
 * SPEC §2: by tenant, then resource group; by name within a group so the order never shifts. The
 * server answers each group's rows together and the groups in this order, the rows within a group
 * nearly so (its collation differs on punctuation): so the answer is read as runs of one group, each
 * run checked and, where it is out of order, sorted alone (the engine's sort merges the stretches
 * already in order, so a nearly sorted run costs about one comparison a row), and the runs are
 * sorted only if the groups are not in order. The work yields every hundred rows, so runInSlices
 * can spread 30,000 rows over several tasks.
 */
export function* sortCloudResourcesInSteps<Resource extends SortableCloudResource>(
  resources: readonly Resource[],
): Generator<void, readonly Resource[]> {
  const runs: SortEntry<Resource>[][] = [];
  let run: SortEntry<Resource>[] = [];
  for (let index = 0; index < resources.length; index += 1) {
    const resource = resources[index]!;
    if (run.length > 0 && !isSameGroupAsAnswered(run[0]!.resource, resource)) {
      runs.push(run);
      run = [];
    }
    const name = readName(resource.ResourceId);
    run.push({ resource, name, isRankedName: isRankedName(name) });
    if (index % rowsPerStep === rowsPerStep - 1) yield;
  }
  if (run.length > 0) runs.push(run);

  let isSorted = true;
  for (let index = 1; index < runs.length && isSorted; index += 1) {
    isSorted = compareGroups(runs[index - 1]![0]!.resource, runs[index]![0]!.resource) < 0;
  }
  // Out of order, or one group answered in pieces (its name cased two ways): the runs in group
  // order, those the collator deems one group put together. The engine's sort keeps equal runs in
  // the answer's order.
  const groups: SortEntry<Resource>[][] = [];
  if (isSorted) groups.push(...runs);
  else {
    runs.sort((left, right) => compareGroups(left[0]!.resource, right[0]!.resource));
    yield;
    for (const next of runs) {
      const previous = groups.at(-1);
      if (previous && compareGroups(previous[0]!.resource, next[0]!.resource) === 0) previous.push(...next);
      else groups.push(next);
    }
  }

  // Each group put in order by insertion: a row the answer has a few places late (a VM's OS disk)
  // is moved back in about one comparison a place. A group far from order (more moves than a few a
  // row) goes to the engine's sort instead.
  let rowsSinceYield = 0;
  for (const group of groups) {
    let moves = 0;
    for (let index = 1; index < group.length; index += 1) {
      const entry = group[index]!;
      let place = index;
      while (place > 0 && compareWithinGroup(group[place - 1]!, entry) > 0) {
        group[place] = group[place - 1]!;
        place -= 1;
      }
      if (place === index) continue;
      group[place] = entry;
      isSorted = false;
      moves += index - place;
      if (moves > maxMovesPerRow * group.length) {
        group.sort(compareWithinGroup);
        break;
      }
    }
    rowsSinceYield += group.length;
    if (rowsSinceYield >= rowsPerStep) {
      rowsSinceYield = 0;
      yield;
    }
  }
  if (isSorted) return resources;
  const sorted: Resource[] = [];
  for (const group of groups) for (const entry of group) sorted.push(entry.resource);
  return sorted;
}

/** The list in SPEC §2's order, worked out at once (sortCloudResourcesInSteps to spread it out). */
export function sortCloudResources<Resource extends SortableCloudResource>(
  resources: readonly Resource[],
): readonly Resource[] {
  return runToEnd(sortCloudResourcesInSteps(resources));
}
