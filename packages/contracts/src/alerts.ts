import { z } from 'zod';
import { createGuidSchema, createQueryIntegerSchema, isoDateTimeSchema } from './common';

// Budget and anomaly alerts (issue 17 §4), a pipeline's action waiting for approval and a pipeline run
// that failed (issue 19): our own calls, not SPEC's. Newest first, a page of `pageSize`.

export const alertKinds = ['budget', 'anomaly', 'approval', 'pipeline', 'security'] as const;
export type AlertKind = (typeof alertKinds)[number];

// What /analysis filters to for the alert (its query string's names); empty for a pipeline's
// (approval or failed run), whose place is /automation.
export const alertFilterSchema = z.object({
  TenantId: z.string().optional(),
  SubscriptionId: z.string().optional(),
  ResourceGroup: z.string().optional(),
  Service: z.string().optional(),
  Tag: z.string().optional(),
});
export type AlertFilter = z.infer<typeof alertFilterSchema>;

export const alertDriverSchema = z.object({
  ResourceId: z.string(),
  Name: z.string(),
  Expected: z.number(),
  Actual: z.number(),
});
export type AlertDriver = z.infer<typeof alertDriverSchema>;

export const alertSchema = z.object({
  Id: z.string(),
  Kind: z.enum(alertKinds),
  Title: z.string(),
  // Human text: 'Subscription Production · resource group web-rg · Virtual Machines'.
  Scope: z.string(),
  Filter: alertFilterSchema,
  // The day concerned, YYYY-MM-DD (an approval's: the day it was proposed; a failed run's: the day it
  // started).
  Date: z.string(),
  RaisedAt: isoDateTimeSchema,
  // An approval's: the annual saving of what waits; a failed run's: the annual saving not made.
  Amount: z.number(),
  Expected: z.number().nullable(),
  Currency: z.string(),
  Drivers: z.array(alertDriverSchema),
  AcknowledgedAt: isoDateTimeSchema.nullable(),
});
export type Alert = z.infer<typeof alertSchema>;

// GET /api/v1/alert?offset=: offset is the page's first record minus 1, as SPEC's lists.
export const alertListQuerySchema = z.object({
  offset: createQueryIntegerSchema(0, 1_000_000_000).default(0),
});
export type AlertListQuery = z.input<typeof alertListQuerySchema>;

export const alertListResponseSchema = z.object({
  Alerts: z.array(alertSchema),
  Total: z.number().int(),
  Unacknowledged: z.number().int(),
});
export type AlertListResponse = z.infer<typeof alertListResponseSchema>;

// POST /api/v1/alert/{id}/acknowledge
export const alertParamsSchema = z.object({ id: createGuidSchema('Alert id') });
export type AlertParams = z.infer<typeof alertParamsSchema>;

// GET and PUT /api/v1/alert/preferences: the signed-in user's own mail preferences.
// SecurityMails (issue 25): a new critical or high security finding; left out of a PUT, it stays as it was.
export const alertPreferencesSchema = z.object({
  BudgetMails: z.boolean(),
  AnomalyMails: z.boolean(),
  SecurityMails: z.boolean().optional(),
});
export type AlertPreferences = z.infer<typeof alertPreferencesSchema>;
