// How a pipeline run hears that a change it asked for ended without being made: automation calls the
// listener the container gives it (PipelinesService's) in the transaction that records the change's
// end, so the run's item and the change commit together. Apart from the service and the executor so
// both take it without importing pipelines: only modules/automation writes scheduled changes.
import type { PipelineSkipReason } from '@cloudtrim/contracts/pipelines';
import type { Transaction } from '../../db/transaction';

export interface PipelineChangeSettlement {
  runId: string;
  resourceId: string;
  outcome: 'failed' | 'cancelled';
  // The executor's reason, as the automation log words it after "failed: " or "cancelled: ".
  reason: string;
  // A cancellation that is no failure of the run's, as the run counts it: the guard's hold after a
  // rollback ('held'), a recommendation replaced or withdrawn ('noRecommendation'; the next run takes
  // the new one), a resource set to No Change ('optedOut') or gone ('notApplicable'). Null: failed.
  skip: Extract<PipelineSkipReason, 'held' | 'noRecommendation' | 'optedOut' | 'notApplicable'> | null;
}

export type PipelineChangeListener = (
  transaction: Transaction,
  settlement: PipelineChangeSettlement,
) => Promise<void>;
