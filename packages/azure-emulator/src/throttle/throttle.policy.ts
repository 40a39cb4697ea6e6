import { TokenBucket, type BucketDecision } from './throttle.bucket';

export interface ThrottleLimits {
  readonly readCapacity: number;
  readonly readRefillPerSecond: number;
  readonly writeCapacity: number;
  readonly writeRefillPerSecond: number;
  readonly virtualMachineUpdateCapacity: number;
  readonly virtualMachineUpdateRefillPerMinute: number;
  /** Cost Management queries a scope may burst (its QPU budget, counted in queries). */
  readonly costQueryCapacity: number;
  readonly costQueryRefillPerMinute: number;
}

/** Azure Resource Manager's published per-subscription limits and Compute's per-VM update limit. */
export const azureThrottleLimits: ThrottleLimits = {
  readCapacity: 250,
  readRefillPerSecond: 25,
  writeCapacity: 200,
  writeRefillPerSecond: 10,
  virtualMachineUpdateCapacity: 12,
  virtualMachineUpdateRefillPerMinute: 4,
  // Cost Management answers about four queries a minute per scope before its QPU limit refuses.
  costQueryCapacity: 4,
  costQueryRefillPerMinute: 4,
};

export type RequestWeight = 'read' | 'write';

const cleanupEveryTakes = 5000;

/**
 * Holds one bucket per (principal, scope, weight) and one per virtual machine for updates.
 * When disabled it still counts, so the remaining-request headers stay meaningful.
 */
export class ThrottlePolicy {
  private readonly buckets = new Map<string, TokenBucket>();
  private takesSinceCleanup = 0;

  constructor(
    readonly limits: ThrottleLimits,
    public isEnabled: boolean,
    private readonly readClockMs: () => number = () => performance.now(),
  ) {}

  takeRequest(principalId: string, scope: string, weight: RequestWeight): BucketDecision {
    const capacity = weight === 'read' ? this.limits.readCapacity : this.limits.writeCapacity;
    const refill = weight === 'read' ? this.limits.readRefillPerSecond : this.limits.writeRefillPerSecond;
    return this.take(`${weight}|${principalId}|${scope}`, capacity, refill);
  }

  takeVirtualMachineUpdate(resourceKey: string): BucketDecision {
    return this.take(
      `vm-update|${resourceKey}`,
      this.limits.virtualMachineUpdateCapacity,
      this.limits.virtualMachineUpdateRefillPerMinute / 60,
    );
  }

  /** One Cost Management query against a scope (a subscription or a resource group). */
  takeCostQuery(scope: string): BucketDecision {
    return this.take(
      `cost-query|${scope.toLowerCase()}`,
      this.limits.costQueryCapacity,
      this.limits.costQueryRefillPerMinute / 60,
    );
  }

  private take(key: string, capacity: number, refillPerSecond: number): BucketDecision {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = new TokenBucket(capacity, refillPerSecond, this.readClockMs);
      this.buckets.set(key, bucket);
    }
    this.takesSinceCleanup += 1;
    if (this.takesSinceCleanup >= cleanupEveryTakes) this.dropFullBuckets();
    const decision = bucket.tryTake();
    if (decision.isAllowed || this.isEnabled) return decision;
    return { isAllowed: true, remaining: 0, retryAfterSeconds: 0 };
  }

  // A full bucket behaves exactly like a new one, so dropping it keeps memory bounded.
  private dropFullBuckets(): void {
    this.takesSinceCleanup = 0;
    for (const [key, bucket] of this.buckets) {
      if (bucket.isFull()) this.buckets.delete(key);
    }
  }
}
