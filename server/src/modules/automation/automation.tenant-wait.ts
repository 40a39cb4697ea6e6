// A change whose tenant cannot be worked on. Inactive (or gone): a change not begun in Azure ends
// cancelled; one half-way waits. A secret missing or unreadable: the change waits for it (the
// tenant's status already says to add it again), and the VM's log and Recent Activity say so once.
import type { TransactionRunner } from '../../db/transaction';
import { AutomationRepository, logEntryOf, type ChangeWithResource } from './automation.repository';
import type { ChangeOutcomes } from './automation.outcomes';
import { inFlight } from './automation.run-lease';
import { inactiveTenantReason } from './automation.still-wanted';
import { describeChange } from './automation.wording';

export class TenantWait {
  constructor(
    private readonly automation: AutomationRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly now: () => Date,
    private readonly outcomes: ChangeOutcomes,
    // How long a run waits for a tenant's secret to come back (ExecutorOptions.credentialsWaitMs).
    private readonly credentialsWaitMs: number,
  ) {}

  async waitForTenant(change: ChangeWithResource, token: string): Promise<void> {
    const reasons = await this.automation.readChangeReasons(change.id);
    if (!reasons) return;
    const hasBegun = change.wasRunning !== null;
    if (!reasons.isTenantActive && !hasBegun) {
      const action = `${describeChange(change)} cancelled: the tenant is inactive`;
      const isRecorded = await this.runTransaction(async (transaction) => {
        const automation = new AutomationRepository(transaction.db);
        const updated = await automation.updateRun(change.id, token, ['claimed'], {
          state: 'cancelled',
          error: 'the tenant is inactive',
          completedAt: this.now(),
          claimToken: null,
          leaseUntil: null,
        });
        if (updated) {
          await automation.log.insertLog(logEntryOf(change, action));
          await this.outcomes.tellPipeline(transaction, change, 'cancelled', inactiveTenantReason);
        }
        return updated;
      });
      if (isRecorded) await this.outcomes.recordActivity(change, action);
      return;
    }
    const why = reasons.isTenantActive
      ? "the tenant's secret is missing or cannot be read; add the tenant again with its secret"
      : 'the tenant is inactive';
    const waitingText = `waiting: ${why}`;
    const isNew = change.error !== waitingText;
    const retryAt = new Date(this.now().getTime() + this.credentialsWaitMs);
    const updated = await this.automation.updateRun(change.id, token, inFlight, {
      error: waitingText,
      claimToken: null,
      leaseUntil: retryAt,
    });
    if (updated && isNew) {
      const action = `Needs attention: ${describeChange(change)} is waiting because ${why}`;
      await this.outcomes.log(change, action);
      await this.outcomes.recordActivity(change, action);
    }
  }
}
