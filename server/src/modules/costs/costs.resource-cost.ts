// One resource's cost: its last days by day and its month so far, for the resource's cost panel.
import { roundCents } from '@cloudtrim/contracts/money';
import {
  resourceCostDays,
  resourceCostQuerySchema,
  type ResourceCostResponse,
} from '@cloudtrim/contracts/costs';
import { notFound } from '../../lib/http-errors';
import { formatDay, readToday } from './costs.plan';
import type { CostsRepository } from './costs.repository';
import { dayMs } from '../../lib/time';
import { parse } from './costs.scope';

export class ResourceCosts {
  constructor(
    private readonly costs: CostsRepository,
    private readonly now: () => Date,
  ) {}

  async read(teamId: string, query: unknown): Promise<ResourceCostResponse> {
    const request = parse(resourceCostQuerySchema, query);
    if (!(await this.costs.isTeamResource(teamId, request.resourceId.toLowerCase())))
      throw notFound('Resource not found.');
    const today = readToday(this.now());
    const date = new Date(today);
    const monthFirst = formatDay(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
    const from = formatDay(today - (resourceCostDays - 1) * dayMs);
    const earliest = monthFirst < from ? monthFirst : from;
    const days = await this.costs.listResourceDays(
      teamId,
      request.resourceId.toLowerCase(),
      earliest,
      formatDay(today),
    );
    return {
      Data: days
        .filter((day) => day.date >= from)
        .map((day) => ({ Date: day.date, Cost: roundCents(day.cost) })),
      MonthToDate: roundCents(
        days.filter((day) => day.date >= monthFirst).reduce((sum, day) => sum + day.cost, 0),
      ),
      Currency: days[0]?.currency ?? (await this.costs.readCurrency({ teamId })) ?? 'USD',
    };
  }
}
