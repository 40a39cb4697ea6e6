import { z } from 'zod';
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
  return `$${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
}
