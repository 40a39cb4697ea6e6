// What every part of the pipelines service is built on (PipelinesService builds them): the pool's
// repositories, the transaction runner, the services a run acts and tells through, and the clock.
import type { Db } from '../../db/database';
import type { TransactionRunner } from '../../db/transaction';
import type { AlertsService } from '../alerts/alerts.service';
import type { AutomationService } from '../automation/automation.service';
import type { MailService } from '../mail/mail.service';
import type { RecommendationsRepository } from '../recommendations/recommendations.repository';
import { ApprovalsRepository } from './pipelines.approvals.repository';
import { PipelineReads } from './pipelines.reads';
import { PipelinesRepository } from './pipelines.repository';
import { RunsRepository } from './pipelines.runs.repository';

export interface PipelineDeps {
  pipelines: PipelinesRepository;
  runs: RunsRepository;
  approvals: ApprovalsRepository;
  reads: PipelineReads;
  runTransaction: TransactionRunner;
  automation: Pick<AutomationService, 'requestChanges' | 'applyRecommendation'>;
  mail: Pick<MailService, 'enqueueMany'>;
  alerts: Pick<AlertsService, 'raise' | 'acknowledgeByKey' | 'reviseByKey'>;
  // A VM's bill, for what stopping it saves an hour.
  bills: Pick<RecommendationsRepository, 'listVmBills'>;
  publicUrl: string;
  now: () => Date;
}

// The pool's repositories on `db`.
export function createPoolRepositories(
  db: Db,
): Pick<PipelineDeps, 'pipelines' | 'runs' | 'approvals' | 'reads'> {
  return {
    pipelines: new PipelinesRepository(db),
    runs: new RunsRepository(db),
    approvals: new ApprovalsRepository(db),
    reads: new PipelineReads(db),
  };
}

// An item acted on through applyRecommendation after its run's transaction (it runs its own).
export interface PendingApply {
  itemId: number;
  recommendationId: number;
  resourceArmId: string;
  resourceName: string;
  tenantId: string | null;
}
