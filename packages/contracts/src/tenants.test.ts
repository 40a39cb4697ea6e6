import { describe, expect, it } from 'vitest';
import { addTenantRequestSchema, deleteTenantParamsSchema, tenantsResponseSchema } from './tenants';

const newTenant = {
  Type: 'Azure',
  TenantId: ' 72F988BF-86F1-41AF-91AB-2D7CD011DB47 ',
  FriendlyName: ' Production ',
  ApplicationId: '0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5',
  ServicePrincipalSecret: 'secret~value',
};

describe('tenants', () => {
  it('adds a tenant with trimmed fields and lower-case GUIDs', () => {
    expect(addTenantRequestSchema.parse(newTenant)).toEqual({
      ...newTenant,
      TenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
      FriendlyName: 'Production',
    });
  });

  it('requires every field, a GUID tenant and application id, and the Azure type', () => {
    for (const field of Object.keys(newTenant)) {
      expect(addTenantRequestSchema.safeParse({ ...newTenant, [field]: '  ' }).success).toBe(false);
    }
    expect(addTenantRequestSchema.safeParse({ ...newTenant, Type: 'AWS' }).success).toBe(false);
    const result = addTenantRequestSchema.safeParse({ ...newTenant, ApplicationId: 'my-app' });
    expect(result.error?.issues[0]?.path).toEqual(['ApplicationId']);
  });

  it('lists tenants with SPEC field names and only the presence of the secret', () => {
    const tenant = {
      Id: '5b0c9a1e-2f3d-4c5b-8a7e-6d5c4b3a2f10',
      FriendlyName: 'Production',
      Type: 'Azure',
      TenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
      ApplicationId: '0c1d2e3f-4a5b-6c7d-8e9f-a0b1c2d3e4f5',
      ServicePrincipalSecret: 'Set',
      Status: 'OK',
      Healthy: 1,
      Active: 1,
      LastSync: null,
      ResourceCount: 0,
      CanWrite: 1,
    };
    expect(tenantsResponseSchema.safeParse([tenant]).success).toBe(true);
    expect(tenantsResponseSchema.safeParse([{ ...tenant, ServicePrincipalSecret: 'hunter2' }]).success).toBe(
      false,
    );
  });

  it('deletes by a GUID id', () => {
    expect(deleteTenantParamsSchema.safeParse({ id: '5b0c9a1e-2f3d-4c5b-8a7e-6d5c4b3a2f10' }).success).toBe(
      true,
    );
    expect(deleteTenantParamsSchema.safeParse({ id: '1' }).success).toBe(false);
  });
});
