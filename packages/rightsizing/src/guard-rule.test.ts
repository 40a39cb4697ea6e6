import { describe, expect, it } from 'vitest';
import { guardRule, isGuardTripped, isThrottleTripped } from './guard-rule';

describe('the rollback guard', () => {
  it('trips on two hours straight above 80%, not on an hour-long spike', () => {
    const hour = new Array(12).fill(99);
    expect(isGuardTripped([...hour, ...hour])).toBe(true);
    expect(isGuardTripped([...hour, 50, ...hour])).toBe(false);
    expect(isGuardTripped(new Array(guardRule.consecutiveSteps).fill(80))).toBe(false);
  });

  it('trips on a burstable VM whose credits stayed empty for two hours, whatever its CPU read', () => {
    const empty = Array.from({ length: 24 }, () => 0.2);
    expect(isThrottleTripped(empty)).toBe(true);
    expect(isThrottleTripped([...empty.slice(1), 5])).toBe(false);
    expect(isThrottleTripped(empty.slice(1))).toBe(false);
  });
});
