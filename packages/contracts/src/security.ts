import { z } from 'zod';
import { createGuidSchema, createQueryIntegerSchema, isoDateTimeSchema } from './common';

// The Security page (issue 25): findings of the checks over the team's tenants, mutes with a reason
// until a day, the secure score by subscription. Our own calls, not SPEC's; SPEC's casing.

export const securitySeverities = ['critical', 'high', 'medium', 'low'] as const;
export type SecuritySeverity = (typeof securitySeverities)[number];

export const securityStatuses = ['open', 'muted', 'resolved'] as const;
export type SecurityStatus = (typeof securityStatuses)[number];

export const securityRemediationSchema = z.object({ Text: z.string(), Command: z.string() });

export const securityMuteSchema = z.object({
  Reason: z.string(),
  Until: z.string(),
  By: z.string(),
  // The mute rule that mutes the finding; null for a mute of the finding itself.
  RuleId: z.string().nullable(),
});
export type SecurityMute = z.infer<typeof securityMuteSchema>;

export const securityHistoryEntrySchema = z.object({
  Kind: z.enum(['opened', 'resolved', 'reopened', 'muted', 'unmuted']),
  At: isoDateTimeSchema,
  By: z.string().nullable(),
  Note: z.string().nullable(),
});

export const securityFindingSchema = z.object({
  Id: z.string(),
  CheckId: z.string(),
  Title: z.string(),
  Severity: z.enum(securitySeverities),
  Status: z.enum(securityStatuses),
  ResourceId: z.string(),
  ResourceName: z.string(),
  TenantId: z.string(),
  SubscriptionId: z.string(),
  Evidence: z.string(),
  Remediation: securityRemediationSchema,
  Cis: z.string(),
  FirstSeen: isoDateTimeSchema,
  LastSeen: isoDateTimeSchema,
  ResolvedAt: isoDateTimeSchema.nullable(),
  Mute: securityMuteSchema.nullable(),
});
export type SecurityFinding = z.infer<typeof securityFindingSchema>;

export const securityFindingDetailSchema = securityFindingSchema.extend({
  History: z.array(securityHistoryEntrySchema),
});
export type SecurityFindingDetail = z.infer<typeof securityFindingDetailSchema>;

const optionalQueryText = (maximum: number) => z.string().trim().min(1).max(maximum).optional();

// GET /api/v1/security/finding?offset=&Status=&Severity=&CheckId=&TenantId=&Search=&Sort=
export const securityFindingSortKeys = [
  'Severity',
  'LastSeen',
  'FirstSeen',
  'ResourceName',
  'CheckId',
] as const;
export const securityFindingQuerySchema = z.object({
  offset: createQueryIntegerSchema(0, 1_000_000_000).default(0),
  Status: z.enum(securityStatuses).optional(),
  Severity: z.enum(securitySeverities).optional(),
  CheckId: optionalQueryText(100),
  TenantId: createGuidSchema('TenantId').optional(),
  Search: optionalQueryText(200),
  Sort: z.enum(securityFindingSortKeys).default('Severity'),
  Order: z.enum(['asc', 'desc']).default('desc'),
});
export type SecurityFindingQuery = z.input<typeof securityFindingQuerySchema>;

export const securityFindingListSchema = z.object({
  Data: z.array(securityFindingSchema),
  Total: z.number().int(),
});
export type SecurityFindingList = z.infer<typeof securityFindingListSchema>;

export const securityFindingParamsSchema = z.object({ id: createGuidSchema('Finding id') });

const dayText = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Until must be a day, YYYY-MM-DD.');

// POST /api/v1/security/finding/{id}/mute; Until: a day from tomorrow to a year from today (the
// service checks the range against its clock).
export const securityMuteRequestSchema = z.object({
  Reason: z
    .string()
    .trim()
    .min(3, 'Reason must be 3 to 500 characters.')
    .max(500, 'Reason must be 3 to 500 characters.'),
  Until: dayText,
});
export type SecurityMuteRequest = z.infer<typeof securityMuteRequestSchema>;

// POST /api/v1/security/mute-rule: a check muted for a resource group or a tag (Key, and Value when given).
export const securityMuteRuleRequestSchema = securityMuteRequestSchema.extend({
  CheckId: z.string().trim().min(1).max(100),
  Scope: z.union([
    z.object({ ResourceGroup: z.string().trim().min(1).max(90) }).strict(),
    z
      .object({ TagKey: z.string().trim().min(1).max(512), TagValue: z.string().max(256).optional() })
      .strict(),
  ]),
});
export type SecurityMuteRuleRequest = z.infer<typeof securityMuteRuleRequestSchema>;

export const securityMuteRuleSchema = z.object({
  Id: z.string(),
  CheckId: z.string(),
  ResourceGroup: z.string().nullable(),
  TagKey: z.string().nullable(),
  TagValue: z.string().nullable(),
  Reason: z.string(),
  Until: z.string(),
  By: z.string(),
  // Open findings it mutes now.
  Muted: z.number().int(),
});
export type SecurityMuteRule = z.infer<typeof securityMuteRuleSchema>;

export const securityCheckSchema = z.object({
  Id: z.string(),
  Title: z.string(),
  Severity: z.enum(securitySeverities),
  Reads: z.string(),
  Remediation: securityRemediationSchema,
  Cis: z.string(),
});
export type SecurityCheckInfo = z.infer<typeof securityCheckSchema>;
export const securityCheckListSchema = z.object({ Data: z.array(securityCheckSchema) });

export const securityScorePointSchema = z.object({ Date: z.string(), Percentage: z.number() });

export const securitySubscriptionSchema = z.object({
  TenantId: z.string(),
  SubscriptionId: z.string(),
  DisplayName: z.string(),
  IsDefenderEnabled: z.boolean(),
  // Null where Defender for Cloud is off.
  Score: z.object({ Current: z.number(), Max: z.number(), Percentage: z.number() }).nullable(),
  Trend: z.array(securityScorePointSchema),
});

export const securitySummarySchema = z.object({
  Counts: z.object({
    critical: z.number().int(),
    high: z.number().int(),
    medium: z.number().int(),
    low: z.number().int(),
  }),
  Open: z.number().int(),
  Muted: z.number().int(),
  Resolved: z.number().int(),
  Subscriptions: z.array(securitySubscriptionSchema),
  LastScanAt: isoDateTimeSchema.nullable(),
});
export type SecuritySummary = z.infer<typeof securitySummarySchema>;

export const securityScanResponseSchema = z.object({
  Findings: z.number().int(),
  ScannedAt: isoDateTimeSchema,
});
export type SecurityScanResponse = z.infer<typeof securityScanResponseSchema>;

export const securityExportQuerySchema = z.object({ format: z.enum(['csv', 'ocsf']) });

export const defenderOffText = 'Defender for Cloud is off for this subscription';
