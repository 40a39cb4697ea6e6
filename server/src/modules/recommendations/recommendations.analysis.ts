// The analysis pipeline: after a collection cycle, each VM whose data changed is analysed by the
// rightsizing core on its hourly series over the team's lookback, with its region's catalogue and
// prices, and the tenant's disks, public IPs, stopped VMs, plans and databases are judged by the
// waste finders; both price at list, and their savings are repriced from the tenant's bill
// (own-rates.ts, waste-own-rates.ts). Conclusions are reconciled with the open recommendations
// (analysis-reconciler.ts) and kept with their history.
import { automationValues } from '@cloudtrim/contracts/automation';
import { wastePredictionMethod } from '@cloudtrim/contracts/recommendations';
import { analyseVm } from '@cloudtrim/rightsizing/analyse-vm';
import {
  vmRecommendationKinds,
  type Proposal,
  type RecommendationKind,
} from '@cloudtrim/rightsizing/analysis.types';
import { isPredictionMethodId, type PredictionMethodId } from '@cloudtrim/rightsizing/prediction-methods';
import { findWaste, wasteResourceTypes } from '@cloudtrim/rightsizing/waste/find-waste';
import type { WastePriceBook } from '@cloudtrim/rightsizing/waste/waste-prices';
import type { WasteKind, WasteProposal } from '@cloudtrim/rightsizing/waste/waste.types';
import type { CloudCallOptions } from '../../cloud/cloud-provider';
import { settleAll, yieldToEventLoop } from '../../lib/concurrency';
import { activityServiceNames, type ActivityService } from '../activity/activity.service';
import type { AutomationService } from '../automation/automation.service';
import type { PricingService, RegionCatalogue } from '../pricing/pricing.service';
import { buildVmInput, buildWasteCandidate, findSizePrice, readOsType, toBill } from './analysis-input';
import { reconcile, withdrawAll, type Conclusion, type Reconciliation } from './analysis-reconciler';
import type { HourlySeries } from './hourly-series';
import type {
  DueVm,
  NewRecommendation,
  OpenRecommendation,
  RecommendationsRepository,
  RefreshedRecommendation,
  TenantAnalysisScope,
  WasteResourceRow,
} from './recommendations.repository';
import { priceAtOwnRates, readBillDays, readRegionRatio, type OwnRates } from './own-rates';
import { priceWasteAtOwnRates, readCategoryRatio } from './waste-own-rates';
import { hourMs, dayMs } from '../../lib/time';

// VMs read and written per round trip: 800 metrics, ~3 MB of packed days over 14 days.
const batchSize = 200;
// Waste resources read and written per round trip: their rows are small, a plan's or database's
// use a few metrics.
const wasteBatchSize = 1000;
export const defaultPredictionMethod: PredictionMethodId = 'cloudtrim-forecast';
const noChangeAutomated = automationValues.noChange;
const vmKinds: ReadonlySet<RecommendationKind> = new Set(vmRecommendationKinds);

export interface AnalysisSummary {
  analysedCount: number;
  newCount: number;
  supersededCount: number;
  newAnnualCostSavings: number;
  // The disks, public IPs, stopped VMs, plans and databases judged, and what they added.
  wasteJudgedCount: number;
  wasteNewCount: number;
  wasteNewAnnualCostSavings: number;
  catalogueFailures: string[];
}

// A batch of due VMs as read together: their facts, their hourly series, what is on offer for them.
interface DueBatch {
  vms: DueVm[];
  hourlyByVm: Map<string, HourlySeries>;
  open: OpenRecommendation[];
}

// One analysis's clock: whole hours only (the hour under way has no aggregate yet).
interface AnalysisWindow {
  at: Date;
  since: Date;
  until: Date;
}

type CatalogueLoader = (region: string) => Promise<RegionCatalogue>;
type VmRatesReader = (armId: string, region: string) => Promise<OwnRates>;
type WastePricer = (row: WasteResourceRow, proposal: WasteProposal) => WasteProposal;

export class RecommendationsAnalysis {
  constructor(
    private readonly recommendations: RecommendationsRepository,
    private readonly pricing: Pick<PricingService, 'ensureFreshForTenant' | 'loadCatalogue'>,
    // The list prices of disks, snapshots, public IPs, plans and databases (the pricing module's).
    private readonly wastePrices: Pick<PricingService, 'loadWastePriceBook'>,
    private readonly activity: ActivityService,
    private readonly changes: Pick<AutomationService, 'cancelChangesOfRecommendations'>,
    private readonly now: () => Date,
  ) {}

  // Analyses the tenant's VMs whose metrics changed since their last analysis, and judges its other
  // resources for waste. Undefined when the tenant is gone or inactive.
  async analyseTenant(
    tenantId: string,
    options: CloudCallOptions = {},
  ): Promise<AnalysisSummary | undefined> {
    const scope = await this.recommendations.findTenantScope(tenantId);
    if (!scope) return undefined;
    const refresh = await this.pricing.ensureFreshForTenant(tenantId, options);
    const summary: AnalysisSummary = {
      analysedCount: 0,
      newCount: 0,
      supersededCount: 0,
      newAnnualCostSavings: 0,
      wasteJudgedCount: 0,
      wasteNewCount: 0,
      wasteNewAnnualCostSavings: 0,
      catalogueFailures: refresh.failures,
    };
    const catalogues = new Map<string, Promise<RegionCatalogue>>();
    const loadCatalogue: CatalogueLoader = (region) => {
      let catalogue = catalogues.get(region);
      if (!catalogue) {
        catalogue = this.pricing.loadCatalogue(region);
        catalogues.set(region, catalogue);
      }
      return catalogue;
    };
    const at = this.now();
    const until = new Date(Math.floor(at.getTime() / hourMs) * hourMs);
    const window: AnalysisWindow = {
      at,
      until,
      since: new Date(until.getTime() - scope.lookbackDays * dayMs),
    };
    const vmRates = await this.readOwnRates(tenantId, until, loadCatalogue);
    // The VMs' kinds and the waste finders' are judged on rows of their own, so the two run side by
    // side: one's reads from PostgreSQL overlap the other's analysis.
    await settleAll([
      this.analyseVms(tenantId, scope, window, loadCatalogue, vmRates, summary, options),
      this.judgeWaste(tenantId, scope, window, loadCatalogue, vmRates, summary, options),
    ]);
    await this.recommendations.refreshStatistics(
      summary.newCount + summary.wasteNewCount + summary.supersededCount,
    );
    await this.recordActivity(scope.teamId, tenantId, summary);
    return summary;
  }

  private async analyseVms(
    tenantId: string,
    scope: TenantAnalysisScope,
    window: AnalysisWindow,
    loadCatalogue: CatalogueLoader,
    ownRates: VmRatesReader,
    summary: AnalysisSummary,
    options: CloudCallOptions,
  ): Promise<void> {
    const { at, since, until } = window;
    // The due VMs are listed once, then read and written 200 at a time.
    const due = await this.recommendations.listDueVms(tenantId);
    const readBatch = async (start: number): Promise<DueBatch | undefined> => {
      if (start >= due.length) return undefined;
      const batch = due.slice(start, start + batchSize);
      const resourceIds = batch.map((vm) => vm.id);
      const [vms, hourlyByVm, open] = await Promise.all([
        this.recommendations.findVms(batch),
        this.recommendations.listHourlySeries(resourceIds, since, until),
        this.recommendations.listOpen(resourceIds),
      ]);
      return { vms, hourlyByVm, open };
    };
    let nextStart = 0;
    let nextBatch = readBatch(nextStart);
    // A batch's write runs while the next one is analysed (PostgreSQL writing on the other core);
    // the next write waits for it, so at most one is in flight, and none outlives the pass.
    let pendingWrite: Promise<void> | undefined;
    try {
      for (;;) {
        options.signal?.throwIfAborted();
        const batch = await nextBatch;
        if (!batch) break;
        const { vms } = batch;
        // The next batch is read while this one is analysed and written: PostgreSQL works on the
        // other core. A read that fails is met when its turn comes.
        nextStart += batchSize;
        nextBatch = readBatch(nextStart);
        nextBatch.catch(() => {});
        const write = await this.analyseBatch(scope, tenantId, window, batch, loadCatalogue, ownRates);
        await pendingWrite;
        pendingWrite = this.writeBatch(
          write,
          vms.map((vm) => ({ resourceId: vm.id, collectedUntil: vm.collectedUntil })),
          at,
        ).then(() => {
          summary.analysedCount += vms.length;
          summary.newCount += write.inserted.length;
          summary.supersededCount += write.supersededIds.length;
          summary.newAnnualCostSavings += write.newAnnualCostSavings;
        });
        // Met by the next batch or the pass's end; until then it is not unhandled.
        pendingWrite.catch(() => {});
      }
      await pendingWrite;
    } finally {
      // A pass that fails or is aborted returns only once its last write has ended.
      await pendingWrite?.catch(() => {});
    }
  }

  // The waste finders over the tenant's disks, public IPs, stopped VMs, plans and databases, a
  // thousand resources a round trip; what they find is repriced from the bill like the VMs'.
  private async judgeWaste(
    tenantId: string,
    scope: TenantAnalysisScope,
    { at, since, until }: AnalysisWindow,
    loadCatalogue: CatalogueLoader,
    vmRates: VmRatesReader,
    summary: AnalysisSummary,
    options: CloudCallOptions,
  ): Promise<void> {
    const resources = await this.recommendations.listDueWasteResources(tenantId, until);
    if (resources.length === 0) return;
    const prices = await this.wastePrices.loadWastePriceBook([
      ...new Set(resources.map((row) => row.region)),
    ]);
    // The bill of the tenant's disks, IPs, plans and databases is read once, when the first waste
    // among them is found: within the hour only stopped VMs are judged, and they need none of it.
    let wastePricer: Promise<WastePricer> | undefined;
    const priceWaste = async (row: WasteResourceRow, proposal: WasteProposal, vmHourly: number | null) => {
      if (proposal.kind === 'deallocate') {
        return priceAtOwnRates(
          proposal,
          { current: vmHourly ?? undefined, target: undefined },
          await vmRates(row.armId, row.region),
        );
      }
      wastePricer ??= this.readWasteRates(tenantId, until, prices);
      return (await wastePricer)(row, proposal);
    };
    for (let start = 0; start < resources.length; start += wasteBatchSize) {
      options.signal?.throwIfAborted();
      const rows = resources.slice(start, start + wasteBatchSize);
      const usageIds = rows.filter((row) => hasUsage(row.type)).map((row) => row.id);
      const [usageByResource, open] = await Promise.all([
        this.recommendations.listUsageSeries(usageIds, since, until),
        this.recommendations.listOpen(rows.map((row) => row.id)),
      ]);
      const openByResource = groupBy(open, (row) => row.resourceId);
      const write = new BatchWrite(scope.teamId, tenantId);
      for (const row of rows) {
        const isVm = row.type.toLowerCase() === wasteResourceTypes.virtualMachine;
        // A VM's own kinds are the VM analysis's.
        const openRows = (openByResource.get(row.id) ?? []).filter(
          (item) => !isVm || !vmKinds.has(item.kind),
        );
        if (row.automated === noChangeAutomated) {
          write.add(row.id, withdrawAll(openRows));
          continue;
        }
        const vmHourly =
          isVm && row.sku
            ? (findSizePrice(await loadCatalogue(row.region), row.sku, row.osType)?.hourlyPrice ?? null)
            : null;
        const candidate = buildWasteCandidate(row, usageByResource.get(row.id), vmHourly);
        const findings = findWaste(candidate, prices, at.getTime());
        const conclusions: Conclusion[] = [];
        for (const finding of findings) {
          if (finding.verdict !== 'waste') continue;
          conclusions.push(wasteConclusion(await priceWaste(row, finding.proposal, vmHourly)));
        }
        const judgedKinds = new Set<WasteKind>(
          findings.filter((finding) => finding.verdict !== 'unjudged').map((finding) => finding.kind),
        );
        write.add(row.id, reconcile(conclusions, openRows, judgedKinds));
      }
      await this.writeBatch(
        write,
        // VMs keep the hour their metrics were analysed to: they are judged here on every run.
        rows
          .filter((row) => row.type.toLowerCase() !== wasteResourceTypes.virtualMachine)
          .map((row) => ({ resourceId: row.id, collectedUntil: until })),
        at,
      );
      summary.wasteJudgedCount += rows.length;
      summary.wasteNewCount += write.inserted.length;
      summary.supersededCount += write.supersededIds.length;
      summary.wasteNewAnnualCostSavings += write.newAnnualCostSavings;
      await yieldToEventLoop();
    }
  }

  // One batch's VMs judged: what each VM's analysis concludes, reconciled with what is on offer.
  private async analyseBatch(
    scope: TenantAnalysisScope,
    tenantId: string,
    { at, since, until }: AnalysisWindow,
    { vms, hourlyByVm, open }: DueBatch,
    loadCatalogue: CatalogueLoader,
    ownRates: VmRatesReader,
  ): Promise<BatchWrite> {
    const openByVm = groupBy(open, (row) => row.resourceId);
    const write = new BatchWrite(scope.teamId, tenantId);
    for (const vm of vms) {
      // The VM analysis judges its own kinds; a deallocation on offer is the waste finders'.
      const openRows = (openByVm.get(vm.id) ?? []).filter((row) => vmKinds.has(row.kind));
      if (vm.automated === noChangeAutomated) {
        // "No Change": nothing is recommended, and what was on offer is withdrawn.
        write.add(vm.id, withdrawAll(openRows));
        continue;
      }
      const catalogue = await loadCatalogue(vm.region);
      const input = buildVmInput(vm, hourlyByVm.get(vm.id), catalogue, openRows, since, until, at);
      if (!input) continue;
      const method = isPredictionMethodId(vm.predictionMethod)
        ? vm.predictionMethod
        : defaultPredictionMethod;
      const analysis = analyseVm(input, { method });
      const isHeld = vm.recommendationsHeldUntil !== null && vm.recommendationsHeldUntil > at;
      const rates = await ownRates(vm.armId, vm.region);
      const prices = catalogue.pricesByOs[input.osType];
      const conclusions = analysis.proposals
        .filter((proposal) => !(isHeld && proposal.kind === 'resize'))
        .map((proposal) =>
          toConclusion(
            priceAtOwnRates(
              proposal,
              {
                current: prices.get(proposal.currentSize)?.hourlyPrice,
                target: proposal.targetSize ? prices.get(proposal.targetSize)?.hourlyPrice : undefined,
              },
              rates,
            ),
            until.getTime(),
          ),
        );
      // A VM that could not be judged (too little history, no price) keeps what is on offer.
      const judgedKinds = analysis.isJudged ? vmKinds : new Set(conclusions.map((item) => item.kind));
      write.add(vm.id, reconcile(conclusions, openRows, judgedKinds));
      // Each VM's analysis is CPU work of its own: requests are served between VMs.
      await yieldToEventLoop();
    }
    return write;
  }

  private async writeBatch(
    write: BatchWrite,
    analysed: { resourceId: string; collectedUntil: Date }[],
    at: Date,
  ): Promise<void> {
    await this.recommendations.writeAnalysis({
      inserted: write.inserted,
      refreshed: write.refreshed,
      supersededIds: write.supersededIds,
      analysed,
      at,
    });
    await this.changes.cancelChangesOfRecommendations(
      write.supersededIds,
      'a newer recommendation has replaced this one',
    );
  }

  // Each VM's bill over the priced days, and per region the discount the bill shows: what the
  // tenant's pay-as-you-go VMs cost against their list price.
  private async readOwnRates(
    tenantId: string,
    until: Date,
    loadCatalogue: CatalogueLoader,
  ): Promise<VmRatesReader> {
    const { from, to } = readBillDays(until);
    const rows = await this.recommendations.listVmBills(tenantId, from, to);
    const billByArmId = new Map(rows.map((row) => [row.armId, toBill(row)]));
    const ratios = new Map<string, Promise<number | undefined>>();
    const readRatio = async (region: string) => {
      const catalogue = await loadCatalogue(region);
      return readRegionRatio(
        rows
          .filter((row) => row.region === region && row.sku)
          .map((row) => ({
            bill: toBill(row),
            listHourly: catalogue.pricesByOs[readOsType(row.osType)].get(row.sku!)?.hourlyPrice,
          })),
      );
    };
    return async (armId, region) => {
      let ratio = ratios.get(region);
      if (!ratio) {
        ratio = readRatio(region);
        ratios.set(region, ratio);
      }
      return { bill: billByArmId.get(armId.toLowerCase()), regionRatio: await ratio };
    };
  }

  // Each disk's, IP's, plan's and database's bill over the priced days, and per kind and region the
  // discount the bill shows: what the tenant's resources of that kind paying as they go cost against
  // their list price.
  private async readWasteRates(tenantId: string, until: Date, prices: WastePriceBook): Promise<WastePricer> {
    const { from, to } = readBillDays(until);
    const rows = await this.recommendations.listWasteBills(tenantId, from, to);
    const billByArmId = new Map(rows.map((row) => [row.armId, row]));
    const rowsByCategory = groupBy(rows, (row) => `${row.type}|${row.region}`);
    const ratios = new Map<string, number | undefined>();
    const readRatio = (type: string, region: string) => {
      const key = `${type.toLowerCase()}|${region}`;
      if (!ratios.has(key)) {
        const billed = (rowsByCategory.get(key) ?? []).map((row) => ({ resource: row, bill: row }));
        ratios.set(key, readCategoryRatio(billed, prices));
      }
      return ratios.get(key);
    };
    return (row, proposal) =>
      priceWasteAtOwnRates(proposal, row, prices, {
        bill: billByArmId.get(row.armId.toLowerCase()),
        categoryRatio: readRatio(row.type, row.region),
      });
  }

  private async recordActivity(teamId: string, tenantId: string, summary: AnalysisSummary): Promise<void> {
    const entries = [];
    if (summary.newCount > 0) {
      entries.push(
        `Analysed ${summary.analysedCount} virtual machines: ${describeNew(summary.newCount, summary.newAnnualCostSavings)}`,
      );
    }
    if (summary.wasteNewCount > 0) {
      entries.push(
        `Looked for unused and oversized disks, public IPs, stopped VMs, plans and databases among ${summary.wasteJudgedCount} resources: ` +
          describeNew(summary.wasteNewCount, summary.wasteNewAnnualCostSavings),
      );
    }
    for (const failure of summary.catalogueFailures) {
      entries.push(`Size catalogue could not be read: ${failure}`);
    }
    await this.activity.record(
      entries.map((logText) => ({
        teamId,
        tenantId,
        serviceName: activityServiceNames.recommendations,
        resourceArmId: null,
        logText,
      })),
    );
  }
}

function describeNew(count: number, annualCostSavings: number): string {
  const savings = annualCostSavings.toLocaleString('en-US', {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  });
  return `${count} new ${count === 1 ? 'recommendation' : 'recommendations'}, $${savings} a year on offer`;
}

// What one round trip writes, gathered resource by resource.
class BatchWrite {
  readonly inserted: NewRecommendation[] = [];
  readonly refreshed: RefreshedRecommendation[] = [];
  readonly supersededIds: number[] = [];
  newAnnualCostSavings = 0;

  constructor(
    private readonly teamId: string,
    private readonly tenantId: string,
  ) {}

  add(resourceId: string, reconciliation: Reconciliation): void {
    this.supersededIds.push(...reconciliation.supersededIds);
    this.refreshed.push(...reconciliation.refreshed);
    for (const conclusion of reconciliation.inserted) {
      this.inserted.push(toNewRecommendation(this.teamId, this.tenantId, resourceId, conclusion));
      this.newAnnualCostSavings += conclusion.annualCostSavings;
    }
  }
}

function hasUsage(type: string): boolean {
  const lowerType = type.toLowerCase();
  return lowerType === wasteResourceTypes.plan || lowerType === wasteResourceTypes.database;
}

function toConclusion(proposal: Proposal, untilMs: number): Conclusion {
  return {
    kind: proposal.kind,
    predictionMethod: proposal.predictionMethod,
    currentSize: proposal.currentSize,
    targetSize: proposal.targetSize,
    activeHours: proposal.activeHours,
    recommendation: proposal.recommendation,
    memo: proposal.memo,
    annualCostSavings: proposal.annualCostSavings,
    confidence: proposal.confidence,
    evidence: { untilMs, thresholds: proposal.thresholds },
  };
}

function wasteConclusion(proposal: WasteProposal): Conclusion {
  return { ...proposal, predictionMethod: wastePredictionMethod, activeHours: null, evidence: null };
}

function toNewRecommendation(
  teamId: string,
  tenantId: string,
  resourceId: string,
  conclusion: Conclusion,
): NewRecommendation {
  return {
    teamId,
    tenantId,
    resourceId,
    kind: conclusion.kind,
    predictionMethod: conclusion.predictionMethod,
    currentSize: conclusion.currentSize,
    targetSize: conclusion.targetSize,
    activeHoursStart: conclusion.activeHours?.start ?? null,
    activeHoursEnd: conclusion.activeHours?.end ?? null,
    recommendation: conclusion.recommendation,
    memo: conclusion.memo,
    annualCostSavings: conclusion.annualCostSavings,
    confidence: conclusion.confidence,
    evidence: conclusion.evidence,
  };
}

function groupBy<Item>(items: Item[], keyOf: (item: Item) => string): Map<string, Item[]> {
  const groups = new Map<string, Item[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}
