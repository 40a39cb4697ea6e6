import { describe, expect, it } from 'vitest';
import { TokenBucket } from './throttle.bucket';
import { ThrottlePolicy, azureThrottleLimits } from './throttle.policy';

function createClock() {
  let nowMs = 1_000;
  return { read: () => nowMs, advance: (milliseconds: number) => (nowMs += milliseconds) };
}

describe('TokenBucket', () => {
  it('lets the capacity through, then refuses with the seconds until the next token', () => {
    const clock = createClock();
    const bucket = new TokenBucket(3, 0.5, clock.read);
    expect(
      [bucket.tryTake(), bucket.tryTake(), bucket.tryTake()].map((decision) => decision.remaining),
    ).toEqual([2, 1, 0]);
    const refused = bucket.tryTake();
    expect(refused).toEqual({ isAllowed: false, remaining: 0, retryAfterSeconds: 2 });
  });

  it('refills continuously up to its capacity and never beyond', () => {
    const clock = createClock();
    const bucket = new TokenBucket(250, 25, clock.read);
    for (let index = 0; index < 250; index += 1) bucket.tryTake();
    expect(bucket.tryTake().isAllowed).toBe(false);
    clock.advance(400);
    expect(bucket.readRemaining()).toBe(10);
    clock.advance(3_600_000);
    expect(bucket.readRemaining()).toBe(250);
    expect(bucket.isFull()).toBe(true);
  });

  it('asks for at least one second even when a token is a fraction of a second away', () => {
    const clock = createClock();
    const bucket = new TokenBucket(1, 25, clock.read);
    bucket.tryTake();
    expect(bucket.tryTake().retryAfterSeconds).toBe(1);
  });
});

describe('ThrottlePolicy', () => {
  it("keeps separate budgets per principal, scope and weight with Azure's sizes", () => {
    const clock = createClock();
    const policy = new ThrottlePolicy(azureThrottleLimits, true, clock.read);
    for (let index = 0; index < 250; index += 1) policy.takeRequest('principal-a', 'subscription-1', 'read');
    expect(policy.takeRequest('principal-a', 'subscription-1', 'read').isAllowed).toBe(false);
    expect(policy.takeRequest('principal-b', 'subscription-1', 'read').isAllowed).toBe(true);
    expect(policy.takeRequest('principal-a', 'subscription-2', 'read').isAllowed).toBe(true);
    expect(policy.takeRequest('principal-a', 'subscription-1', 'write').remaining).toBe(199);
  });

  it('allows twelve updates of a machine, then one every fifteen seconds', () => {
    const clock = createClock();
    const policy = new ThrottlePolicy(azureThrottleLimits, true, clock.read);
    for (let index = 0; index < 12; index += 1)
      expect(policy.takeVirtualMachineUpdate('vm-1').isAllowed).toBe(true);
    expect(policy.takeVirtualMachineUpdate('vm-1')).toMatchObject({
      isAllowed: false,
      retryAfterSeconds: 15,
    });
    clock.advance(15_000);
    expect(policy.takeVirtualMachineUpdate('vm-1').isAllowed).toBe(true);
  });

  it('counts but never refuses when disabled', () => {
    const clock = createClock();
    const policy = new ThrottlePolicy({ ...azureThrottleLimits, readCapacity: 2 }, false, clock.read);
    const decisions = [1, 2, 3, 4].map(() => policy.takeRequest('principal', 'subscription', 'read'));
    expect(decisions.every((decision) => decision.isAllowed)).toBe(true);
    expect(decisions[1]?.remaining).toBe(0);
  });
});
