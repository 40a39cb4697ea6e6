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
 * Puts one group's rows in order by name, in place. By insertion: a row the answer has a few places
 * late (a VM's OS disk) moves back in about one comparison a place; a group far from order (more
 * moves than a few a row) goes to the engine's sort instead.
 */
function orderGroup<Resource extends SortableCloudResource>(
  rows: Resource[],
  start: number,
  end: number,
): void {
  const group: SortEntry<Resource>[] = [];
  for (let index = start; index < end; index += 1) {
    const resource = rows[index]!;
    const name = readName(resource.ResourceId);
    group.push({ resource, name, isRankedName: isRankedName(name) });
  }
  let moves = 0;
  for (let index = 1; index < group.length; index += 1) {
    const entry = group[index]!;
    let place = index;
    while (place > 0 && compareWithinGroup(group[place - 1]!, entry) > 0) {
      group[place] = group[place - 1]!;
      place -= 1;
    }
    group[place] = entry;
    moves += index - place;
    if (moves > maxMovesPerRow * group.length) {
      group.sort(compareWithinGroup);
      break;
    }
  }
  group.forEach((entry, offset) => (rows[start + offset] = entry.resource));
}

/**
 * The Cloud Resources list in SPEC §2's order, as the table reads it: its length, and a page's rows
 * by `slice` (as an array's). The groups are in order from the start; the rows within a group are
 * put in order the first time a slice reaches them, so the first page paints after ordering only
 * its own groups, not 30,000 rows.
 */
export interface OrderedCloudResources<Resource> {
  readonly length: number;
  slice(start?: number, end?: number): readonly Resource[];
  /** The list with each row changed by `change`, which keeps its sort fields (a row's saved settings). */
  map(change: (resource: Resource) => Resource): OrderedCloudResources<Resource>;
}

function createOrderedList<Resource extends SortableCloudResource>(
  rows: Resource[],
  groupStarts: readonly number[],
  isGroupOrdered: Uint8Array,
): OrderedCloudResources<Resource> {
  // The group holding the row at `index`: the last whose start is at or before it.
  const findGroup = (index: number) => {
    let low = 0;
    let high = groupStarts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (groupStarts[middle]! <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  };
  return {
    length: rows.length,
    slice(start = 0, end = rows.length) {
      const from = Math.max(0, start < 0 ? rows.length + start : start);
      const to = Math.min(rows.length, end < 0 ? rows.length + end : end);
      if (from < to) {
        for (
          let group = findGroup(from);
          group < groupStarts.length && groupStarts[group]! < to;
          group += 1
        ) {
          if (isGroupOrdered[group]) continue;
          orderGroup(rows, groupStarts[group]!, groupStarts[group + 1] ?? rows.length);
          isGroupOrdered[group] = 1;
        }
      }
      return rows.slice(from, to);
    },
    map: (change) => createOrderedList(rows.map(change), groupStarts, isGroupOrdered.slice()),
  };
}

/**
 * SPEC §2: by tenant, then resource group; by name within a group so the order never shifts. The
 * server answers each group's rows together and the groups in this order, the rows within a group
 * nearly so (its collation differs on punctuation): so the answer is read as runs of one group, and
 * if the runs are in group order, that is all that is done here; each group's rows are ordered when
 * a page first shows them. Otherwise (groups out of order, or one answered in pieces, its name cased
 * two ways) the runs are put in group order and every group ordered now. The work yields every
 * hundred rows, so runInSlices can spread it over several tasks.
 */
export function* orderCloudResourcesInSteps<Resource extends SortableCloudResource>(
  resources: readonly Resource[],
): Generator<void, OrderedCloudResources<Resource>> {
  const runStarts: number[] = [];
  for (let index = 0; index < resources.length; index += 1) {
    if (index === 0 || !isSameGroupAsAnswered(resources[index - 1]!, resources[index]!))
      runStarts.push(index);
    if (index % rowsPerStep === rowsPerStep - 1) yield;
  }
  let isInGroupOrder = true;
  for (let run = 1; run < runStarts.length && isInGroupOrder; run += 1) {
    isInGroupOrder = compareGroups(resources[runStarts[run - 1]!]!, resources[runStarts[run]!]!) < 0;
  }
  if (isInGroupOrder) {
    return createOrderedList(resources.slice(), runStarts, new Uint8Array(runStarts.length));
  }

  // The runs in group order (the engine's sort keeps equal ones in the answer's order), those the
  // collator deems one group put together, each group ordered.
  const runs = runStarts.map((start, run) => resources.slice(start, runStarts[run + 1] ?? resources.length));
  runs.sort((left, right) => compareGroups(left[0]!, right[0]!));
  yield;
  const rows: Resource[] = [];
  let groupStart = 0;
  let rowsSinceYield = 0;
  for (const [index, run] of runs.entries()) {
    rows.push(...run);
    const next = runs[index + 1];
    if (next && compareGroups(run[0]!, next[0]!) === 0) continue;
    orderGroup(rows, groupStart, rows.length);
    rowsSinceYield += rows.length - groupStart;
    groupStart = rows.length;
    if (rowsSinceYield >= rowsPerStep) {
      rowsSinceYield = 0;
      yield;
    }
  }
  return createOrderedList(rows, [0], new Uint8Array([1]));
}

/** The whole list in SPEC §2's order, worked out at once (orderCloudResourcesInSteps to spread it out). */
export function sortCloudResources<Resource extends SortableCloudResource>(
  resources: readonly Resource[],
): readonly Resource[] {
  return runToEnd(orderCloudResourcesInSteps(resources)).slice();
}
