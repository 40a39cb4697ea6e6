import { z } from 'zod';
import { automationValueSchema, hourSchema } from './automation';
import { createQueryIntegerSchema, dataWrapper, isoDateTimeSchema, messageResponseSchema } from './common';

// An Azure Resource Manager id: '/subscriptions/…/resourceGroups/…/providers/…/name'.
export const resourceIdSchema = z.string().trim().min(1).max(1000);

// SPEC shows a resource, and its type, by the last segment of the path.
export function getLastPathSegment(path: string): string {
  return path.split('/').filter(Boolean).at(-1) ?? path;
}

const activeAutomatedSchema = z.union([z.literal(0), z.literal(1)]);

// The AUTOMATED select of Cloud Resources allows only these (SPEC §5).
export const activeAutomatedOptions: readonly { value: 0 | 1; label: string }[] = [
  { value: 1, label: 'True' },
  { value: 0, label: 'False' },
];

// GET /api/v1/resource: the Cloud Resources list.
// TenantId is our tenant's Id (the `Id` of GET api/v1/tenant), so a row can be matched with its tenant.
// TenantName is ours, not SPEC's: the tenant's FriendlyName, which labels SPEC's tenant divider without a
// second call; null (a tenant since deleted) shows 'Unknown Tenant'. A null ResourceGroup shows
// 'Default Group'. Null active hours mean none were set yet.
export const cloudResourceSchema = z.object({
  ResourceId: z.string(),
  ResourceType: z.string(),
  SubscriptionName: z.string().nullable(),
  ResourceGroup: z.string().nullable(),
  TenantId: z.string().nullable(),
  TenantName: z.string().nullable(),
  LastRead: isoDateTimeSchema.nullable(),
  Automated: activeAutomatedSchema,
  ActiveHoursStart: hourSchema.nullable(),
  ActiveHoursEnd: hourSchema.nullable(),
});
export type CloudResource = z.infer<typeof cloudResourceSchema>;

export const cloudResourcesResponseSchema = z.array(cloudResourceSchema);
export type CloudResourcesResponse = z.infer<typeof cloudResourcesResponseSchema>;

// POST /api/v1/resource: SPEC sends an array holding exactly one resource's settings.
export const saveCloudResourceItemSchema = z.object({
  ResourceId: resourceIdSchema,
  Automated: activeAutomatedSchema,
  ActiveHoursStart: hourSchema,
  ActiveHoursEnd: hourSchema,
});
export type SaveCloudResourceItem = z.infer<typeof saveCloudResourceItemSchema>;

export const saveCloudResourceRequestSchema = z.array(saveCloudResourceItemSchema).length(1);
export type SaveCloudResourceRequest = z.infer<typeof saveCloudResourceRequestSchema>;

export const saveCloudResourceResponseSchema = messageResponseSchema;
export type SaveCloudResourceResponse = z.infer<typeof saveCloudResourceResponseSchema>;

// A resource as the automation view and the search show it. TenantId is our tenant's Id, as above.
export const automationResourceSchema = z.object({
  ResourceName: z.string(),
  ResourceCategory: z.string(),
  SubCategory: z.string(),
  ResourceId: z.string(),
  Automated: automationValueSchema,
  MaintenanceWindow: hourSchema.nullable(),
  PredictionMethod: z.string(),
  PredictionMethodFriendlyShortText: z.string(),
  TenantId: z.string(),
  SubscriptionName: z.string(),
  ResourceGroup: z.string(),
});
export type AutomationResource = z.infer<typeof automationResourceSchema>;

// GET /api/v1/resource/find?partialResource=: the search. An empty search is never sent (SPEC §5).
export const findResourcesQuerySchema = z.object({ partialResource: z.string().trim().min(1).max(200) });
export type FindResourcesQuery = z.infer<typeof findResourcesQuerySchema>;

export const findResourcesResponseSchema = dataWrapper(z.array(automationResourceSchema));
export type FindResourcesResponse = z.infer<typeof findResourcesResponseSchema>;

// PUT /api/v1/resource/{resource path}?automated=&maintenanceWindow=: no body. The resource id is itself a
// path, so it follows the prefix segment by segment; the server reads it back from its wildcard.
export const resourceAutomationPathPrefix = '/api/v1/resource/';

export function buildResourceAutomationPath(resourceId: string): string {
  return (
    resourceAutomationPathPrefix + resourceId.split('/').filter(Boolean).map(encodeURIComponent).join('/')
  );
}

export function readResourceIdFromPath(wildcard: string): string {
  return `/${wildcard.split('/').filter(Boolean).join('/')}`;
}

export const updateResourceAutomationParamsSchema = z.object({
  '*': z.string().trim().min(1).max(1000).transform(readResourceIdFromPath),
});
export type UpdateResourceAutomationParams = z.infer<typeof updateResourceAutomationParamsSchema>;

// maintenanceWindow may be left out: SPEC §5 only refuses No Change without one.
export const updateResourceAutomationQuerySchema = z.object({
  automated: createQueryIntegerSchema(0, 2).pipe(automationValueSchema),
  maintenanceWindow: createQueryIntegerSchema(0, 23).optional(),
});
export type UpdateResourceAutomationQuery = z.input<typeof updateResourceAutomationQuerySchema>;
export type UpdateResourceAutomation = z.infer<typeof updateResourceAutomationQuerySchema>;

export const updateResourceAutomationResponseSchema = messageResponseSchema;
export type UpdateResourceAutomationResponse = z.infer<typeof updateResourceAutomationResponseSchema>;
