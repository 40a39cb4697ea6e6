import { z } from 'zod';
import { createGuidSchema } from './common';
import { resourceIdSchema } from './resources';
import { dayMs } from './time';

// The bill as Cloudtrim reads it from Azure Cost Management: our own calls, not SPEC's (issue 16).
// Days are UTC days spelled YYYY-MM-DD; amounts are in the bill's currency.

export const maxCostRangeDays = 400;
export const costDaySchema = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'Expected a UTC day such as 2026-11-01.' })
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && toDay(value) === value, {
    error: 'Expected a UTC day such as 2026-11-01.',
  });

function toDay(value: string): string {
  return new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10);
}

export const costGranularities = ['daily', 'monthly', 'none'] as const;
export type CostGranularity = (typeof costGranularities)[number];

export const costTypes = ['actual', 'amortized'] as const;
export type CostType = (typeof costTypes)[number];

// groupBy: a dimension, or `tag:NAME` for a tag key.
export const costDimensions = ['service', 'resourceGroup', 'subscription', 'resource'] as const;
export type CostDimension = (typeof costDimensions)[number];
export type CostGroupBy = CostDimension | `tag:${string}`;
export const costGroupBySchema = z
  .string()
  .trim()
  .refine(
    (value): value is CostGroupBy =>
      (costDimensions as readonly string[]).includes(value) || /^tag:[^\s:]{1,128}$/.test(value),
    { error: 'groupBy must be service, resourceGroup, subscription, resource or tag:NAME.' },
  );

const optionalFilterSchema = z.string().trim().min(1).max(1000).optional();

// The filters every cost call takes: our tenant's Id, an Azure subscription id, a resource group's name,
// a service name, and a tag as NAME=VALUE.
export const costFilterSchema = z.object({
  tenantId: createGuidSchema('Tenant id').optional(),
  subscriptionId: createGuidSchema('Subscription id').optional(),
  resourceGroup: optionalFilterSchema,
  service: optionalFilterSchema,
  tag: z
    .string()
    .trim()
    .regex(/^[^=\s]{1,128}=.{0,256}$/, { error: 'tag must be NAME=VALUE.' })
    .optional(),
});
export type CostFilter = z.infer<typeof costFilterSchema>;

// GET /api/v1/cost?from=&to=&granularity=&groupBy=&costType=
export const costQuerySchema = costFilterSchema
  .extend({
    from: costDaySchema,
    to: costDaySchema,
    granularity: z
      .enum(costGranularities, { error: 'granularity must be daily, monthly or none.' })
      .default('daily'),
    groupBy: costGroupBySchema.default('service'),
    costType: z.enum(costTypes, { error: 'costType must be actual or amortized.' }).default('actual'),
  })
  .superRefine((query, context) => {
    const days = (Date.parse(query.to) - Date.parse(query.from)) / dayMs + 1;
    if (days < 1) context.addIssue({ code: 'custom', path: ['from'], message: 'from must not be after to.' });
    else if (days > maxCostRangeDays)
      context.addIssue({
        code: 'custom',
        path: ['to'],
        message: `A range covers at most ${maxCostRangeDays} days.`,
      });
  });
export type CostQuery = z.input<typeof costQuerySchema>;
export type CostRequest = z.infer<typeof costQuerySchema>;

// Date: the day (daily), the month's first day (monthly) or `from` (none). Group: the service's name, the
// resource group's name, the subscription's id, the resource's ARM id, or the tag's value ('' untagged).
export const costPointSchema = z.object({ Date: z.string(), Group: z.string(), Cost: z.number() });
export type CostPoint = z.infer<typeof costPointSchema>;

// While a tenant's bill is still being read (the first minutes after it connects), the range's
// older days may not be in yet: Complete is false and DaysRead the days at the range's end that are
// in (null when none are yet); Total counts those only.
export const costDaysReadSchema = z.object({ From: z.string(), To: z.string() });
export type CostDaysRead = z.infer<typeof costDaysReadSchema>;

export const costResponseSchema = z.object({
  Data: z.array(costPointSchema),
  Total: z.number(),
  Currency: z.string(),
  Complete: z.boolean(),
  DaysRead: costDaysReadSchema.nullable(),
});
export type CostResponse = z.infer<typeof costResponseSchema>;

// GET /api/v1/cost/summary: this month so far against the same days of last month, the month's forecast
// and the savings applied changes have realized on the bill since January.
export const costSummaryQuerySchema = costFilterSchema.pick({ tenantId: true });
export type CostSummaryQuery = z.infer<typeof costSummaryQuerySchema>;

export const costSummaryResponseSchema = z.object({
  MonthToDate: z.number(),
  LastMonthSameDays: z.number(),
  ForecastMonthEnd: z.number(),
  RealizedSavingsYearToDate: z.number(),
  Currency: z.string(),
  // False while the tenant's bill is still being read: the days of this month and of last month's
  // compared are not all in yet.
  Complete: z.boolean(),
});
export type CostSummaryResponse = z.infer<typeof costSummaryResponseSchema>;

// GET /api/v1/cost/resource?resourceId=: a resource's actual cost per day over the last 30 days.
export const resourceCostDays = 30;
export const resourceCostQuerySchema = z.object({ resourceId: resourceIdSchema });
export type ResourceCostQuery = z.infer<typeof resourceCostQuerySchema>;

export const resourceCostResponseSchema = z.object({
  Data: z.array(z.object({ Date: z.string(), Cost: z.number() })),
  MonthToDate: z.number(),
  Currency: z.string(),
});
export type ResourceCostResponse = z.infer<typeof resourceCostResponseSchema>;

// GET /api/v1/cost/export?from=&to=: the bill as FOCUS 1.0 CSV.
export const costExportQuerySchema = costFilterSchema.pick({ tenantId: true }).extend({
  from: costDaySchema,
  to: costDaySchema,
});
export type CostExportQuery = z.infer<typeof costExportQuerySchema>;

export const focusColumns = [
  'BilledCost',
  'EffectiveCost',
  'ListCost',
  'BillingCurrency',
  'ChargePeriodStart',
  'ChargePeriodEnd',
  'ChargeCategory',
  'PricingQuantity',
  'PricingUnit',
  'ResourceId',
  'ResourceName',
  'ResourceType',
  'RegionId',
  'ServiceName',
  'ServiceCategory',
  'SubAccountId',
  'SubAccountName',
  'Tags',
] as const;

export const noCostDataText = 'No cost data right now, check back later.';
export const costAnalysisTitleText = 'Cost Analysis & Budget';

// GET /api/v1/cost/forecast?period=month|quarter: the period's cost at its end, expected and an 80% band,
// with its days (actual until yesterday, forecast from today) for a chart. Planned resizes and shutdowns
// lower the forecast from their day.
export const costForecastPeriods = ['month', 'quarter'] as const;
export type CostForecastPeriod = (typeof costForecastPeriods)[number];
export const costForecastQuerySchema = costFilterSchema
  .pick({ tenantId: true, subscriptionId: true, resourceGroup: true, tag: true })
  .extend({
    period: z.enum(costForecastPeriods, { error: 'period must be month or quarter.' }).default('month'),
  });
export type CostForecastQuery = z.input<typeof costForecastQuerySchema>;
export type CostForecastRequest = z.infer<typeof costForecastQuerySchema>;

export const costForecastDaySchema = z.object({
  Date: z.string(),
  Cost: z.number(),
  Kind: z.enum(['actual', 'forecast']),
  Low: z.number(),
  High: z.number(),
});
export type CostForecastDay = z.infer<typeof costForecastDaySchema>;

export const costForecastResponseSchema = z.object({
  Expected: z.number(),
  Low: z.number(),
  High: z.number(),
  Currency: z.string(),
  Data: z.array(costForecastDaySchema),
});
export type CostForecastResponse = z.infer<typeof costForecastResponseSchema>;
