import { describe, expect, it } from 'vitest';
import {
  buildResourceAutomationPath,
  findResourcesResponseSchema,
  getLastPathSegment,
  readResourceIdFromPath,
  saveCloudResourceRequestSchema,
  updateResourceAutomationParamsSchema,
  updateResourceAutomationQuerySchema,
} from './resources';

const resourceId =
  '/subscriptions/sub-1/resourceGroups/rg-web/providers/Microsoft.Compute/virtualMachines/vm 1';
const settings = { ResourceId: resourceId, Automated: 1, ActiveHoursStart: 8, ActiveHoursEnd: 18 };

describe('cloud resource save', () => {
  it('takes an array holding exactly one resource', () => {
    expect(saveCloudResourceRequestSchema.safeParse([settings]).success).toBe(true);
    expect(saveCloudResourceRequestSchema.safeParse([]).success).toBe(false);
    expect(saveCloudResourceRequestSchema.safeParse([settings, settings]).success).toBe(false);
    expect(saveCloudResourceRequestSchema.safeParse(settings).success).toBe(false);
  });

  it('accepts only 0 or 1 for Automated', () => {
    for (const Automated of [0, 1]) {
      expect(saveCloudResourceRequestSchema.safeParse([{ ...settings, Automated }]).success).toBe(true);
    }
    for (const Automated of [2, -1, '1', true]) {
      expect(saveCloudResourceRequestSchema.safeParse([{ ...settings, Automated }]).success).toBe(false);
    }
  });

  it('accepts whole hours 0 to 23 only', () => {
    for (const hour of [0, 23]) {
      expect(
        saveCloudResourceRequestSchema.safeParse([{ ...settings, ActiveHoursStart: hour }]).success,
      ).toBe(true);
    }
    for (const hour of [-1, 24, 7.5, '8', null]) {
      expect(saveCloudResourceRequestSchema.safeParse([{ ...settings, ActiveHoursEnd: hour }]).success).toBe(
        false,
      );
    }
  });
});

describe('automation view', () => {
  it('wraps search results in `Data` with PascalCase fields', () => {
    const resource = {
      ResourceName: 'vm 1',
      ResourceCategory: 'Compute',
      SubCategory: 'Virtual Machine',
      ResourceId: resourceId,
      Automated: 2,
      MaintenanceWindow: null,
      PredictionMethod: 'P95',
      PredictionMethodFriendlyShortText: '95th percentile',
      TenantId: '5b0c9a1e-2f3d-4c5b-8a7e-6d5c4b3a2f10',
      SubscriptionName: 'Production',
      ResourceGroup: 'rg-web',
    };
    expect(findResourcesResponseSchema.safeParse({ Data: [resource] }).success).toBe(true);
    expect(findResourcesResponseSchema.safeParse([resource]).success).toBe(false);
    expect(findResourcesResponseSchema.safeParse({ Data: [{ ...resource, Automated: 3 }] }).success).toBe(
      false,
    );
  });

  it('reads automated 0-2 and maintenanceWindow 0-23 from query text', () => {
    expect(updateResourceAutomationQuerySchema.parse({ automated: '2', maintenanceWindow: '23' })).toEqual({
      automated: 2,
      maintenanceWindow: 23,
    });
    expect(updateResourceAutomationQuerySchema.parse({ automated: '1' })).toEqual({ automated: 1 });
    for (const query of [
      { automated: '3' },
      { automated: '' },
      { automated: '1', maintenanceWindow: '24' },
    ]) {
      expect(updateResourceAutomationQuerySchema.safeParse(query).success).toBe(false);
    }
  });

  it('carries the resource id in the path and reads it back', () => {
    const path = buildResourceAutomationPath(resourceId);
    expect(path).toBe(
      '/api/v1/resource/subscriptions/sub-1/resourceGroups/rg-web/providers/Microsoft.Compute/virtualMachines/vm%201',
    );
    const wildcard = decodeURIComponent(path.slice('/api/v1/resource/'.length));
    expect(readResourceIdFromPath(wildcard)).toBe(resourceId);
    expect(updateResourceAutomationParamsSchema.parse({ '*': wildcard })).toEqual({ '*': resourceId });
  });

  it('names a resource by the last segment of its path', () => {
    expect(getLastPathSegment(resourceId)).toBe('vm 1');
    expect(getLastPathSegment('Microsoft.Compute/virtualMachines')).toBe('virtualMachines');
  });
});
