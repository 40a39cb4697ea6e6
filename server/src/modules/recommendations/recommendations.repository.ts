// Recommendations in PostgreSQL, and what the analysis reads: the VMs due for analysis and their
// hourly series, from the metrics' packed days.
import { automationValues } from '@cloudtrim/contracts/automation';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { refreshStatisticsAfterWrite } from '../../db/planner-statistics';
import { recommendations } from '../../db/schema';
import { isResourceKnownToTeam } from '../../db/team-resource';
import type { RecommendationKind } from '@cloudtrim/rightsizing/analysis.types';
import { wasteResourceTypes } from '@cloudtrim/rightsizing/waste/find-waste';
import { turnEventLoop } from '../../lib/concurrency';
import {
  availableMemoryMetricName,
  cpuCreditsRemainingMetricName,
  cpuMetricName,
  networkInMetricName,
  networkOutMetricName,
} from '../metrics/metric-catalog';
import {
  createHourlySeries,
  hoursOf,
  placePacked,
  type HourlyAggregate,
  type HourlySeries,
} from './hourly-series';
import { isUsageMetricName, usageMetrics, type UsageSeries } from './usage-series';
import { hourMs, isoTimestampSql } from '../../lib/time';
import { markResourcesAnalysed, markTenantResourcesDue } from '../resources/resource-writes.repository';

export const networkMetricNames = [networkInMetricName, networkOutMetricName];
// Reported for B-series VMs only; the metrics module gives them its rows.
export const creditsMetricName = cpuCreditsRemainingMetricName;

const writeChunkSize = 100;
// Judged once an hour from inventory's facts; VMs are judged by the hour their metrics reach.
const judgedHourlyTypes = [
  wasteResourceTypes.disk,
  wasteResourceTypes.publicIp,
  wasteResourceTypes.plan,
  wasteResourceTypes.database,
];
// The bill's service (Cost Management's ServiceName) of each type the waste finders judge.
const wasteServiceNames: Readonly<Record<string, string>> = {
  [wasteResourceTypes.disk]: 'Storage',
  [wasteResourceTypes.publicIp]: 'Virtual Network',
  [wasteResourceTypes.plan]: 'Azure App Service',
  [wasteResourceTypes.database]: 'SQL Database',
};

export type VmBillRow = {
  // Lower case, as the bill spells it.
  armId: string;
  region: string;
  sku: string | null;
  osType: string | null;
  amortizedCost: number;
  actualCost: number;
  usageHours: number;
};

// A disk's, public IP's, plan's or database's charges of its own service between two days, with the
// facts that price it at list.
export type WasteBillRow = {
  // Lower case, as the bill spells it.
  armId: string;
  type: string;
  region: string;
  sku: string | null;
  // Of inventory's facts only those a list price depends on (a disk's size, a plan's instances and OS,
  // a database's capacity).
  details: Record<string, unknown>;
  amortizedCost: number;
  actualCost: number;
  days: number;
  monthShare: number;
};

export interface DueVm {
  id: string;
  armId: string;
  name: string;
  region: string;
  sku: string | null;
  automated: number;
  predictionMethod: string;
  activeHoursStart: number | null;
  activeHoursEnd: number | null;
  osType: string | null;
  dataDiskCount: number | null;
  nicCount: number | null;
  hasPremiumDisk: boolean | null;
  hasAcceleratedNetworking: boolean | null;
  recommendationsHeldUntil: Date | null;
  // The newest collection of any of its metrics: what analysed_until becomes.
  collectedUntil: Date;
}

// A VM due for analysis, and the newest collection of its metrics when it was found due.
export type DueVmId = { id: string; collectedUntil: Date };

// A resource the waste finders judge, with the VM a disk belongs to (its managedBy) when inventory
// has it. Times are epoch milliseconds.
export type WasteResourceRow = {
  id: string;
  armId: string;
  name: string;
  type: string;
  region: string;
  sku: string | null;
  osType: string | null;
  automated: number;
  details: Record<string, unknown>;
  tags: Record<string, string>;
  stateSince: number | null;
  // Whether Azure dated the state (the Activity Log, Monitor's last CPU minute) rather than our first
  // sight of it (resource_state_dating).
  isStateDated: boolean;
  powerState: string | null;
  hasOwner: boolean;
  ownerPowerState: string | null;
  ownerStateSince: number | null;
};

export interface TenantAnalysisScope {
  teamId: string;
  lookbackDays: number;
}

export type OpenRecommendation = {
  id: number;
  resourceId: string;
  kind: RecommendationKind;
  predictionMethod: string;
  targetSize: string | null;
  activeHoursStart: number | null;
  activeHoursEnd: number | null;
};

export interface NewRecommendation {
  teamId: string;
  tenantId: string;
  resourceId: string;
  kind: RecommendationKind;
  predictionMethod: string;
  currentSize: string | null;
  targetSize: string | null;
  activeHoursStart: number | null;
  activeHoursEnd: number | null;
  recommendation: string;
  memo: string;
  annualCostSavings: number;
  confidence: number;
  evidence: unknown;
}

// The same conclusion seen again: its figures are refreshed, its row (and When) kept.
export interface RefreshedRecommendation {
  id: number;
  recommendation: string;
  memo: string;
  annualCostSavings: number;
  confidence: number;
  evidence: unknown;
}

export interface AnalysisWrite {
  inserted: NewRecommendation[];
  refreshed: RefreshedRecommendation[];
  supersededIds: number[];
  analysed: { resourceId: string; collectedUntil: Date }[];
  at: Date;
}

export type RecommendationRow = {
  id: number;
  armId: string;
  name: string;
  createdAt: string;
  predictionMethod: string;
  recommendation: string;
  memo: string | null;
  annualCostSavings: number;
};

export type EvidenceRow = {
  id: number;
  resourceId: string;
  region: string;
  armId: string;
  name: string;
  currentSize: string | null;
  targetSize: string | null;
  evidence: unknown;
};

export class RecommendationsRepository {
  constructor(private readonly db: Db) {}

  async findTenantScope(tenantId: string): Promise<TenantAnalysisScope | undefined> {
    const result = await this.db.execute<{ teamId: string; lookbackDays: number }>(sql`
      select team.id as "teamId", team.lookback_days as "lookbackDays"
      from tenant join team on team.id = tenant.team_id
      where tenant.id = ${tenantId}::uuid and tenant.is_active`);
    return result.rows[0];
  }

  // New history arrived for the tenant (a back-fill): every VM is due again, whatever hour it last saw.
  async markTenantDue(tenantId: string): Promise<void> {
    await markTenantResourcesDue(this.db, tenantId);
  }

  // The ids, in id order, of the tenant's VMs with an hour collected since their last analysis (or
  // never analysed): one pass over the tenant, where paging the test itself re-ran it on every
  // resource after each page's last, quadratic in the tenant's size.
  // The due VMs with the newest collection of any of their metrics, which becomes their
  // analysed_until once analysed: read once here rather than again with each batch.
  async listDueVms(tenantId: string): Promise<DueVmId[]> {
    const result = await this.db.execute<{ id: string; collectedUntil: string }>(sql`
      select resource.id, collected.until as "collectedUntil"
      from resource
      cross join lateral (
        select max(metric.last_collected_at) as until from metric where metric.resource_id = resource.id
      ) as collected
      where resource.tenant_id = ${tenantId}::uuid
        and lower(resource.type) = 'microsoft.compute/virtualmachines'
        and collected.until is not null
        -- The analysis reads whole hours: minutes collected within the hour it already saw change
        -- nothing it reads, so a VM is due once per hour, not once per 5-minute cycle.
        and (resource.analysed_until is null
             or date_trunc('hour', collected.until) > date_trunc('hour', resource.analysed_until))
      order by resource.id`);
    return result.rows.map((row) => ({ id: row.id, collectedUntil: new Date(row.collectedUntil) }));
  }

  // The tenant's resources the waste finders judge, in id order: disks, public IPs, plans and
  // databases not judged yet this hour (their state comes from inventory, not from metrics), and
  // VMs stopped (still billed) or with a deallocation on offer, every time: a started VM withdraws it.
  // Of the disks and IPs only those that may be waste are read (a disk unattached, or Premium with a
  // deallocated VM; an IP associated with nothing) and those with a recommendation open, which a
  // change may withdraw: the rest, nine in ten of an estate's disks, the finders would only clear,
  // and reading them doubled the analysis of 10,000 VMs.
  async listDueWasteResources(tenantId: string, until: Date): Promise<WasteResourceRow[]> {
    const result = await this.db.execute<WasteResourceRow>(sql`
      select resource.id, resource.arm_id as "armId", resource.name, resource.type, resource.region,
             resource.sku, resource.os_type as "osType", resource.automated, resource.details, resource.tags,
             (extract(epoch from coalesce(resource.state_since, resource.power_state_changed_at)) * 1000)::float8
               as "stateSince",
             coalesce(dating.source is not null and dating.state_since = resource.state_since, false)
               as "isStateDated",
             resource.power_state as "powerState", owner.id is not null as "hasOwner",
             owner.power_state as "ownerPowerState",
             (extract(epoch from coalesce(owner.state_since, owner.power_state_changed_at)) * 1000)::float8
               as "ownerStateSince"
      from resource
      left join resource as owner
        on lower(resource.type) = ${wasteResourceTypes.disk} and owner.tenant_id = resource.tenant_id
           and lower(owner.arm_id) = lower(resource.details->>'managedBy')
      left join resource_state_dating as dating on dating.resource_id = resource.id
      where resource.tenant_id = ${tenantId}::uuid
        and (
          (lower(resource.type) = any(${sql.param(judgedHourlyTypes)}::text[])
           and (resource.analysed_until is null or resource.analysed_until < ${until.toISOString()}::timestamptz)
           and (lower(resource.type) in (${wasteResourceTypes.plan}, ${wasteResourceTypes.database})
                or (lower(resource.type) = ${wasteResourceTypes.disk}
                    and (resource.details->>'diskState' = 'Unattached'
                         or (resource.sku ilike 'premium%' and owner.power_state = 'deallocated')))
                or (lower(resource.type) = ${wasteResourceTypes.publicIp}
                    and resource.details->>'ipConfigurationId' is null and resource.details->>'natGatewayId' is null)
                or exists (select 1 from recommendation
                           where recommendation.resource_id = resource.id and recommendation.status = 'open')))
          or (lower(resource.type) = ${wasteResourceTypes.virtualMachine}
              and (resource.power_state = 'stopped'
                   or exists (select 1 from recommendation
                              where recommendation.resource_id = resource.id and recommendation.status = 'open'
                                and recommendation.kind = 'deallocate'))))
      order by resource.id`);
    return result.rows;
  }

  // Plans' and databases' hourly use over [since, until), from the metrics' packed days.
  async listUsageSeries(resourceIds: string[], since: Date, until: Date): Promise<Map<string, UsageSeries>> {
    const seriesByResource = new Map<string, UsageSeries>();
    if (resourceIds.length === 0) return seriesByResource;
    const layout = {
      firstHour: since.getUTCHours(),
      steps: Math.round((until.getTime() - since.getTime()) / hourMs),
    };
    const firstDay = since.toISOString().slice(0, 10);
    const lastDay = new Date(until.getTime() - 1).toISOString().slice(0, 10);
    const result = await this.db.execute<{
      resourceId: string;
      name: string;
      days: number[];
      averages: string;
      maximums: string;
    }>(sql`
      select metric.resource_id as "resourceId", metric.name, packed.days,
             encode(packed.averages, 'base64') as averages, encode(packed.maximums, 'base64') as maximums
      from metric
      cross join lateral (
        select array_agg(day.day - ${firstDay}::date order by day.day) as days,
               string_agg(day.averages, ''::bytea order by day.day) as averages,
               string_agg(day.maximums, ''::bytea order by day.day) as maximums
        from metric_day as day
        where day.metric_id = metric.id and day.day >= ${firstDay}::date and day.day <= ${lastDay}::date
      ) as packed
      where metric.resource_id = any(${sql.param(resourceIds)}::uuid[])
        and metric.name = any(${sql.param(Object.keys(usageMetrics))}::text[])
        and packed.days is not null`);
    for (const row of result.rows) {
      if (!isUsageMetricName(row.name)) continue;
      let series = seriesByResource.get(row.resourceId);
      if (!series) {
        series = {};
        seriesByResource.set(row.resourceId, series);
      }
      const metric = usageMetrics[row.name];
      const target = new Float64Array(layout.steps).fill(Number.NaN);
      const packed = metric.aggregate === 'average' ? row.averages : row.maximums;
      placePacked(layout, row.days, packed, target);
      series[metric.series] = target;
    }
    return seriesByResource;
  }

  // Each VM's virtual machine charges between two days, with what prices it at list (region, size, OS).
  async listVmBills(tenantId: string, from: string, to: string): Promise<VmBillRow[]> {
    const result = await this.db.execute<VmBillRow>(sql`
      select cost.resource_id as "armId", resource.region, resource.sku, resource.os_type as "osType",
             sum(cost.amortized_cost)::float8 as "amortizedCost", sum(cost.actual_cost)::float8 as "actualCost",
             sum(cost.usage_quantity)::float8 as "usageHours"
      from cost_day as cost
      join resource on resource.tenant_id = cost.tenant_id and lower(resource.arm_id) = cost.resource_id
      where cost.tenant_id = ${tenantId}::uuid and cost.service_name = 'Virtual Machines'
        and cost.day between ${from}::date and ${to}::date
      group by 1, 2, 3, 4`);
    return result.rows;
  }

  // The tenant's disks', public IPs', plans' and databases' charges of their own service between two
  // days: one pass over the tenant's bill (a resource is billed in one subscription: a row a day).
  // On 22,000 disks' fortnight (330,000 rows) counting distinct days sorted the rows on disk and each
  // row's month length read from its date doubled the rest: without both, 1.7 s instead of 4.2 s
  // (load 15 on 2 cores).
  async listWasteBills(tenantId: string, from: string, to: string): Promise<WasteBillRow[]> {
    const result = await this.db.execute<WasteBillRow>(sql`
      select cost.resource_id as "armId", lower(resource.type) as type, resource.region, resource.sku,
             jsonb_strip_nulls(jsonb_build_object('diskSizeGb', resource.details->'diskSizeGb',
               'capacity', resource.details->'capacity', 'kind', resource.details->'kind')) as details,
             cost."amortizedCost", cost."actualCost", cost.days, cost."monthShare"
      from (
        select cost_day.resource_id, cost_day.service_name,
               sum(cost_day.amortized_cost)::float8 as "amortizedCost",
               sum(cost_day.actual_cost)::float8 as "actualCost",
               count(*)::int as days, sum(${readMonthShare(from, to)})::float8 as "monthShare"
        from cost_day
        where cost_day.tenant_id = ${tenantId}::uuid and cost_day.day between ${from}::date and ${to}::date
          and cost_day.service_name = any(${sql.param(Object.values(wasteServiceNames))}::text[])
        group by 1, 2
      ) as cost
      join resource on resource.tenant_id = ${tenantId}::uuid and lower(resource.arm_id) = cost.resource_id
      join unnest(${sql.param(Object.keys(wasteServiceNames))}::text[], ${sql.param(Object.values(wasteServiceNames))}::text[])
        as billed(type, service)
        on billed.type = lower(resource.type) and billed.service = cost.service_name`);
    return result.rows;
  }

  async findVms(due: DueVmId[]): Promise<DueVm[]> {
    if (due.length === 0) return [];
    const result = await this.db.execute<
      Omit<DueVm, 'collectedUntil' | 'recommendationsHeldUntil'> & {
        collectedUntil: string;
        recommendationsHeldUntil: string | null;
      }
    >(sql`
      select resource.id, resource.arm_id as "armId", resource.name, resource.region, resource.sku,
             resource.automated, resource.prediction_method as "predictionMethod",
             resource.active_hours_start as "activeHoursStart", resource.active_hours_end as "activeHoursEnd",
             resource.os_type as "osType", resource.data_disk_count as "dataDiskCount",
             resource.nic_count as "nicCount", resource.has_premium_disk as "hasPremiumDisk",
             resource.has_accelerated_networking as "hasAcceleratedNetworking",
             resource.recommendations_held_until as "recommendationsHeldUntil",
             due.until as "collectedUntil"
      from unnest(
        ${sql.param(due.map((vm) => vm.id))}::uuid[],
        ${sql.param(due.map((vm) => vm.collectedUntil.toISOString()))}::timestamptz[]
      ) as due(id, until)
      join resource on resource.id = due.id
      order by resource.id`);
    return result.rows.map((row) => ({
      ...row,
      collectedUntil: new Date(row.collectedUntil),
      recommendationsHeldUntil: row.recommendationsHeldUntil ? new Date(row.recommendationsHeldUntil) : null,
    }));
  }

  async listHourlySeries(
    resourceIds: string[],
    since: Date,
    until: Date,
  ): Promise<Map<string, HourlySeries>> {
    const seriesByVm = new Map<string, HourlySeries>();
    if (resourceIds.length === 0) return seriesByVm;
    const layout = {
      firstHour: since.getUTCHours(),
      steps: Math.round((until.getTime() - since.getTime()) / hourMs),
    };
    const firstDay = since.toISOString().slice(0, 10);
    const lastDay = new Date(until.getTime() - 1).toISOString().slice(0, 10);
    // Only the aggregates the analysis reads leave PostgreSQL; days come back as offsets from the
    // first one, so a day with no row (the VM stopped) leaves its hours empty.
    const result = await this.db.execute<{
      resourceId: string;
      name: string;
      firstOffset: number;
      days: number[] | null;
      dayCount: number;
      averages: string;
      maximums: string | null;
      p95s: string | null;
      minimums: string | null;
    }>(sql`
      select metric.resource_id as "resourceId", metric.name, packed."firstOffset", packed.days, packed."dayCount",
             encode(packed.averages, 'base64') as averages,
             case when metric.name = ${cpuMetricName} then encode(packed.maximums, 'base64') end as maximums,
             case when metric.name = ${availableMemoryMetricName} then encode(packed.p95s, 'base64') end as p95s,
             case when metric.name in (${availableMemoryMetricName}, ${creditsMetricName})
                  then encode(packed.minimums, 'base64') end as minimums
      from metric
      cross join lateral (
        -- Days in a row (the usual case) are told by their first offset alone: parsing an array of
        -- offsets per metric was a tenth of the read.
        select min(day.day) - ${firstDay}::date as "firstOffset",
               case when count(*) <> max(day.day) - min(day.day) + 1
                    then array_agg(day.day - ${firstDay}::date order by day.day) end as days,
               count(*)::int as "dayCount",
               string_agg(day.averages, ''::bytea order by day.day) as averages,
               string_agg(day.maximums, ''::bytea order by day.day) as maximums,
               string_agg(day.p95s, ''::bytea order by day.day) as p95s,
               string_agg(day.minimums, ''::bytea order by day.day) as minimums
        from metric_day as day
        where day.metric_id = metric.id and day.day >= ${firstDay}::date and day.day <= ${lastDay}::date
      ) as packed
      where metric.resource_id = any(${sql.param(resourceIds)}::uuid[])
        and metric.name = any(${sql.param([cpuMetricName, availableMemoryMetricName, creditsMetricName, ...networkMetricNames])}::text[])
        and packed."dayCount" > 0`);
    for (const row of result.rows) {
      let series = seriesByVm.get(row.resourceId);
      if (!series) {
        series = createHourlySeries(layout.steps);
        seriesByVm.set(row.resourceId, series);
      }
      const days = row.days ?? Array.from({ length: row.dayCount }, (_, day) => row.firstOffset + day);
      const place = (packed: string | null, aggregate: HourlyAggregate, combine?: 'add') => {
        if (packed !== null) placePacked(layout, days, packed, hoursOf(series, aggregate), combine);
      };
      if (row.name === cpuMetricName) {
        place(row.averages, 'cpuAverage');
        place(row.maximums, 'cpuMaximum');
      } else if (row.name === availableMemoryMetricName) {
        place(row.averages, 'memoryAverage');
        place(row.p95s, 'memoryP95');
        place(row.minimums, 'memoryMinimum');
      } else if (row.name === creditsMetricName) {
        place(row.averages, 'creditsAverage');
        place(row.minimums, 'creditsMinimum');
      } else {
        place(row.averages, 'networkAverage', 'add');
      }
    }
    return seriesByVm;
  }

  async listOpen(resourceIds: string[]): Promise<OpenRecommendation[]> {
    if (resourceIds.length === 0) return [];
    const result = await this.db.execute<OpenRecommendation>(sql`
      select id::float8 as id, resource_id as "resourceId", kind, prediction_method as "predictionMethod",
             target_size as "targetSize", active_hours_start as "activeHoursStart",
             active_hours_end as "activeHoursEnd"
      from recommendation
      where resource_id = any(${sql.param(resourceIds)}::uuid[]) and status = 'open'`);
    return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  // One transaction per batch: superseded rows close before their successors open (one open row per
  // resource and kind), and the VMs are marked analysed with them.
  // After a pass that wrote many rows (a tenant's first analysis), the planner's statistics follow.
  refreshStatistics(writtenRows: number): Promise<boolean> {
    return refreshStatisticsAfterWrite(this.db, recommendations, writtenRows);
  }

  async writeAnalysis(write: AnalysisWrite): Promise<void> {
    const at = write.at.toISOString();
    await this.db.transaction(async (transaction) => {
      if (write.supersededIds.length > 0) {
        await transaction.execute(sql`
          update recommendation set status = 'superseded', superseded_at = ${at}::timestamptz
          where id = any(${sql.param(write.supersededIds)}::bigint[]) and status = 'open'`);
      }
      // In chunks, so no one statement's JSON is serialized in one long turn of the event loop.
      for (const chunk of chunkOf(write.refreshed, writeChunkSize)) {
        await transaction.execute(sql`
          update recommendation
          set recommendation = refreshed.recommendation, memo = refreshed.memo,
              annual_cost_savings = refreshed."annualCostSavings", confidence = refreshed.confidence,
              evidence = refreshed.evidence
          from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as refreshed(
            id bigint, recommendation text, memo text, "annualCostSavings" float8, confidence float8,
            evidence jsonb)
          where recommendation.id = refreshed.id and recommendation.status = 'open'`);
        await turnEventLoop();
      }
      for (const chunk of chunkOf(write.inserted, writeChunkSize)) {
        await transaction.execute(sql`
          insert into recommendation (team_id, tenant_id, resource_id, kind, prediction_method, current_size,
                                      target_size, active_hours_start, active_hours_end, recommendation, memo,
                                      annual_cost_savings, confidence, evidence, created_at)
          select inserted.*, ${at}::timestamptz
          from jsonb_to_recordset(${JSON.stringify(chunk)}::jsonb) as inserted(
            "teamId" uuid, "tenantId" uuid, "resourceId" uuid, kind text, "predictionMethod" text,
            "currentSize" text, "targetSize" text, "activeHoursStart" smallint, "activeHoursEnd" smallint,
            recommendation text, memo text, "annualCostSavings" float8, confidence float8, evidence jsonb)
          -- A row the automation applied or held meanwhile leaves no open slot to fill twice.
          on conflict (resource_id, kind) where status = 'open' do nothing`);
        await turnEventLoop();
      }
      await markResourcesAnalysed(transaction, write.analysed);
    });
  }

  // The team's open recommendations (Automated = 2 resources excluded), or one resource's whole
  // history; newest first either way.
  async listForTeam(teamId: string, resourceArmId?: string): Promise<RecommendationRow[]> {
    const result = await this.db.execute<RecommendationRow>(sql`
      select recommendation.id::float8 as id, resource.arm_id as "armId", resource.name,
             ${isoTimestampSql(sql`recommendation.created_at`)} as "createdAt",
             recommendation.prediction_method as "predictionMethod", recommendation.recommendation,
             recommendation.memo, recommendation.annual_cost_savings as "annualCostSavings"
      from recommendation
      join resource on resource.id = recommendation.resource_id
      where recommendation.team_id = ${teamId}::uuid
        ${
          resourceArmId === undefined
            ? sql`and recommendation.status = 'open' and resource.automated <> ${automationValues.noChange}`
            : sql`and lower(resource.arm_id) = ${resourceArmId.toLowerCase()}`
        }
      order by recommendation.created_at desc, recommendation.id desc`);
    return result.rows.map((row) => ({ ...row, id: Number(row.id) }));
  }

  // Recommendations go with their resource (cascade), so only a resource the team has now counts.
  isResourceOfTeam(teamId: string, armId: string): Promise<boolean> {
    return isResourceKnownToTeam(this.db, teamId, armId);
  }

  async findEvidence(teamId: string, id: number): Promise<EvidenceRow | undefined> {
    const result = await this.db.execute<EvidenceRow>(sql`
      select recommendation.id::float8 as id, resource.id as "resourceId", resource.region,
             resource.arm_id as "armId", resource.name,
             recommendation.current_size as "currentSize", recommendation.target_size as "targetSize",
             recommendation.evidence
      from recommendation
      join resource on resource.id = recommendation.resource_id
      where recommendation.team_id = ${teamId}::uuid and recommendation.id = ${id}`);
    const row = result.rows[0];
    return row ? { ...row, id: Number(row.id) } : undefined;
  }

  // The team's open recommendations (what a pipeline's candidates may apply), in no order.
  listOpenForTeam(teamId: string) {
    return this.db
      .select({
        id: recommendations.id,
        resourceId: recommendations.resourceId,
        kind: recommendations.kind,
        confidence: recommendations.confidence,
        annualSaving: recommendations.annualCostSavings,
        text: recommendations.recommendation,
      })
      .from(recommendations)
      .where(and(eq(recommendations.teamId, teamId), eq(recommendations.status, 'open')));
  }
}

// A day's share of its month, as a case over the months from `from` to `to` (UTC days), their
// lengths worked out here.
function readMonthShare(from: string, to: string): SQL {
  const cases: SQL[] = [];
  const last = new Date(`${to}T00:00:00Z`);
  for (let month = new Date(`${from.slice(0, 7)}-01T00:00:00Z`); month <= last; ) {
    const next = new Date(Date.UTC(month.getUTCFullYear(), month.getUTCMonth() + 1, 1));
    const days = Math.round((next.getTime() - month.getTime()) / (24 * hourMs));
    cases.push(sql`when cost_day.day < ${next.toISOString().slice(0, 10)}::date then ${1 / days}::float8`);
    month = next;
  }
  return sql`case ${sql.join(cases, sql` `)} end`;
}

function chunkOf<Item>(items: Item[], size: number): Item[][] {
  const chunks: Item[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
