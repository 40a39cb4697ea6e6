// The builder's live dry run, and what a run's stops save (list prices and bills) and which days of
// cost its condition reads: the evaluation's inputs that a preview and a run share.
import { roundCents } from '@cloudtrim/contracts/money';
import {
  pipelineDefinitionSchema,
  type PipelineDefinition,
  type PipelinePreviewResponse,
} from '@cloudtrim/contracts/pipelines';
import { dayMs } from '../../lib/time';
import { readBillDays } from '../recommendations/own-rates';
import type { PipelineDeps } from './pipelines.context';
import { parse, toItem, toItemRow } from './pipelines.mapping';
import {
  evaluatePipeline,
  listStopTargets,
  type PipelineCandidate,
  type StopSaving,
} from './pipelines.match';
import type { PipelineReads } from './pipelines.reads';
import type { PipelinesRepository } from './pipelines.repository';
import { estimateStopSavings } from './pipelines.savings';

export class PipelinePreview {
  constructor(private readonly deps: PipelineDeps) {}

  // The builder's live dry run: the definition against the team's resources now. Nothing is written,
  // in Azure or here, and in-a-row is not counted.
  async previewPipeline(teamId: string, input: unknown): Promise<PipelinePreviewResponse> {
    const definition = parse(pipelineDefinitionSchema, input);
    const candidates = await this.deps.reads.listCandidates(teamId, {
      scope: definition.scope,
      costFrom: this.findCostFrom(definition),
    });
    const now = this.deps.now();
    const items = evaluatePipeline(definition, candidates, {
      now,
      dryRun: true,
      stopSavings: await this.estimateStopSavings(
        this.deps.pipelines,
        this.deps.reads,
        teamId,
        definition,
        candidates,
        now,
      ),
    });
    const wouldAct = items.filter((item) => item.outcome === 'matched');
    return {
      items: items.map((item) => toItem(toItemRow('', item, null))),
      matched: items.length,
      wouldAct: wouldAct.length,
      annualSaving: roundCents(wouldAct.reduce((total, item) => total + item.annualSaving, 0)),
    };
  }

  // What a stop saves on each running VM it matches, while off until the team's start pipelines bring
  // it back (pipelines.savings.ts): list prices in one read, bills in one a tenant.
  async estimateStopSavings(
    pipelines: PipelinesRepository,
    reads: PipelineReads,
    teamId: string,
    definition: PipelineDefinition,
    candidates: PipelineCandidate[],
    at: Date,
  ): Promise<Map<string, StopSaving> | undefined> {
    const targets = listStopTargets(definition, candidates);
    if (targets.length === 0) return undefined;
    const { from, to } = readBillDays(at);
    const [starts, listPrices, bills] = await Promise.all([
      pipelines.listStartPipelines(teamId),
      reads.listVmListPrices(targets.map((target) => target.resourceId)),
      Promise.all(
        [...new Set(targets.map((target) => target.tenantId))].map((tenantId) =>
          this.deps.bills.listVmBills(tenantId, from, to),
        ),
      ),
    ]);
    const billByArmId = new Map(bills.flat().map((bill) => [bill.armId, bill]));
    return estimateStopSavings(
      definition.schedule,
      starts,
      targets,
      (target) => ({
        bill: billByArmId.get(target.armId.toLowerCase()),
        listHourly: listPrices.get(target.resourceId),
      }),
      at,
    );
  }

  findCostFrom(definition: PipelineDefinition): string | undefined {
    if (definition.condition.finding?.kind !== 'costOver') return undefined;
    return new Date(this.deps.now().getTime() - 30 * dayMs).toISOString().slice(0, 10);
  }
}
