import {
  costLines,
  microUnits,
  readMonthIndex,
  type BilledItem,
  type CostLedger,
  type CostType,
} from './cost.ledger';
import { dayMs } from '../time';

// Cost Management's query (api-version 2023-11-01): the request as Azure reads it, checked with its
// error messages, then summed over the ledger's lines into Azure's columns and rows.

export const maximumDailyDays = 31;
export const maximumRangeDays = 366;
export const maximumGroupings = 2;

export const queryDimensions = [
  'ResourceId',
  'ResourceGroupName',
  'ServiceName',
  'MeterCategory',
  'ResourceLocation',
  'ChargeType',
  'PricingModel',
] as const;
export type QueryDimension = (typeof queryDimensions)[number];

const aggregationColumns = ['Cost', 'PreTaxCost', 'CostUSD', 'PreTaxCostUSD', 'UsageQuantity'] as const;

export type Granularity = 'None' | 'Daily' | 'Monthly';

export interface QueryFilter {
  readonly and?: readonly QueryFilter[];
  readonly or?: readonly QueryFilter[];
  readonly not?: QueryFilter;
  readonly dimensions?: QueryComparison;
  readonly tags?: QueryComparison;
}

interface QueryComparison {
  readonly name: string;
  readonly operator: string;
  readonly values: readonly string[];
}

export interface QueryDefinition {
  readonly costType: CostType;
  readonly fromDay: number;
  readonly toDay: number;
  readonly granularity: Granularity;
  readonly aggregations: readonly { readonly column: string; readonly isQuantity: boolean }[];
  readonly groupings: readonly (
    | { readonly type: 'Dimension'; readonly name: QueryDimension }
    | { readonly type: 'TagKey'; readonly name: string }
  )[];
  readonly matches: (item: BilledItem, line: number) => boolean;
}

export class QueryDefinitionError extends Error {
  constructor(message: string) {
    super(`Invalid query definition: ${message}`);
    this.name = 'QueryDefinitionError';
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readProperty(record: Record<string, unknown>, name: string): unknown {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(record)) {
    if (key.toLowerCase() === wanted) return value;
  }
  return undefined;
}

function pickName<Name extends string>(value: unknown, names: readonly Name[], field: string): Name {
  const text = typeof value === 'string' ? value.toLowerCase() : undefined;
  const found = names.find((name) => name.toLowerCase() === text);
  if (!found) {
    throw new QueryDefinitionError(
      `'${String(value)}' is not a valid value for '${field}'; expected one of ${names.join(', ')}.`,
    );
  }
  return found;
}

function parseDay(value: unknown, field: string): number {
  const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (!Number.isFinite(time)) throw new QueryDefinitionError(`'${field}' must be a date and time.`);
  return Math.floor(time / dayMs);
}

function readDimension(item: BilledItem, line: number, name: QueryDimension): string {
  switch (name) {
    case 'ResourceId':
      return item.readResourceId();
    case 'ResourceGroupName':
      return item.resourceGroupName;
    case 'ServiceName':
      return item.serviceName;
    case 'MeterCategory':
      return item.meterCategory;
    case 'ResourceLocation':
      return item.location;
    case 'ChargeType':
      return costLines[line]?.chargeType ?? '';
    case 'PricingModel':
      return costLines[line]?.pricingModel ?? '';
  }
}

function compileComparison(
  value: unknown,
  field: string,
  readValue: (name: string) => (item: BilledItem, line: number) => string | undefined,
): (item: BilledItem, line: number) => boolean {
  if (!isRecord(value)) throw new QueryDefinitionError(`'${field}' must be an object.`);
  const name = readProperty(value, 'name');
  const operator = readProperty(value, 'operator');
  const values = readProperty(value, 'values');
  if (typeof name !== 'string' || name.length === 0) {
    throw new QueryDefinitionError(`'${field}.name' is required.`);
  }
  const isContains = pickName(operator, ['In', 'Contains'], `${field}.operator`) === 'Contains';
  if (!Array.isArray(values) || values.length === 0 || values.some((entry) => typeof entry !== 'string')) {
    throw new QueryDefinitionError(`'${field}.values' must be a non-empty list of strings.`);
  }
  const wanted = (values as string[]).map((entry) => entry.toLowerCase());
  const read = readValue(name);
  return (item, line) => {
    const actual = read(item, line)?.toLowerCase();
    if (actual === undefined) return false;
    return isContains ? wanted.some((entry) => actual.includes(entry)) : wanted.includes(actual);
  };
}

function compileFilter(value: unknown, field: string): (item: BilledItem, line: number) => boolean {
  if (!isRecord(value)) throw new QueryDefinitionError(`'${field}' must be an object.`);
  const parts: ((item: BilledItem, line: number) => boolean)[] = [];
  const and = readProperty(value, 'and');
  const or = readProperty(value, 'or');
  const not = readProperty(value, 'not');
  const dimensions = readProperty(value, 'dimensions');
  const tags = readProperty(value, 'tags');
  const present = [and, or, not, dimensions, tags].filter((entry) => entry !== undefined && entry !== null);
  if (present.length !== 1) {
    throw new QueryDefinitionError(`'${field}' must hold exactly one of and, or, not, dimensions, tags.`);
  }
  for (const [list, name] of [
    [and, 'and'],
    [or, 'or'],
  ] as const) {
    if (list === undefined || list === null) continue;
    if (!Array.isArray(list) || list.length < 2) {
      throw new QueryDefinitionError(`'${field}.${name}' must list at least two filters.`);
    }
    const compiled = list.map((entry, index) => compileFilter(entry, `${field}.${name}[${index}]`));
    parts.push(
      name === 'and'
        ? (item, line) => compiled.every((check) => check(item, line))
        : (item, line) => compiled.some((check) => check(item, line)),
    );
  }
  if (not !== undefined && not !== null) {
    const inner = compileFilter(not, `${field}.not`);
    parts.push((item, line) => !inner(item, line));
  }
  if (dimensions !== undefined && dimensions !== null) {
    parts.push(
      compileComparison(dimensions, `${field}.dimensions`, (name) => {
        const dimension = pickName(name, queryDimensions, `${field}.dimensions.name`);
        return (item, line) => readDimension(item, line, dimension);
      }),
    );
  }
  if (tags !== undefined && tags !== null) {
    parts.push(
      compileComparison(tags, `${field}.tags`, (name) => {
        const wanted = name.toLowerCase();
        return (item) => {
          for (const [key, tagValue] of Object.entries(item.readTags())) {
            if (key.toLowerCase() === wanted) return tagValue;
          }
          return undefined;
        };
      }),
    );
  }
  const [only] = parts;
  if (!only) throw new QueryDefinitionError(`'${field}' is empty.`);
  return only;
}

/** Reads a query body as Cost Management does; throws QueryDefinitionError with Azure's wording. */
export function parseQueryDefinition(body: unknown, now: Date, firstDay: number): QueryDefinition {
  if (!isRecord(body)) throw new QueryDefinitionError('the request body must be a JSON object.');
  const costType = pickName(readProperty(body, 'type'), ['ActualCost', 'AmortizedCost', 'Usage'], 'type');
  const timeframe = pickName(
    readProperty(body, 'timeframe'),
    ['MonthToDate', 'TheLastMonth', 'Custom'],
    'timeframe',
  );
  const dataset = readProperty(body, 'dataset');
  if (!isRecord(dataset)) throw new QueryDefinitionError("'dataset' is required.");
  const granularityValue = readProperty(dataset, 'granularity');
  const granularity =
    granularityValue === undefined || granularityValue === null
      ? 'None'
      : pickName(granularityValue, ['None', 'Daily', 'Monthly'], 'dataset.granularity');
  const today = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
  let fromDay: number;
  let toDay: number;
  if (timeframe === 'MonthToDate') {
    fromDay = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1) / dayMs;
    toDay = today.getTime() / dayMs;
  } else if (timeframe === 'TheLastMonth') {
    fromDay = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1) / dayMs;
    toDay = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1) / dayMs - 1;
  } else {
    const period = readProperty(body, 'timePeriod');
    if (!isRecord(period))
      throw new QueryDefinitionError("'timePeriod' is required when timeframe is Custom.");
    fromDay = parseDay(readProperty(period, 'from'), 'timePeriod.from');
    toDay = parseDay(readProperty(period, 'to'), 'timePeriod.to');
    if (toDay < fromDay)
      throw new QueryDefinitionError("'timePeriod.to' must not be before 'timePeriod.from'.");
    if (toDay - fromDay + 1 > maximumRangeDays) {
      throw new QueryDefinitionError('The time period for pulling the data cannot exceed 1 year(s).');
    }
    if (granularity === 'Daily' && toDay - fromDay + 1 > maximumDailyDays) {
      throw new QueryDefinitionError(
        `The time period for daily granularity cannot exceed ${maximumDailyDays} days; use Monthly or None, or a shorter period.`,
      );
    }
  }
  const aggregationValue = readProperty(dataset, 'aggregation');
  if (!isRecord(aggregationValue) || Object.keys(aggregationValue).length === 0) {
    throw new QueryDefinitionError("'dataset.aggregation' must name at least one aggregation.");
  }
  const aggregations = Object.entries(aggregationValue).map(([alias, definition]) => {
    if (!isRecord(definition))
      throw new QueryDefinitionError(`'dataset.aggregation.${alias}' must be an object.`);
    const column = pickName(
      readProperty(definition, 'name'),
      aggregationColumns,
      `dataset.aggregation.${alias}.name`,
    );
    pickName(readProperty(definition, 'function'), ['Sum'], `dataset.aggregation.${alias}.function`);
    return { column, isQuantity: column === 'UsageQuantity' };
  });
  const groupingValue = readProperty(dataset, 'grouping') ?? [];
  if (!Array.isArray(groupingValue)) throw new QueryDefinitionError("'dataset.grouping' must be a list.");
  if (groupingValue.length > maximumGroupings) {
    throw new QueryDefinitionError(`'dataset.grouping' allows at most ${maximumGroupings} groupings.`);
  }
  const groupings = groupingValue.map((entry: unknown, index) => {
    const field = `dataset.grouping[${index}]`;
    if (!isRecord(entry)) throw new QueryDefinitionError(`'${field}' must be an object.`);
    const type = pickName(readProperty(entry, 'type'), ['Dimension', 'TagKey'], `${field}.type`);
    const name = readProperty(entry, 'name');
    if (type === 'Dimension') {
      return { type, name: pickName(name, queryDimensions, `${field}.name`) } as const;
    }
    if (typeof name !== 'string' || name.length === 0)
      throw new QueryDefinitionError(`'${field}.name' is required.`);
    return { type, name } as const;
  });
  if (groupings.filter((grouping) => grouping.type === 'TagKey').length > 1) {
    throw new QueryDefinitionError("'dataset.grouping' allows one TagKey grouping.");
  }
  const filterValue = readProperty(dataset, 'filter');
  const matches =
    filterValue === undefined || filterValue === null
      ? () => true
      : compileFilter(filterValue, 'dataset.filter');
  return {
    costType: costType === 'Usage' ? 'ActualCost' : costType,
    fromDay: Math.max(fromDay, firstDay),
    toDay,
    granularity,
    aggregations,
    groupings,
    matches,
  };
}

export interface QueryColumn {
  readonly name: string;
  readonly type: 'Number' | 'String' | 'Datetime';
}

export interface QueryResult {
  readonly columns: readonly QueryColumn[];
  readonly rows: readonly (readonly (string | number)[])[];
}

function formatDayNumber(day: number): number {
  const date = new Date(day * dayMs);
  return date.getUTCFullYear() * 10000 + (date.getUTCMonth() + 1) * 100 + date.getUTCDate();
}

function formatMonth(monthIndex: number): string {
  const year = Math.floor(monthIndex / 12);
  const month = String((monthIndex % 12) + 1).padStart(2, '0');
  return `${year}-${month}-01T00:00:00`;
}

interface Accumulated {
  readonly bucket: number;
  readonly values: readonly string[];
  costMicro: number;
  quantityMicro: number;
}

/** Runs a parsed query over billed items: the columns and every row, sorted by date then groups. */
export function runQuery(
  ledger: CostLedger,
  items: readonly BilledItem[],
  query: QueryDefinition,
): QueryResult {
  const horizon = ledger.readHorizon();
  const { fromDay, toDay, granularity } = query;
  const firstMonth = readMonthIndex(fromDay);
  const bucketCount = Math.max(
    1,
    granularity === 'Daily'
      ? toDay - fromDay + 1
      : granularity === 'Monthly'
        ? readMonthIndex(toDay) - firstMonth + 1
        : 1,
  );
  const lineCount = costLines.length;
  const costs = new Float64Array(lineCount * bucketCount);
  const quantities = new Float64Array(lineCount * bucketCount);
  const touched = new Uint8Array(lineCount * bucketCount);
  const accumulated = new Map<string, Accumulated>();
  const lineStates: (boolean | undefined)[] = [];
  const addRun = (line: number, bucket: number, costMicro: number, quantityMicro: number) => {
    const cell = line * bucketCount + bucket;
    costs[cell] = (costs[cell] ?? 0) + costMicro;
    quantities[cell] = (quantities[cell] ?? 0) + quantityMicro;
    touched[cell] = 1;
  };
  const sink = (runFrom: number, runTo: number, line: number, costMicro: number, quantityMicro: number) => {
    let isIncluded = lineStates[line];
    if (isIncluded === undefined) {
      isIncluded = query.matches(currentItem, line);
      lineStates[line] = isIncluded;
    }
    if (!isIncluded) return;
    if (granularity === 'None') {
      const days = runTo - runFrom + 1;
      addRun(line, 0, costMicro * days, quantityMicro * days);
      return;
    }
    for (let day = runFrom; day <= runTo; day += 1) {
      if (granularity === 'Daily') {
        addRun(line, day - fromDay, costMicro, quantityMicro);
        continue;
      }
      // A month's days together: from this day to the run's end or the month's last day.
      const monthIndex = readMonthIndex(day);
      let lastDay = day;
      while (lastDay < runTo && readMonthIndex(lastDay + 1) === monthIndex) lastDay += 1;
      const days = lastDay - day + 1;
      addRun(line, monthIndex - firstMonth, costMicro * days, quantityMicro * days);
      day = lastDay;
    }
  };
  let currentItem: BilledItem = items[0] as BilledItem;
  for (const item of items) {
    currentItem = item;
    lineStates.length = 0;
    costs.fill(0);
    quantities.fill(0);
    touched.fill(0);
    ledger.emitLines(item, fromDay, toDay, query.costType, horizon, sink);
    for (let line = 0; line < lineCount; line += 1) {
      if (!lineStates[line]) continue;
      const values = query.groupings.flatMap((grouping) => {
        if (grouping.type === 'Dimension') return [readDimension(item, line, grouping.name)];
        const tags = item.readTags();
        const key = Object.keys(tags).find(
          (candidate) => candidate.toLowerCase() === grouping.name.toLowerCase(),
        );
        return key === undefined ? ['', ''] : [key, tags[key] ?? ''];
      });
      const groupKey = values.join('\u0001');
      for (let bucket = 0; bucket < bucketCount; bucket += 1) {
        const cell = line * bucketCount + bucket;
        if (!touched[cell]) continue;
        const key = `${bucket}\u0001${groupKey}`;
        let row = accumulated.get(key);
        if (!row) {
          row = { bucket, values, costMicro: 0, quantityMicro: 0 };
          accumulated.set(key, row);
        }
        row.costMicro += costs[cell] ?? 0;
        row.quantityMicro += quantities[cell] ?? 0;
      }
    }
  }
  const columns: QueryColumn[] = query.aggregations.map((aggregation) => ({
    name: aggregation.column,
    type: 'Number',
  }));
  if (granularity === 'Daily') columns.push({ name: 'UsageDate', type: 'Number' });
  if (granularity === 'Monthly') columns.push({ name: 'BillingMonth', type: 'Datetime' });
  for (const grouping of query.groupings) {
    if (grouping.type === 'Dimension') columns.push({ name: grouping.name, type: 'String' });
    else columns.push({ name: 'TagKey', type: 'String' }, { name: 'TagValue', type: 'String' });
  }
  columns.push({ name: 'Currency', type: 'String' });
  const sorted = [...accumulated.values()].sort((first, second) => {
    if (first.bucket !== second.bucket) return first.bucket - second.bucket;
    const firstKey = first.values.join('\u0001');
    const secondKey = second.values.join('\u0001');
    return firstKey < secondKey ? -1 : firstKey > secondKey ? 1 : 0;
  });
  const rows = sorted.map((row) => {
    const cells: (string | number)[] = query.aggregations.map((aggregation) =>
      aggregation.isQuantity ? row.quantityMicro / microUnits : row.costMicro / microUnits,
    );
    if (granularity === 'Daily') cells.push(formatDayNumber(fromDay + row.bucket));
    if (granularity === 'Monthly') cells.push(formatMonth(firstMonth + row.bucket));
    cells.push(...row.values, 'USD');
    return cells;
  });
  return { columns, rows };
}
