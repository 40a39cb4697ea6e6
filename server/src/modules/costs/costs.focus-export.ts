// The bill exported as FOCUS 1.0 CSV: one row per resource, service and day, streamed.
import { focusColumns, costExportQuerySchema } from '@cloudtrim/contracts/costs';
import { badRequest } from '../../lib/http-errors';
import { dailyHistoryDays, formatDay } from './costs.plan';
import type { CostExportRow, CostsRepository } from './costs.repository';
import { dayMs } from '../../lib/time';
import { checkTeamScope, parse } from './costs.scope';

export class FocusExport {
  constructor(private readonly costs: CostsRepository) {}

  // FOCUS 1.0 rows (one per resource, service and day), streamed as CSV lines.
  async *export(teamId: string, query: unknown): AsyncGenerator<string> {
    const request = parse(costExportQuerySchema, query);
    await checkTeamScope(this.costs, teamId, request.tenantId);
    if (request.from > request.to) throw badRequest('from must not be after to.', 'from');
    if ((Date.parse(request.to) - Date.parse(request.from)) / dayMs + 1 > dailyHistoryDays + 31) {
      throw badRequest(`An export covers at most ${dailyHistoryDays + 31} days, the bill kept by day.`, 'to');
    }
    yield `${focusColumns.join(',')}\r\n`;
    for await (const batch of this.costs.streamDays(teamId, request.from, request.to, request.tenantId)) {
      yield batch.map((row) => toFocusLine(row)).join('');
    }
  }
}

function toFocusLine(row: CostExportRow): string {
  const next = formatDay(Date.parse(row.day) + dayMs);
  const isPurchase = row.resourceId.includes('/microsoft.capacity/reservationorders/');
  const values = [
    row.actualCost,
    row.amortizedCost,
    row.listCost,
    row.currency,
    `${row.day}T00:00:00Z`,
    `${next}T00:00:00Z`,
    isPurchase ? 'Purchase' : 'Usage',
    row.usageQuantity,
    row.serviceName === 'Virtual Machines' ? 'Hours' : 'Units',
    row.resourceId,
    row.resourceName ?? row.resourceId.split('/').at(-1) ?? '',
    row.resourceType ?? '',
    row.region ?? '',
    row.serviceName,
    readServiceCategory(row.serviceName),
    row.subscriptionId,
    row.subscriptionName ?? '',
    JSON.stringify(row.tags),
  ];
  return `${values.map(toCsvField).join(',')}\r\n`;
}

// FOCUS 1.0's ServiceCategory for the services an Azure estate bills.
function readServiceCategory(serviceName: string): string {
  const name = serviceName.toLowerCase();
  if (name.includes('virtual machine') || name.includes('app service') || name.includes('functions'))
    return 'Compute';
  if (name.includes('storage') || name.includes('disk')) return 'Storage';
  if (name.includes('sql') || name.includes('cosmos') || name.includes('database')) return 'Databases';
  if (name.includes('network') || name.includes('bandwidth') || name.includes('ip')) return 'Networking';
  return 'Other';
}

function toCsvField(value: string | number): string {
  const text = typeof value === 'number' ? String(Math.round(value * 1e6) / 1e6) : value;
  // Formula characters are quoted with a leading apostrophe so a spreadsheet does not run them.
  const safe = /^[=+\-@\t\r]/.test(text) && typeof value === 'string' ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}
