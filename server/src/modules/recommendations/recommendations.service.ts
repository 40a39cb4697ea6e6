// The recommendation engine's server side: after a collection cycle, each VM whose data changed is
// analysed by the rightsizing core on its hourly series over the team's lookback, with its region's
// catalogue and prices, and the conclusions are kept with their history: a new conclusion supersedes
// the open one of its kind, the same conclusion keeps its row.
import type {
  EvidenceSeries,
  MetricSeries,
  Proposal,
  SizeOption,
  VmAnalysis,
  VmAnalysisInput,
} from '@cloudtrim/rightsizing/analysis.types';
import {
  analyseVm,
  buildEvidence,
  evidenceDays,
  minimumHistoryDays,
} from '@cloudtrim/rightsizing/analyse-vm';
import { isPredictionMethodId, type PredictionMethodId } from '@cloudtrim/rightsizing/prediction-methods';
import type { Recommendation, RecommendationEvidence } from '@cloudtrim/contracts/recommendations';
import type { CloudCallOptions } from '../../cloud/cloud-provider';
import type { CloudWorkQueue } from '../../jobs/cloud-work';
import { yieldToEventLoop } from '../../lib/concurrency';
import { notFound } from '../../lib/http-errors';
import { activityServiceNames, type ActivityService } from '../activity/activity.service';
import type { AutomationService } from '../automation/automation.service';
import type { PricingService, RegionCatalogue } from '../pricing/pricing.service';
import type {
  DueVm,
  EvidenceRow,
  NewRecommendation,
  OpenRecommendation,
  RecommendationsRepository,
  RefreshedRecommendation,
  VmBillRow,
} from './recommendations.repository';
import type { HourlySeries } from './hourly-series';
import { priceAtOwnRates, readRegionRatio, type VmBill } from './own-rates';
import { readStoredEvidence, type EvidenceWindow } from './stored-evidence';

const hourMs = 60 * 60 * 1000;
const dayMs = 24 * hourMs;
const gibibyte = 1024 ** 3;
// VMs read and written per round trip: 800 metrics, ~3 MB of packed days over 14 days.
const batchSize = 200;
export const defaultPredictionMethod: PredictionMethodId = 'cloudtrim-forecast';
const noChangeAutomated = 2;
// The bill's days that price a VM: two weeks before the days Azure still settles.
const billDays = 14;
const billSettlingDays = 3;

export interface AnalysisSummary {
  analysedCount: number;
  newCount: number;
  supersededCount: number;
  newAnnualCostSavings: number;
  catalogueFailures: string[];
}

export class RecommendationsService {
  constructor(
    private readonly recommendations: RecommendationsRepository,
    private readonly pricing: PricingService,
    private readonly activity: ActivityService,
    private readonly work: CloudWorkQueue,
    private readonly changes: Pick<AutomationService, 'cancelChangesOfRecommendations'>,
    private readonly now: () => Date,
  ) {}

  // Queued after each collection cycle (and back-fill) of a tenant; one per tenant at a time.
  async enqueueAnalysis(tenantId: string): Promise<void> {
    await this.work.enqueueRecommendationsAnalysis(tenantId);
  }

  // After a back-fill: the history is new but the newest collected hour may not be, so the VMs are
  // made due again; otherwise one analysed on the first minutes (too little data) waits an hour.
  async enqueueReanalysis(tenantId: string): Promise<void> {
    await this.recommendations.markTenantDue(tenantId);
    await this.work.enqueueRecommendationsAnalysis(tenantId);
  }

  // Analyses the tenant's VMs whose metrics changed since their last analysis. Undefined when the
  // tenant is gone or inactive.
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
      catalogueFailures: refresh.failures,
    };
    const catalogues = new Map<string, Promise<RegionCatalogue>>();
    const loadCatalogue = (region: string) => {
      let catalogue = catalogues.get(region);
      if (!catalogue) {
        catalogue = this.pricing.loadCatalogue(region);
        catalogues.set(region, catalogue);
      }
      return catalogue;
    };
    const at = this.now();
    // Whole hours only: the hour under way has no aggregate yet.
    const until = new Date(Math.floor(at.getTime() / hourMs) * hourMs);
    const since = new Date(until.getTime() - scope.lookbackDays * dayMs);
    const ownRates = await this.readOwnRates(tenantId, until, loadCatalogue);
    // The due VMs are listed once, then read and written 200 at a time.
    const dueIds = await this.recommendations.listDueVmIds(tenantId);
    const readBatch = async (start: number) => {
      if (start >= dueIds.length) return undefined;
      const resourceIds = dueIds.slice(start, start + batchSize);
      const [vms, hourlyByVm, open] = await Promise.all([
        this.recommendations.findVms(resourceIds),
        this.recommendations.listHourlySeries(resourceIds, since, until),
        this.recommendations.listOpen(resourceIds),
      ]);
      return { vms, hourlyByVm, open };
    };
    let nextStart = 0;
    let nextBatch = readBatch(nextStart);
    for (;;) {
      options.signal?.throwIfAborted();
      const batch = await nextBatch;
      if (!batch) break;
      const { vms, hourlyByVm, open } = batch;
      // The next batch is read while this one is analysed and written: PostgreSQL works on the
      // other core. A read that fails is met when its turn comes.
      nextStart += batchSize;
      nextBatch = readBatch(nextStart);
      nextBatch.catch(() => {});
      const openByVm = groupBy(open, (row) => row.resourceId);
      const inserted: NewRecommendation[] = [];
      const refreshed: RefreshedRecommendation[] = [];
      const supersededIds: number[] = [];
      for (const vm of vms) {
        const openRows = openByVm.get(vm.id) ?? [];
        if (vm.automated === noChangeAutomated) {
          // "No Change": nothing is recommended, and what was on offer is withdrawn.
          supersededIds.push(...openRows.map((row) => row.id));
          continue;
        }
        const catalogue = await loadCatalogue(vm.region);
        const input = buildInput(vm, hourlyByVm.get(vm.id), catalogue, openRows, since, until, at);
        if (!input) continue;
        const method = isPredictionMethodId(vm.predictionMethod)
          ? vm.predictionMethod
          : defaultPredictionMethod;
        const analysis = analyseVm(input, { method });
        const isHeld = vm.recommendationsHeldUntil !== null && vm.recommendationsHeldUntil > at;
        const rates = await ownRates(vm.armId, vm.region);
        const prices = catalogue.pricesByOs[input.osType];
        const proposals = analysis.proposals
          .filter((proposal) => !(isHeld && proposal.kind === 'resize'))
          .map((proposal) =>
            priceAtOwnRates(
              proposal,
              {
                current: prices.get(proposal.currentSize)?.hourlyPrice,
                target: proposal.targetSize ? prices.get(proposal.targetSize)?.hourlyPrice : undefined,
              },
              rates,
            ),
          );
        const decision = decide(proposals, openRows, isConclusive(analysis, input), until.getTime());
        supersededIds.push(...decision.supersededIds);
        refreshed.push(...decision.refreshed);
        for (const proposal of decision.inserted) {
          inserted.push(toNewRecommendation(scope.teamId, tenantId, vm.id, proposal, until.getTime()));
          summary.newAnnualCostSavings += proposal.annualCostSavings;
        }
        // Each VM's analysis is CPU work of its own: requests are served between VMs.
        await yieldToEventLoop();
      }
      await this.recommendations.writeAnalysis({
        inserted,
        refreshed,
        supersededIds,
        analysed: vms.map((vm) => ({ resourceId: vm.id, collectedUntil: vm.collectedUntil })),
        at,
      });
      await this.changes.cancelChangesOfRecommendations(
        supersededIds,
        'a newer recommendation has replaced this one',
      );
      summary.analysedCount += vms.length;
      summary.newCount += inserted.length;
      summary.supersededCount += supersededIds.length;
    }
    await this.recordActivity(scope.teamId, tenantId, summary);
    return summary;
  }

  // Each VM's bill over the priced days, and per region the discount the bill shows: what the
  // tenant's pay-as-you-go VMs cost against their list price.
  private async readOwnRates(
    tenantId: string,
    until: Date,
    loadCatalogue: (region: string) => Promise<RegionCatalogue>,
  ) {
    const to = new Date(until.getTime() - billSettlingDays * dayMs).toISOString().slice(0, 10);
    const from = new Date(until.getTime() - (billSettlingDays + billDays) * dayMs).toISOString().slice(0, 10);
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
            listHourly: catalogue.pricesByOs[row.osType === 'Windows' ? 'Windows' : 'Linux'].get(row.sku!)
              ?.hourlyPrice,
          })),
      );
    };
    return async (armId: string, region: string) => {
      let ratio = ratios.get(region);
      if (!ratio) {
        ratio = readRatio(region);
        ratios.set(region, ratio);
      }
      return { bill: billByArmId.get(armId.toLowerCase()), regionRatio: await ratio };
    };
  }

  // For one resource the team does not have, 404 (as Recent Activity answers), so another team's
  // resource ids cannot be told from ids that exist nowhere.
  async listRecommendations(teamId: string, resourceArmId?: string): Promise<{ Data: Recommendation[] }> {
    if (
      resourceArmId !== undefined &&
      !(await this.recommendations.isResourceOfTeam(teamId, resourceArmId))
    ) {
      throw notFound('Resource not found.');
    }
    const rows = await this.recommendations.listForTeam(teamId, resourceArmId);
    return {
      Data: rows.map((row) => ({
        Id: row.id,
        ResourceId: row.armId,
        FriendlyName: row.name,
        When: row.createdAt,
        PredictionMethod: row.predictionMethod,
        Recommendation: row.recommendation,
        Memo: row.memo,
        AnnualCostSavings: row.annualCostSavings,
      })),
    };
  }

  // Undefined for an unknown id or another team's. The chart is drawn from the 14 days the analysis
  // last read for it (rows written before that was so keep their chart).
  async getEvidence(teamId: string, id: number): Promise<RecommendationEvidence | undefined> {
    const row = await this.recommendations.findEvidence(teamId, id);
    if (!row) return undefined;
    const stored = readStoredEvidence(row.evidence);
    const series = 'window' in stored ? await this.rebuildEvidence(row, stored.window) : stored.series;
    return {
      Id: row.id,
      ResourceId: row.armId,
      FriendlyName: row.name,
      CurrentSize: row.currentSize,
      TargetSize: row.targetSize,
      Series: series.map((item) => ({
        Metric: item.metric,
        Unit: 'Percent' as const,
        Threshold: item.threshold,
        Points: item.points.map((point) => ({
          Time: new Date(point.time).toISOString(),
          Current: point.current,
          Projected: point.projected,
        })),
      })),
    };
  }

  // On the size the VM had then (the recommendation's current size), whatever it has now.
  private async rebuildEvidence(row: EvidenceRow, window: EvidenceWindow): Promise<EvidenceSeries[]> {
    if (!row.currentSize) return [];
    const until = new Date(window.untilMs);
    const since = new Date(window.untilMs - evidenceDays * dayMs);
    const [hourlyByVm, catalogue] = await Promise.all([
      this.recommendations.listHourlySeries([row.resourceId], since, until),
      this.pricing.loadCatalogue(row.region),
    ]);
    const current = findSize(catalogue, row.currentSize);
    if (!current) return [];
    const series = readVmSeries(hourlyByVm.get(row.resourceId), current, since, until);
    return buildEvidence(
      { currentSize: current.name, sizes: catalogue.sizes, ...series },
      row.targetSize === null ? null : (findSize(catalogue, row.targetSize)?.name ?? null),
      window.thresholds,
    );
  }

  private async recordActivity(teamId: string, tenantId: string, summary: AnalysisSummary): Promise<void> {
    const entries = [];
    if (summary.newCount > 0) {
      const savings = summary.newAnnualCostSavings.toLocaleString('en-US', {
        minimumFractionDigits: 2,
        maximumFractionDigits: 2,
      });
      const plural = summary.newCount === 1 ? 'recommendation' : 'recommendations';
      entries.push(
        `Analysed ${summary.analysedCount} virtual machines: ${summary.newCount} new ${plural}, $${savings} a year on offer`,
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

// What the engine reads of one VM: its hours, its size's place in the region's catalogue and prices,
// what it must keep (disks, NICs), its schedule and the resize already on offer.
function buildInput(
  vm: DueVm,
  hourly: HourlySeries | undefined,
  catalogue: RegionCatalogue,
  openRows: OpenRecommendation[],
  since: Date,
  until: Date,
  at: Date,
): VmAnalysisInput | undefined {
  if (!vm.sku) return undefined;
  const current = findSize(catalogue, vm.sku);
  const { cpu, memoryUsedGiB, network, cpuCreditsRemaining, runningHours, firstStep } = readVmSeries(
    hourly,
    current,
    since,
    until,
  );
  const steps = cpu.average.length;
  const osType = vm.osType === 'Windows' ? 'Windows' : 'Linux';
  const previousResize = openRows.find((row) => row.kind === 'resize');
  return {
    vmId: vm.armId,
    currentSize: current?.name ?? vm.sku,
    region: vm.region,
    osType,
    // Of the hours since the VM was first seen: a VM created within the lookback was not "stopped"
    // before it existed.
    runningShare: runningHours > 0 ? runningHours / (steps - firstStep) : 0,
    activeHours:
      vm.activeHoursStart !== null && vm.activeHoursEnd !== null
        ? { start: vm.activeHoursStart, end: vm.activeHoursEnd }
        : null,
    requirements: {
      dataDiskCount: vm.dataDiskCount,
      nicCount: vm.nicCount,
      usesPremiumDisk: vm.hasPremiumDisk,
      usesAcceleratedNetworking: vm.hasAcceleratedNetworking,
    },
    cpu,
    ...(memoryUsedGiB ? { memoryUsedGiB } : {}),
    ...(network ? { network } : {}),
    ...(cpuCreditsRemaining ? { cpuCreditsRemaining } : {}),
    sizes: catalogue.sizes,
    prices: catalogue.pricesByOs[osType],
    previousTargetSize: previousResize?.targetSize ?? null,
    now: at.getTime(),
  };
}

const sizeIndexes = new WeakMap<RegionCatalogue, Map<string, SizeOption>>();

// A size by its name in any casing (inventory and catalogue may differ), from an index built once
// per catalogue: lower-casing every size of the region for each VM ran once per VM analysed.
function findSize(catalogue: RegionCatalogue, name: string): SizeOption | undefined {
  let sizesByName = sizeIndexes.get(catalogue);
  if (!sizesByName) {
    sizesByName = new Map(catalogue.sizes.map((size) => [size.name.toLowerCase(), size]));
    sizeIndexes.set(catalogue, sizesByName);
  }
  return sizesByName.get(name.toLowerCase());
}

// The VM's hours laid on a dense hourly grid from `since` (NaN where nothing was read). Memory in
// GiB used = the size's memory − available memory: the mean from the hour's mean, the peak from the
// hour's lowest minute where it was rolled up from 1-minute points and, for back-filled hours, from
// the hour's spread mirrored below its mean (mean − (p95 − mean)), which errs towards keeping
// capacity. Without the size, memory cannot be read. A B-series VM's credits remaining are read by
// the hour's lowest minute where known (else its mean): the analysis asks whether the bank ran out.
function readVmSeries(
  hourly: HourlySeries | undefined,
  current: SizeOption | undefined,
  since: Date,
  until: Date,
): {
  cpu: MetricSeries;
  memoryUsedGiB?: MetricSeries;
  network?: MetricSeries;
  cpuCreditsRemaining?: MetricSeries;
  runningHours: number;
  firstStep: number;
} {
  const steps = Math.round((until.getTime() - since.getTime()) / hourMs);
  const cpu = createSeries(since.getTime(), steps);
  const memory = createSeries(since.getTime(), steps);
  const network = createSeries(since.getTime(), steps);
  const credits = createSeries(since.getTime(), steps);
  let hasMemory = false;
  let hasNetwork = false;
  let hasCredits = false;
  let runningHours = 0;
  let firstStep = steps;
  for (let step = 0; hourly && step < steps; step += 1) {
    const cpuAverage = hourly.cpuAverage[step]!;
    if (!Number.isNaN(cpuAverage)) {
      cpu.average[step] = cpuAverage;
      const cpuMaximum = hourly.cpuMaximum[step]!;
      cpu.maximum[step] = Number.isNaN(cpuMaximum) ? cpuAverage : cpuMaximum;
      runningHours += 1;
      firstStep = Math.min(firstStep, step);
    }
    const memoryAverage = hourly.memoryAverage[step]!;
    if (!Number.isNaN(memoryAverage) && current) {
      const memoryMinimum = hourly.memoryMinimum[step]!;
      const memoryP95 = hourly.memoryP95[step]!;
      const lowest = !Number.isNaN(memoryMinimum)
        ? memoryMinimum
        : !Number.isNaN(memoryP95)
          ? Math.max(0, 2 * memoryAverage - memoryP95)
          : memoryAverage;
      memory.average[step] = Math.max(0, current.memoryGiB - memoryAverage / gibibyte);
      memory.maximum[step] = Math.max(memory.average[step]!, current.memoryGiB - lowest / gibibyte);
      hasMemory = true;
    }
    const networkAverage = hourly.networkAverage[step]!;
    if (!Number.isNaN(networkAverage)) {
      // The hourly aggregate is the mean per-minute total; the hour moved 60 of them.
      network.average[step] = networkAverage * 60;
      network.maximum[step] = networkAverage * 60;
      hasNetwork = true;
    }
    const creditsAverage = hourly.creditsAverage[step]!;
    if (!Number.isNaN(creditsAverage)) {
      const creditsMinimum = hourly.creditsMinimum[step]!;
      credits.average[step] = Number.isNaN(creditsMinimum) ? creditsAverage : creditsMinimum;
      credits.maximum[step] = creditsAverage;
      hasCredits = true;
    }
  }
  return {
    cpu,
    ...(hasMemory ? { memoryUsedGiB: memory } : {}),
    ...(hasNetwork ? { network } : {}),
    ...(hasCredits ? { cpuCreditsRemaining: credits } : {}),
    runningHours,
    firstStep,
  };
}

function toBill(row: VmBillRow): VmBill {
  return { amortizedCost: row.amortizedCost, actualCost: row.actualCost, usageHours: row.usageHours };
}

function createSeries(startMs: number, steps: number): MetricSeries {
  return {
    startMs,
    stepMinutes: 60,
    average: new Float64Array(steps).fill(Number.NaN),
    maximum: new Float64Array(steps).fill(Number.NaN),
  };
}

// An analysis that proposed nothing only withdraws open recommendations when it could judge the VM
// (its size known and priced, enough history): missing data or a missing catalogue changes nothing.
function isConclusive(analysis: VmAnalysis, input: VmAnalysisInput): boolean {
  if (analysis.proposals.length > 0) return true;
  const current = input.sizes.find((size) => size.name === input.currentSize);
  if (!current || !input.prices.has(current.name)) return false;
  let presentHours = 0;
  for (const value of input.cpu.average) if (!Number.isNaN(value)) presentHours += 1;
  return presentHours / 24 >= minimumHistoryDays;
}

interface Decision {
  inserted: Proposal[];
  refreshed: RefreshedRecommendation[];
  supersededIds: number[];
}

// Per kind: the same conclusion (same target size or schedule) keeps the open row with fresh
// figures; another supersedes it; none (when conclusive) withdraws it.
function decide(
  proposals: Proposal[],
  openRows: OpenRecommendation[],
  isConclusiveResult: boolean,
  untilMs: number,
): Decision {
  const decision: Decision = { inserted: [], refreshed: [], supersededIds: [] };
  const proposalKinds = new Set(proposals.map((proposal) => proposal.kind));
  for (const proposal of proposals) {
    const open = openRows.find((row) => row.kind === proposal.kind);
    if (open && isSameConclusion(open, proposal)) {
      decision.refreshed.push({
        id: open.id,
        recommendation: proposal.recommendation,
        memo: proposal.memo,
        annualCostSavings: proposal.annualCostSavings,
        confidence: proposal.confidence,
        evidence: evidenceWindowOf(proposal, untilMs),
      });
      continue;
    }
    if (open) decision.supersededIds.push(open.id);
    decision.inserted.push(proposal);
  }
  if (isConclusiveResult) {
    for (const open of openRows) if (!proposalKinds.has(open.kind)) decision.supersededIds.push(open.id);
  }
  return decision;
}

function isSameConclusion(open: OpenRecommendation, proposal: Proposal): boolean {
  return (
    open.predictionMethod === proposal.predictionMethod &&
    (open.targetSize ?? null) === (proposal.targetSize ?? null) &&
    (open.activeHoursStart ?? null) === (proposal.activeHours?.start ?? null) &&
    (open.activeHoursEnd ?? null) === (proposal.activeHours?.end ?? null)
  );
}

function toNewRecommendation(
  teamId: string,
  tenantId: string,
  resourceId: string,
  proposal: Proposal,
  untilMs: number,
): NewRecommendation {
  return {
    teamId,
    tenantId,
    resourceId,
    kind: proposal.kind,
    predictionMethod: proposal.predictionMethod,
    currentSize: proposal.currentSize,
    targetSize: proposal.targetSize,
    activeHoursStart: proposal.activeHours?.start ?? null,
    activeHoursEnd: proposal.activeHours?.end ?? null,
    recommendation: proposal.recommendation,
    memo: proposal.memo,
    annualCostSavings: proposal.annualCostSavings,
    confidence: proposal.confidence,
    evidence: evidenceWindowOf(proposal, untilMs),
  };
}

function evidenceWindowOf(proposal: Proposal, untilMs: number): EvidenceWindow {
  return { untilMs, thresholds: proposal.thresholds };
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
