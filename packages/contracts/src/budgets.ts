import { z } from 'zod';
import { createGuidSchema, emailAddressSchema, isoDateTimeSchema } from './common';
import { costDaySchema, costFilterSchema, costTypes } from './costs';

// Budgets (issue 17 §2): our own calls, not SPEC's. A budget watches the cost of a scope over a period and
// raises an alert when its actual or forecasted cost crosses one of its thresholds.

export const maxBudgetThresholds = 5;
export const maxBudgetAmount = 1e9;

// All fields absent: the whole team's bill.
export const budgetScopeSchema = z.object({
  TenantId: costFilterSchema.shape.tenantId,
  SubscriptionId: costFilterSchema.shape.subscriptionId,
  ResourceGroup: costFilterSchema.shape.resourceGroup,
  Tag: costFilterSchema.shape.tag,
});
export type BudgetScope = z.infer<typeof budgetScopeSchema>;

export const budgetPeriods = ['monthly', 'quarterly', 'yearly'] as const;
export type BudgetPeriod = (typeof budgetPeriods)[number];

export const budgetBases = ['actual', 'forecasted'] as const;
export type BudgetBasis = (typeof budgetBases)[number];

// Emails of team members; AllTeam: every member of the team when the mail is sent.
export const budgetRecipientsSchema = z.object({
  AllTeam: z.boolean(),
  Emails: z.array(emailAddressSchema).max(100),
});
export type BudgetRecipients = z.infer<typeof budgetRecipientsSchema>;

export const budgetThresholdSchema = z.object({
  Percent: z
    .number({ error: 'Percent must be a number from 1 to 1000.' })
    .min(1, { error: 'Percent must be from 1 to 1000.' })
    .max(1000, { error: 'Percent must be from 1 to 1000.' }),
  Basis: z.enum(budgetBases, { error: 'Basis must be actual or forecasted.' }),
  Recipients: budgetRecipientsSchema,
});
export type BudgetThreshold = z.infer<typeof budgetThresholdSchema>;

// The key a crossing is remembered by, once per threshold per period: `150:forecasted`.
export function getBudgetThresholdKey(threshold: Pick<BudgetThreshold, 'Percent' | 'Basis'>): string {
  return `${threshold.Percent}:${threshold.Basis}`;
}

// POST /api/v1/budget and PUT /api/v1/budget/{id}
export const budgetRequestSchema = z
  .object({
    Name: z
      .string({ error: 'Name is required.' })
      .trim()
      .min(1, { error: 'Name is required.' })
      .max(100, { error: 'Name must be at most 100 characters.' }),
    Scope: budgetScopeSchema.default({}),
    Amount: z
      .number({ error: 'Amount must be a number.' })
      .gt(0, { error: 'Amount must be more than 0.' })
      .max(maxBudgetAmount, { error: `Amount must be at most ${maxBudgetAmount}.` }),
    Period: z.enum(budgetPeriods, { error: 'Period must be monthly, quarterly or yearly.' }),
    // Periods run whole months from here, as Azure's budgets do.
    StartDate: costDaySchema.refine((day) => day.endsWith('-01'), {
      error: 'StartDate must be the first day of a month.',
    }),
    CostType: z.enum(costTypes, { error: 'CostType must be actual or amortized.' }).default('actual'),
    Thresholds: z
      .array(budgetThresholdSchema)
      .max(maxBudgetThresholds, { error: `A budget has at most ${maxBudgetThresholds} thresholds.` })
      .default([]),
  })
  .superRefine((budget, context) => {
    const keys = budget.Thresholds.map(getBudgetThresholdKey);
    keys.forEach((key, index) => {
      if (keys.indexOf(key) !== index)
        context.addIssue({
          code: 'custom',
          path: ['Thresholds', index, 'Percent'],
          message: 'Two thresholds have the same percent and basis.',
        });
    });
  });
export type BudgetRequest = z.input<typeof budgetRequestSchema>;
export type BudgetInput = z.infer<typeof budgetRequestSchema>;

export const budgetParamsSchema = z.object({ id: createGuidSchema('Budget id') });
export type BudgetParams = z.infer<typeof budgetParamsSchema>;

// The burn-down: Actual is cumulative up to the last day the bill has (null after), Forecast cumulative
// expected from today to the period's end (null before).
export const budgetDaySchema = z.object({
  Date: z.string(),
  Actual: z.number().nullable(),
  Forecast: z.number().nullable(),
});
export type BudgetDay = z.infer<typeof budgetDaySchema>;

export const budgetCrossingSchema = z.object({
  Percent: z.number(),
  Basis: z.enum(budgetBases),
  CrossedAt: isoDateTimeSchema,
});
export type BudgetCrossing = z.infer<typeof budgetCrossingSchema>;

export const budgetSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  Scope: budgetScopeSchema,
  Amount: z.number(),
  Period: z.enum(budgetPeriods),
  StartDate: z.string(),
  CostType: z.enum(costTypes),
  Thresholds: z.array(budgetThresholdSchema),
  Currency: z.string(),
  PeriodStart: z.string(),
  PeriodEnd: z.string(),
  Spent: z.number(),
  Forecast: z.number(),
  ForecastLow: z.number(),
  ForecastHigh: z.number(),
  Days: z.array(budgetDaySchema),
  Crossed: z.array(budgetCrossingSchema),
  // False while the tenant's bill is still being read (its first minutes): Spent and the crossings
  // count what is in so far, and older months are still to come.
  Complete: z.boolean(),
});
export type Budget = z.infer<typeof budgetSchema>;

export const budgetBillReadingText =
  'The bill is still being read from Azure: older months are not all in yet, so Spent counts what has arrived so far.';

// A budget defined in Azure (Microsoft.Consumption/budgets), read with Reader rights and shown read-only.
export const azureBudgetSchema = z.object({
  Name: z.string(),
  TenantId: z.string(),
  SubscriptionId: z.string(),
  Amount: z.number(),
  TimeGrain: z.string(),
  StartDate: z.string(),
  EndDate: z.string().nullable(),
  CurrentSpend: z.number(),
  ForecastSpend: z.number().nullable(),
  Currency: z.string(),
});
export type AzureBudget = z.infer<typeof azureBudgetSchema>;

// GET /api/v1/budget
export const budgetListResponseSchema = z.object({
  Budgets: z.array(budgetSchema),
  AzureBudgets: z.array(azureBudgetSchema),
});
export type BudgetListResponse = z.infer<typeof budgetListResponseSchema>;
