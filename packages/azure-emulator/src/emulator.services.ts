import type { OperationStore } from './arm/operation.store';
import type { CostLedger } from './costs/cost.ledger';
import type { EmulatorStats } from './emulator.stats';
import type { FaultInjector } from './faults/fault.injector';
import type { Fleet } from './fleet/fleet.model';
import type { TokenService } from './identity/token.service';
import type { SecurityEstate } from './security/security.estate';
import type { ThrottlePolicy } from './throttle/throttle.policy';

export interface EmulatorSettings {
  /** Items per page of paged Resource Manager lists. */
  readonly pageSize: number;
  /** The emulated clock: metrics end here, and sizes and power states change here. */
  readonly readNow: () => Date;
  /**
   * A running VM's hardware cluster offers only its own size family: a resize to another family
   * fails with 409 OperationNotAllowed until the VM is deallocated, as Azure answers.
   */
  readonly isClusterBound: boolean;
  /**
   * vCPUs of one size family a subscription may hold in a region; a resize past it fails with 409
   * QuotaExceeded. Undefined: no quota. Changed at run time through `setVcpuQuota`.
   */
  vcpuQuotaPerFamily: number | undefined;
  /**
   * Sizes (lower case) Azure has no capacity for: a start on one ends Failed with AllocationFailed
   * and the VM stays deallocated. Changed at run time through `setUnallocatableSizes`.
   */
  unallocatableSizes: Set<string>;
}

/** Everything a route needs, built once per emulator. */
export interface EmulatorServices {
  readonly fleet: Fleet;
  readonly tokens: TokenService;
  readonly throttle: ThrottlePolicy;
  readonly operations: OperationStore;
  readonly stats: EmulatorStats;
  readonly faults: FaultInjector;
  readonly settings: EmulatorSettings;
  /** The fleet's bill, read by Cost Management's query and the budgets. */
  readonly costs: CostLedger;
  /** NSGs, storage, vaults, SQL settings and Defender for Cloud, read by security checks. */
  readonly security: SecurityEstate;
}
