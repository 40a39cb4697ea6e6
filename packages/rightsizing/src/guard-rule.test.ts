import { describe, expect, it } from 'vitest';
import { guardRule, isGuardTripped } from './guard-rule';

describe('the rollback guard', () => {
  it('trips on two hours straight above 80%, not on an hour-long spike', () => {
    const hour = new Array(12).fill(99);
    expect(isGuardTripped([...hour, ...hour])).toBe(true);
    expect(isGuardTripped([...hour, 50, ...hour])).toBe(false);
    expect(isGuardTripped(new Array(guardRule.consecutiveSteps).fill(80))).toBe(false);
  });
});
