import { z } from 'zod';
import { createGuidSchema } from './common';

// GET /api/v1/scope: what the team's estate holds, for the pickers of the budget form and the
// pipeline builder (our own call, not SPEC's). One kind a call, paged, searchable: the team's
// tenants, their subscriptions by display name, the resource groups and the tag keys and values
// inventory has seen, narrowed by tenant and subscription.

export const scopeKinds = ['tenants', 'subscriptions', 'resourceGroups', 'tagKeys', 'tagValues'] as const;
export type ScopeKind = (typeof scopeKinds)[number];
export const scopePageSize = 50;

export const scopeQuerySchema = z
  .object({
    kind: z.enum(scopeKinds, {
      error: 'kind must be tenants, subscriptions, resourceGroups, tagKeys or tagValues.',
    }),
    tenantId: createGuidSchema('Tenant id').optional(),
    subscriptionId: createGuidSchema('Subscription id').optional(),
    // The tag whose values are asked for (kind tagValues).
    tagKey: z.string().trim().min(1).max(512).optional(),
    // Part of the name (or display name), any case.
    search: z.string().trim().max(200).optional(),
    page: z.coerce
      .number({ error: 'page must be a whole number from 1.' })
      .int()
      .min(1)
      .max(100_000)
      .default(1),
  })
  .superRefine((query, context) => {
    if (query.kind === 'tagValues' && !query.tagKey)
      context.addIssue({ code: 'custom', path: ['tagKey'], message: 'tagKey is required for tag values.' });
  });
export type ScopeQuery = z.input<typeof scopeQuerySchema>;
export type ScopeRequest = z.infer<typeof scopeQuerySchema>;

// Value: what a form sends (a tenant's Id, a subscription id, a group's or tag's name); Label: what
// a person reads (a tenant's friendly name, a subscription's display name). A subscription carries
// its tenant, a resource group its subscription.
export const scopeItemSchema = z.object({
  Value: z.string(),
  Label: z.string(),
  TenantId: z.string().optional(),
  SubscriptionId: z.string().optional(),
});
export type ScopeItem = z.infer<typeof scopeItemSchema>;

export const scopeResponseSchema = z.object({
  Items: z.array(scopeItemSchema),
  Page: z.number(),
  TotalCount: z.number(),
});
export type ScopeResponse = z.infer<typeof scopeResponseSchema>;
