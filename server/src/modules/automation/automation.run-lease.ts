// A run's hold on its change: the claim token that fences every write of the run, the lease it
// renews (also the fence before each write to Azure), and letting the change go for the next run.
import type {
  CloudCredentials,
  CloudResourceState,
  CloudVirtualMachineState,
} from '../../cloud/cloud-provider';
import type { AutomationRepository, ChangeState, ChangeWithResource } from './automation.repository';

export const inFlight: ChangeState[] = ['claimed', 'submitted'];

// The run no longer holds its change (its lease lapsed and another run took it, or the change was
// ended meanwhile): it stops without another write.
export class LostChangeError extends Error {
  constructor() {
    super('The change is no longer held by this run.');
  }
}

// One run of one change: the change as this run knows it, and the token that fences its writes.
export interface Run {
  change: ChangeWithResource;
  token: string;
  attempts: number;
  credentials: CloudCredentials;
  signal: AbortSignal | undefined;
  // The VM as this run read it before acting; undefined for a run that resumed another's work.
  observed?: CloudVirtualMachineState;
  // Likewise a disk, IP, plan or database.
  observedResource?: CloudResourceState;
}

export class RunLease {
  constructor(
    private readonly automation: AutomationRepository,
    private readonly now: () => Date,
    // How long a run holds its change without renewing it (ExecutorOptions.leaseMs).
    private readonly leaseMs: number,
    private readonly sleep: (ms: number) => Promise<void>,
  ) {}

  // Lets the change go for the next run (a pg-boss retry, or the dispatcher after `retryAt`).
  async release(run: Run, retryAt: Date): Promise<void> {
    await this.automation.updateRun(run.change.id, run.token, inFlight, {
      claimToken: null,
      leaseUntil: retryAt,
    });
  }

  // Also the fence before each write to Azure: the run must still hold the change.
  async renew(run: Run): Promise<void> {
    run.signal?.throwIfAborted();
    const isHeld = await this.automation.updateRun(run.change.id, run.token, inFlight, {
      leaseUntil: this.end(),
    });
    if (!isHeld) throw new LostChangeError();
  }

  async pause(run: Run, ms: number): Promise<void> {
    run.signal?.throwIfAborted();
    await this.sleep(ms);
  }

  async updateRun(
    run: Run,
    fromStates: ChangeState[],
    fields: Parameters<AutomationRepository['updateRun']>[3],
  ): Promise<void> {
    if (!(await this.automation.updateRun(run.change.id, run.token, fromStates, fields))) {
      throw new LostChangeError();
    }
  }

  end(): Date {
    return new Date(this.now().getTime() + this.leaseMs);
  }
}
