import { describe, expect, it } from 'vitest';
import { describeMismatch, findReasonToStop } from './automation.still-wanted';
import type { ChangeRow } from './automation.repository';

const change = {
  kind: 'resize',
  origin: 'window',
  recommendationId: 7,
  newSize: 'Standard_D2s_v5',
  expectedSize: 'Standard_D4s_v5',
  expectedPowerState: 'running',
} as ChangeRow;
const at = new Date('2026-11-24T02:00:00Z');
const reasons = { automated: 0, heldUntil: null, isTenantActive: true, recommendationStatus: 'open' };

describe('a change is still wanted when', () => {
  it('its recommendation is open, the tenant active and no hold in force', () => {
    expect(findReasonToStop(change, reasons, at)).toBeUndefined();
    expect(findReasonToStop(change, { ...reasons, recommendationStatus: 'superseded' }, at)).toEqual({
      text: 'a newer recommendation has replaced this one',
      skip: 'noRecommendation',
    });
    expect(findReasonToStop(change, { ...reasons, isTenantActive: false }, at)).toEqual({
      text: 'the tenant is inactive',
      skip: null,
    });
  });

  it("the guard's hold after a rollback is told apart (a pipeline counts it as its 'held' skip)", () => {
    expect(
      findReasonToStop(change, { ...reasons, heldUntil: new Date('2026-12-01T00:00:00Z') }, at),
    ).toMatchObject({ text: expect.stringMatching(/held after a rollback until 2026-12-01/), skip: 'held' });
    expect(findReasonToStop(change, { ...reasons, recommendationStatus: 'held' }, at)).toEqual({
      text: 'the recommendation is held',
      skip: 'held',
    });
  });

  it('an automated change: its resource is still set to Automate', () => {
    const automated = { ...change, origin: 'automated' } as ChangeRow;
    expect(findReasonToStop(automated, { ...reasons, automated: 1 }, at)).toBeUndefined();
    expect(findReasonToStop(automated, reasons, at)).toEqual({
      text: 'the resource is no longer set to Automate',
      skip: 'optedOut',
    });
  });

  it('the guard and active hours answer to no recommendation', () => {
    const rollback = { ...change, kind: 'rollback', origin: 'guard' } as ChangeRow;
    expect(findReasonToStop(rollback, { ...reasons, recommendationStatus: 'held' }, at)).toBeUndefined();
  });
});

describe('the VM is still as planned from', () => {
  it('has the size it was planned from', () => {
    expect(
      describeMismatch(change, {
        size: 'standard_d4s_v5',
        powerState: 'running',
        provisioningState: 'Succeeded',
      }),
    ).toBeUndefined();
    expect(
      describeMismatch(change, {
        size: 'Standard_E4s_v5',
        powerState: 'running',
        provisioningState: 'Succeeded',
      }),
    ).toBe('the VM is now Standard_E4s_v5, not Standard_D4s_v5 as when this was planned');
  });

  it('is not running when it was planned off (a resize would restart it), but may have stopped since', () => {
    const plannedOff = { ...change, expectedPowerState: 'deallocated' } as ChangeRow;
    const running = { size: 'Standard_D4s_v5', powerState: 'running', provisioningState: 'Succeeded' };
    expect(describeMismatch(plannedOff, running)).toBe(
      'the VM is now running, not deallocated as when this was planned',
    );
    expect(describeMismatch(change, { ...running, powerState: 'deallocated' })).toBeUndefined();
  });
});
