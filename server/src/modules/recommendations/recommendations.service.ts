// The recommendations' server side: the analysis queued after each collection cycle (its pipeline
// is recommendations.analysis.ts), the team's recommendations and one's evidence chart.
import type { EvidenceSeries } from '@cloudtrim/rightsizing/analysis.types';
import { buildEvidence, evidenceDays } from '@cloudtrim/rightsizing/analyse-vm';
import type { Recommendation, RecommendationEvidence } from '@cloudtrim/contracts/recommendations';
import type { CloudCallOptions } from '../../cloud/cloud-provider';
import type { CloudWorkQueue } from '../../queue/cloud-work';
import { notFound } from '../../lib/http-errors';
import type { ActivityService } from '../activity/activity.service';
import type { AutomationService } from '../automation/automation.service';
import type { PricingService } from '../pricing/pricing.service';
import { findSize, readVmSeries } from './analysis-input';
import { RecommendationsAnalysis, type AnalysisSummary } from './recommendations.analysis';
import type { EvidenceRow, RecommendationsRepository } from './recommendations.repository';
import { readStoredEvidence, type EvidenceWindow } from './stored-evidence';
import { dayMs } from '../../lib/time';

export class RecommendationsService {
  private readonly analysis: RecommendationsAnalysis;

  constructor(
    private readonly recommendations: RecommendationsRepository,
    private readonly pricing: PricingService,
    activity: ActivityService,
    private readonly work: CloudWorkQueue,
    changes: Pick<AutomationService, 'cancelChangesOfRecommendations'>,
    now: () => Date,
  ) {
    this.analysis = new RecommendationsAnalysis(recommendations, pricing, pricing, activity, changes, now);
  }

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

  // The tenant's VMs whose metrics changed since their last analysis, and its other resources judged
  // for waste. Undefined when the tenant is gone or inactive.
  analyseTenant(tenantId: string, options: CloudCallOptions = {}): Promise<AnalysisSummary | undefined> {
    return this.analysis.analyseTenant(tenantId, options);
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
}
