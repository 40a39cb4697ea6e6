import { describe, expect, it } from 'vitest';
import { normalizeScheduleResponse } from './schedule';

const change = {
  Id: 1,
  ResourceId: '/subscriptions/s/resourceGroups/g/providers/Microsoft.Compute/virtualMachines/vm1',
  FriendlyName: 'vm1',
  ChangeDateTime: '2025-01-01T02:00:00.000Z',
  NewSize: 'Standard_B2s',
  Version: '3',
};

describe('normalizeScheduleResponse', () => {
  it('takes an array and a `Data` wrapper alike', () => {
    expect(normalizeScheduleResponse([change])).toEqual([change]);
    expect(normalizeScheduleResponse({ Data: [change] })).toEqual([change]);
  });

  it('reads changeDateTime in either letter casing', () => {
    const { ChangeDateTime, ...rest } = change;
    expect(normalizeScheduleResponse([{ ...rest, changeDateTime: ChangeDateTime }])).toEqual([change]);
  });

  it('turns an absent Version into null and a numeric one into text', () => {
    const { Version: _version, ...withoutVersion } = change;
    expect(normalizeScheduleResponse([withoutVersion])[0]?.Version).toBeNull();
    expect(normalizeScheduleResponse([{ ...change, Version: 3 }])[0]?.Version).toBe('3');
  });

  it('refuses anything else', () => {
    expect(() => normalizeScheduleResponse({ data: [change] })).toThrow();
    expect(() => normalizeScheduleResponse([{ ...change, ChangeDateTime: undefined }])).toThrow();
    expect(() => normalizeScheduleResponse(null)).toThrow();
  });
});
