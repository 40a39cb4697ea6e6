import { z } from 'zod';
import { createGuidSchema, isoDateTimeSchema, messageResponseSchema } from './common';

// Only Azure is offered (SPEC §9).
export const tenantTypes = ['Azure'] as const;
export const tenantTypeSchema = z.literal('Azure');
export type TenantType = z.infer<typeof tenantTypeSchema>;

// The Status that SPEC shows as good; anything else explains what is wrong (e.g. the secret was refused).
export const tenantOkStatus = 'OK';

export const tenantIdSchema = createGuidSchema('Tenant id');

// GET api/v1/tenant. The secret itself never leaves the server: only whether one is stored.
// LastSync and ResourceCount are ours, not SPEC's: when the inventory was last read and how much of it
// there is, so a user can tell a healthy but empty tenant from one that has never synced. CanWrite is ours
// too: 1 when the service principal may resize, start and deallocate VMs (Virtual Machine Contributor), 0
// when it can only read (Status then says which role to grant), null until Azure has said.
export const tenantSchema = z.object({
  Id: z.guid(),
  FriendlyName: z.string(),
  Type: tenantTypeSchema,
  TenantId: z.string(),
  ApplicationId: z.string(),
  ServicePrincipalSecret: z.enum(['Set', 'None']),
  Status: z.string(),
  Healthy: z.union([z.literal(0), z.literal(1)]),
  Active: z.number().int(),
  LastSync: isoDateTimeSchema.nullable(),
  ResourceCount: z.number().int().min(0),
  CanWrite: z.union([z.literal(0), z.literal(1)]).nullable(),
});
export type Tenant = z.infer<typeof tenantSchema>;

export const tenantsResponseSchema = z.array(tenantSchema);
export type TenantsResponse = z.infer<typeof tenantsResponseSchema>;

// POST /api/v1/tenant: every field required (SPEC §5), Type fixed to Azure.
export const addTenantRequestSchema = z.object({
  Type: tenantTypeSchema,
  TenantId: createGuidSchema('Tenant ID'),
  FriendlyName: z.string().trim().min(1, { error: 'Name/Alias is required.' }).max(100),
  ApplicationId: createGuidSchema('Application ID'),
  ServicePrincipalSecret: z.string().trim().min(1, { error: 'Secret is required.' }).max(500),
});
export type AddTenantRequest = z.input<typeof addTenantRequestSchema>;

export const addTenantResponseSchema = messageResponseSchema;
export type AddTenantResponse = z.infer<typeof addTenantResponseSchema>;

// DELETE /api/v1/tenant/{id}
export const deleteTenantParamsSchema = z.object({ id: tenantIdSchema });
export type DeleteTenantParams = z.infer<typeof deleteTenantParamsSchema>;

export const deleteTenantResponseSchema = messageResponseSchema;
export type DeleteTenantResponse = z.infer<typeof deleteTenantResponseSchema>;
