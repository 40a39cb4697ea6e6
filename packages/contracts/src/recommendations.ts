import { z } from 'zod';
import { formatDollars } from './money';
import { createQueryIntegerSchema, dataWrapper, isoDateTimeSchema, messageResponseSchema } from './common';
import { resourceIdSchema } from './resources';

// GET /api/v1/log/recommendation and GET /api/v1/log/automation, optionally for one resource.
export const resourceLogQuerySchema = z.object({ resourceId: resourceIdSchema.optional() });
export type ResourceLogQuery = z.infer<typeof resourceLogQuerySchema>;

export const recommendationIdSchema = z.number().int().positive();

export const recommendationSchema = z.object({
  Id: recommendationIdSchema,
  ResourceId: z.string(),
  FriendlyName: z.string(),
  When: isoDateTimeSchema,
  PredictionMethod: z.string(),
  Recommendation: z.string(),
  Memo: z.string().nullable(),
  AnnualCostSavings: z.number(),
});
export type Recommendation = z.infer<typeof recommendationSchema>;

export const recommendationsResponseSchema = dataWrapper(z.array(recommendationSchema));
export type RecommendationsResponse = z.infer<typeof recommendationsResponseSchema>;

// GET /api/v1/log/recommendation/apply/now?id= and …/apply/maintenancewindow?id=
export const applyRecommendationQuerySchema = z.object({
  id: createQueryIntegerSchema(1, Number.MAX_SAFE_INTEGER),
});
export type ApplyRecommendationQuery = z.input<typeof applyRecommendationQuerySchema>;

export const applyRecommendationResponseSchema = messageResponseSchema;
export type ApplyRecommendationResponse = z.infer<typeof applyRecommendationResponseSchema>;

export const automationLogEntrySchema = z.object({
  ResourceId: z.string(),
  FriendlyName: z.string(),
  When: isoDateTimeSchema,
  PredictionMethod: z.string(),
  Action: z.string(),
});
export type AutomationLogEntry = z.infer<typeof automationLogEntrySchema>;

export const automationLogResponseSchema = dataWrapper(z.array(automationLogEntrySchema));
export type AutomationLogResponse = z.infer<typeof automationLogResponseSchema>;

// SPEC §3: shown with a $ prefix, thousands separators and 2 decimals.
export function formatAnnualCostSavings(amount: number): string {
  return formatDollars(amount);
}

// GET /api/v1/log/recommendation/evidence?id=: ours, not SPEC's. What the evidence chart draws for one
// recommendation: the last 14 days of each metric (hourly) as seen on the current size and as projected
// on the new one, and the threshold the projection must stay under.
export const recommendationEvidenceQuerySchema = applyRecommendationQuerySchema;

export const evidencePointSchema = z.object({
  Time: isoDateTimeSchema,
  Current: z.number().nullable(),
  Projected: z.number().nullable(),
});

export const evidenceSeriesSchema = z.object({
  Metric: z.string(),
  Unit: z.literal('Percent'),
  Threshold: z.number(),
  Points: z.array(evidencePointSchema),
});

export const recommendationEvidenceSchema = z.object({
  Id: recommendationIdSchema,
  ResourceId: z.string(),
  FriendlyName: z.string(),
  CurrentSize: z.string().nullable(),
  TargetSize: z.string().nullable(),
  Series: z.array(evidenceSeriesSchema),
});
export type RecommendationEvidence = z.infer<typeof recommendationEvidenceSchema>;

// GET and PUT /api/v1/team/settings: ours, not SPEC's. How far back the engine looks (7 to 90 days) and
// the maintenance hour (UTC) of resources that have none of their own.
export const teamSettingsSchema = z.object({
  LookbackDays: z.number().int().min(7).max(90),
  DefaultMaintenanceWindow: z.number().int().min(0).max(23),
});
export type TeamSettings = z.infer<typeof teamSettingsSchema>;

// What a recommendation's PredictionMethod says for waste (an unattached disk, an idle IP, a stopped
// VM, an oversized plan or database): a rule on the resource's state and use, not a forecast, so it
// has no evidence chart.
export const wastePredictionMethod = 'waste-rule';
