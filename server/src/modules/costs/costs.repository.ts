// The bill in PostgreSQL: the rows Cost Management reported (cost_day, cost_month), their day totals
// per subscription and service (cost_day_total), where each subscription's reading stands
// (cost_sync), and the sums the cost calls answer. Pages are written as whole columns (unnest), so a
// page of 1,000 rows is one statement.
import { and, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { costDays, costSyncs, realizedSavings, tenants, type CostRead } from '../../db/schema';
import { daysPerYear } from '../../lib/time';

export interface CostSyncRow {
  tenantId: string;
  subscriptionId: string;
  plan: CostRead[];
  notBefore: Date | null;
  backfilledAt: Date | null;
  refreshedAt: Date | null;
  deniedAt: Date | null;
  lastError: string | null;
}

export interface CostPageRow {
  date: string;
  resourceId: string;
  resourceGroup: string;
  serviceName: string;
  cost: number;
  usageQuantity: number;
  currency: string;
}

export interface CostScope {
  teamId: string;
  tenantId?: string;
  subscriptionId?: string;
  resourceGroup?: string;
  service?: string;
  tag?: { name: string; value: string };
}

export type CostGrouping =
  | { kind: 'service' | 'resourceGroup' | 'subscription' | 'resource' }
  | { kind: 'tag'; name: string };

export interface CostSumRequest {
  scope: CostScope;
  from: string;
  to: string;
  // Where the sums come from: the daily rows, or the monthly ones.
  source: 'day' | 'month';
  // How dates are bucketed in the answer.
  bucket: 'day' | 'month' | 'none';
  grouping: CostGrouping;
  costType: 'actual' | 'amortized';
}

export interface CostSumRow {
  date: string;
  group: string;
  cost: number;
}

// The column each read writes, by cost type; fixed names, never from input.
const costColumnNames = {
  ActualCost: { cost: 'actual_cost', readId: 'actual_read_id' },
  AmortizedCost: { cost: 'amortized_cost', readId: 'amortized_read_id' },
} as const;

const tables = {
  Daily: { table: 'cost_day', date: 'day' },
  Monthly: { table: 'cost_month', date: 'month' },
} as const;

export class CostsRepository {
  constructor(private readonly db: Db) {}

  // A row for each subscription the tenant has, none for those it no longer has.
  async ensureSyncs(tenantId: string): Promise<void> {
    await this.db.execute(sql`
      insert into cost_sync (tenant_id, subscription_id)
      select tenant_id, lower(subscription_id) from subscription where tenant_id = ${tenantId}::uuid
      on conflict do nothing
    `);
    await this.db.execute(sql`
      delete from cost_sync
      where tenant_id = ${tenantId}::uuid
        and subscription_id not in (
          select lower(subscription_id) from subscription where tenant_id = ${tenantId}::uuid
        )
    `);
  }

  async listSyncs(tenantId: string): Promise<CostSyncRow[]> {
    return this.db
      .select({
        tenantId: costSyncs.tenantId,
        subscriptionId: costSyncs.subscriptionId,
        plan: costSyncs.plan,
        notBefore: costSyncs.notBefore,
        backfilledAt: costSyncs.backfilledAt,
        refreshedAt: costSyncs.refreshedAt,
        deniedAt: costSyncs.deniedAt,
        lastError: costSyncs.lastError,
      })
      .from(costSyncs)
      .where(eq(costSyncs.tenantId, tenantId))
      .orderBy(costSyncs.subscriptionId);
  }

  async updateSync(
    tenantId: string,
    subscriptionId: string,
    changes: Partial<Omit<CostSyncRow, 'tenantId' | 'subscriptionId'>>,
    at: Date,
  ): Promise<void> {
    // A refusal takes the subscription out of the bill's progress (`listBillProgress`), which the
    // kept answers carry: the version moves with it.
    const version = 'deniedAt' in changes ? sql`${costSyncs.version} + 1` : undefined;
    await this.db
      .update(costSyncs)
      .set({ ...changes, version, updatedAt: at })
      .where(and(eq(costSyncs.tenantId, tenantId), eq(costSyncs.subscriptionId, subscriptionId)));
  }

  // Active tenants with a readable secret whose bill has a read due: a subscription never read, a
  // plan under way, a refresh older than refreshBefore, a refusal older than deniedBefore; none
  // while Cost Management's wait lasts.
  async listTenantsDue(at: Date, refreshBefore: Date, deniedBefore: Date): Promise<string[]> {
    const result = await this.db.execute<{ tenantId: string }>(sql`
      select tenant.id as "tenantId"
      from tenant
      where tenant.is_active and tenant.encrypted_secret is not null
        and (
          exists (
            select 1 from subscription
            where subscription.tenant_id = tenant.id
              and not exists (
                select 1 from cost_sync
                where cost_sync.tenant_id = tenant.id
                  and cost_sync.subscription_id = lower(subscription.subscription_id)
              )
          )
          or exists (
            select 1 from cost_sync
            where cost_sync.tenant_id = tenant.id
              and (cost_sync.not_before is null or cost_sync.not_before <= ${at.toISOString()}::timestamptz)
              and (cost_sync.denied_at is null or cost_sync.denied_at < ${deniedBefore.toISOString()}::timestamptz)
              and (
                jsonb_array_length(cost_sync.plan) > 0
                or cost_sync.refreshed_at is null
                or cost_sync.refreshed_at < ${refreshBefore.toISOString()}::timestamptz
              )
          )
        )
    `);
    return result.rows.map((row) => row.tenantId);
  }

  // One page of a read, and where the plan stands after it, in one transaction: a page replayed
  // after a crash writes the same values again. The read's last page zeroes what it no longer
  // reports in its period (a charge moved or gone) and drops rows left with no cost at all.
  // The bill's version (what the cost calls' kept answers are checked against) moves when the page
  // changed a row, or while the history is still being read (its progress is in the answers): a
  // refresh re-reads days Azure has mostly settled, and its pages of unchanged charges leave the
  // answers kept as they were.
  async writePage(
    tenantId: string,
    subscriptionId: string,
    read: CostRead & { readId: string },
    rows: CostPageRow[],
    plan: CostRead[],
    syncChanges: Partial<Omit<CostSyncRow, 'tenantId' | 'subscriptionId' | 'plan'>>,
    at: Date,
  ): Promise<void> {
    const columns = costColumnNames[read.costType];
    const target = tables[read.granularity];
    const isLastPage = plan[0]?.readId !== read.readId;
    await this.db.transaction(async (transaction) => {
      let changedRows = 0;
      if (rows.length > 0) {
        const page = sql`
          select * from unnest(
            ${sql.param(rows.map((row) => row.date))}::date[],
            ${sql.param(rows.map((row) => row.resourceId))}::text[],
            ${sql.param(rows.map((row) => row.serviceName))}::text[],
            ${sql.param(rows.map((row) => row.resourceGroup))}::text[],
            ${sql.param(rows.map((row) => row.cost))}::float8[],
            ${sql.param(rows.map((row) => row.usageQuantity))}::float8[],
            ${sql.param(rows.map((row) => row.currency))}::text[]
          ) as page(date, resource_id, service_name, resource_group, cost, usage_quantity, currency)`;
        const upsert = sql`
          insert into ${sql.raw(target.table)} (tenant_id, subscription_id, ${sql.raw(target.date)}, resource_id,
            service_name, resource_group, ${sql.raw(columns.cost)}, usage_quantity, currency, ${sql.raw(columns.readId)})
          select ${tenantId}::uuid, ${subscriptionId}, page.date, page.resource_id, page.service_name,
                 page.resource_group, page.cost, page.usage_quantity, page.currency, ${read.readId}::uuid
          from page
          on conflict (tenant_id, subscription_id, ${sql.raw(target.date)}, resource_id, service_name) do update set
            ${sql.raw(columns.cost)} = excluded.${sql.raw(columns.cost)},
            usage_quantity = excluded.usage_quantity,
            currency = excluded.currency,
            resource_group = excluded.resource_group,
            ${sql.raw(columns.readId)} = excluded.${sql.raw(columns.readId)}`;
        // What the page finds stored, read in the statement's own snapshot (before the upsert): the
        // day totals move by each row's cost now less what it was, and the rows it changed are
        // counted (a page replayed after a crash, or a refresh of settled days, changes none).
        const previous = sql`
          select stored.${sql.raw(target.date)} as date, stored.resource_id, stored.service_name,
                 stored.${sql.raw(columns.cost)} as cost, stored.usage_quantity, stored.currency, stored.resource_group
          from ${sql.raw(target.table)} as stored join page on stored.tenant_id = ${tenantId}::uuid
            and stored.subscription_id = ${subscriptionId} and stored.${sql.raw(target.date)} = page.date
            and stored.resource_id = page.resource_id and stored.service_name = page.service_name`;
        const writes =
          read.granularity === 'Daily'
            ? sql`
              written as (${upsert} returning day, service_name, ${sql.raw(columns.cost)} as cost),
              change as (
                select day, service_name, sum(cost) as cost
                from (select * from written union all select date, service_name, -cost from previous) as moved
                group by day, service_name
              ),
              totals as (
                ${this.addToDayTotals(tenantId, subscriptionId, columns.cost, sql`select day, service_name, cost from change`)}
              )`
            : sql`written as (${upsert})`;
        const changed = await transaction.execute<{ count: number }>(sql`
          with page as (${page}), previous as (${previous}), ${writes}
          select count(*)::int as count from page
          left join previous on previous.date = page.date and previous.resource_id = page.resource_id
            and previous.service_name = page.service_name
          where previous.resource_id is null
             or (previous.cost, previous.usage_quantity, previous.currency, previous.resource_group)
                is distinct from (page.cost, page.usage_quantity, page.currency, page.resource_group)`);
        changedRows += changed.rows[0]!.count;
      }
      if (isLastPage) {
        const inPeriod = sql`tenant_id = ${tenantId}::uuid and subscription_id = ${subscriptionId}
          and ${sql.raw(target.date)} between ${read.from}::date and ${read.to}::date`;
        const zeroed = await transaction.execute(sql`
          update ${sql.raw(target.table)} set ${sql.raw(columns.cost)} = 0, ${sql.raw(columns.readId)} = ${read.readId}::uuid
          where ${inPeriod} and ${sql.raw(columns.readId)} is distinct from ${read.readId}::uuid
        `);
        const deleted = await transaction.execute(sql`
          delete from ${sql.raw(target.table)}
          where ${inPeriod} and actual_cost = 0 and amortized_cost = 0 and usage_quantity = 0
        `);
        changedRows += (zeroed.rowCount ?? 0) + (deleted.rowCount ?? 0);
        // Once a read is whole, its period's totals are summed again from its rows: exact, whatever
        // the pages' changes added up to.
        if (read.granularity === 'Daily') {
          await transaction.execute(sql`delete from cost_day_total where ${inPeriod}`);
          await transaction.execute(sql`
            insert into cost_day_total (tenant_id, subscription_id, day, service_name, actual_cost, amortized_cost)
            select tenant_id, subscription_id, day, service_name, sum(actual_cost), sum(amortized_cost)
            from cost_day where ${inPeriod}
            group by tenant_id, subscription_id, day, service_name
          `);
        }
      }
      const versionStep = sql`case when ${changedRows > 0}::boolean or ${costSyncs.backfilledAt} is null then 1 else 0 end`;
      await transaction
        .update(costSyncs)
        .set({ ...syncChanges, plan, version: sql`${costSyncs.version} + ${versionStep}`, updatedAt: at })
        .where(and(eq(costSyncs.tenantId, tenantId), eq(costSyncs.subscriptionId, subscriptionId)));
    });
  }

  // Adds each (day, service_name, cost) of `changes` to that day's total of one cost column.
  private addToDayTotals(
    tenantId: string,
    subscriptionId: string,
    column: 'actual_cost' | 'amortized_cost',
    changes: SQL,
  ): SQL {
    const other = column === 'actual_cost' ? 'amortized_cost' : 'actual_cost';
    return sql`
      insert into cost_day_total (tenant_id, subscription_id, day, service_name, ${sql.raw(column)}, ${sql.raw(other)})
      select ${tenantId}::uuid, ${subscriptionId}, changed.day, changed.service_name, changed.cost, 0
      from (${changes}) as changed
      on conflict (tenant_id, subscription_id, day, service_name) do update set
        ${sql.raw(column)} = cost_day_total.${sql.raw(column)} + excluded.${sql.raw(column)}`;
  }

  // Sums by date bucket and group over the team's rows in scope. Tag groups and filters read the
  // resource's tags as inventory last saw them; a charge of no known resource is untagged ('').
  async sumCosts(request: CostSumRequest): Promise<CostSumRow[]> {
    const target = request.source === 'day' ? tables.Daily : tables.Monthly;
    const dateColumn = sql.raw(`cost.${target.date}`);
    // By service or subscription, the day totals hold the same sums in a few rows.
    const isDayTotal =
      request.source === 'day' &&
      (request.grouping.kind === 'service' || request.grouping.kind === 'subscription') &&
      this.isDayTotalScope(request.scope);
    const costColumn = sql.raw(request.costType === 'actual' ? 'cost.actual_cost' : 'cost.amortized_cost');
    const bucket =
      request.bucket === 'day'
        ? sql`to_char(${dateColumn}, 'YYYY-MM-DD')`
        : request.bucket === 'month'
          ? sql`to_char(date_trunc('month', ${dateColumn}), 'YYYY-MM-DD')`
          : sql`${request.from}::text`;
    const grouping = request.grouping;
    const needsTags = grouping.kind === 'tag' || request.scope.tag !== undefined;
    const group =
      grouping.kind === 'tag'
        ? sql`coalesce(resource.tags ->> ${grouping.name}, '')`
        : sql.raw(
            {
              service: 'cost.service_name',
              resourceGroup: 'cost.resource_group',
              subscription: 'cost.subscription_id',
              resource: 'cost.resource_id',
            }[grouping.kind],
          );
    const result = await this.db.execute<{ date: string; group: string; cost: number }>(sql`
      select ${bucket} as "date", ${group} as "group", sum(${costColumn})::float8 as cost
      from ${sql.raw(isDayTotal ? 'cost_day_total' : target.table)} as cost
      join tenant on tenant.id = cost.tenant_id
      ${needsTags ? sql`left join resource on resource.tenant_id = cost.tenant_id and lower(resource.arm_id) = cost.resource_id` : sql``}
      where ${this.scopeCondition(request.scope)}
        and ${dateColumn} between ${request.from}::date and ${request.to}::date
      group by 1, 2
      having sum(${costColumn}) <> 0
      order by 1, 3 desc
    `);
    return result.rows;
  }

  // The scope's actual cost by day (days with none left out), for the forecast.
  async listDailyCosts(
    scope: CostScope,
    from: string,
    to: string,
    costType: 'actual' | 'amortized' = 'actual',
  ): Promise<{ day: string; cost: number }[]> {
    const column = costType === 'actual' ? sql`cost.actual_cost` : sql`cost.amortized_cost`;
    const result = await this.db.execute<{ day: string; cost: number }>(sql`
      select to_char(cost.day, 'YYYY-MM-DD') as "day", sum(${column})::float8 as cost
      from ${sql.raw(this.isDayTotalScope(scope) ? 'cost_day_total' : 'cost_day')} as cost
      join tenant on tenant.id = cost.tenant_id
      ${scope.tag ? sql`left join resource on resource.tenant_id = cost.tenant_id and lower(resource.arm_id) = cost.resource_id` : sql``}
      where ${this.scopeCondition(scope)} and cost.day between ${from}::date and ${to}::date
      group by cost.day
      order by cost.day
    `);
    return result.rows;
  }

  // The currency most of the team's bill is in (one agreement, one currency, as a rule).
  async readCurrency(scope: CostScope): Promise<string | undefined> {
    const result = await this.db.execute<{ currency: string }>(sql`
      select cost.currency from cost_month as cost join tenant on tenant.id = cost.tenant_id
      where ${this.scopeCondition({ teamId: scope.teamId, tenantId: scope.tenantId })}
      group by cost.currency order by count(*) desc limit 1
    `);
    return result.rows[0]?.currency;
  }

  // The team's daily actual cost of one resource (ARM id, lower case) between two days.
  async listResourceDays(
    teamId: string,
    resourceId: string,
    from: string,
    to: string,
  ): Promise<{ date: string; cost: number; currency: string }[]> {
    const result = await this.db.execute<{ date: string; cost: number; currency: string }>(sql`
      select to_char(cost.day, 'YYYY-MM-DD') as "date", sum(cost.actual_cost)::float8 as cost,
        min(cost.currency) as currency
      from cost_day as cost join tenant on tenant.id = cost.tenant_id
      where tenant.team_id = ${teamId}::uuid and cost.resource_id = ${resourceId}
        and cost.day between ${from}::date and ${to}::date
      group by cost.day order by cost.day
    `);
    return result.rows;
  }

  // The daily rows of a period, each with what the export needs of its resource.
  async *streamDays(
    teamId: string,
    from: string,
    to: string,
    tenantId?: string,
  ): AsyncGenerator<CostExportRow[]> {
    let after = { day: '', tenantId: '', subscriptionId: '', resourceId: '', serviceName: '' };
    for (;;) {
      const result = await this.db.execute<CostExportRow>(sql`
        select to_char(cost.day, 'YYYY-MM-DD') as "day", cost.tenant_id as "tenantId",
          cost.subscription_id as "subscriptionId", cost.resource_id as "resourceId",
          cost.service_name as "serviceName", cost.resource_group as "resourceGroup",
          cost.actual_cost as "actualCost", cost.amortized_cost as "amortizedCost",
          cost.usage_quantity as "usageQuantity", cost.currency,
          resource.name as "resourceName", resource.type as "resourceType", resource.region,
          coalesce(resource.tags, '{}'::jsonb) as tags, subscription.display_name as "subscriptionName",
          -- Virtual machines at the Retail Prices list price of their size; else what was paid.
          case when vm_price.hourly_price is not null and cost.service_name = 'Virtual Machines'
            then cost.usage_quantity * vm_price.hourly_price else cost.amortized_cost end as "listCost"
        from cost_day as cost
        join tenant on tenant.id = cost.tenant_id
        left join resource on resource.tenant_id = cost.tenant_id and lower(resource.arm_id) = cost.resource_id
        left join subscription on subscription.tenant_id = cost.tenant_id
          and lower(subscription.subscription_id) = cost.subscription_id
        left join vm_price on vm_price.region = resource.region and vm_price.size_name = resource.sku
          and vm_price.os_type = coalesce(resource.os_type, 'Linux')
        where ${this.scopeCondition({ teamId, tenantId })}
          and cost.day between ${from}::date and ${to}::date
          and (to_char(cost.day, 'YYYY-MM-DD'), cost.tenant_id::text, cost.subscription_id, cost.resource_id, cost.service_name)
            > (${after.day}, ${after.tenantId}, ${after.subscriptionId}, ${after.resourceId}, ${after.serviceName})
        order by 1, 2, 3, 4, 5
        limit ${exportBatchRows}
      `);
      if (result.rows.length > 0) yield result.rows;
      if (result.rows.length < exportBatchRows) return;
      const last = result.rows.at(-1)!;
      after = {
        day: last.day,
        tenantId: last.tenantId,
        subscriptionId: last.subscriptionId,
        resourceId: last.resourceId,
        serviceName: last.serviceName,
      };
    }
  }

  // A VM's virtual machine charges over some days: what was paid (amortized) and the hours it ran.
  async readVmDays(
    tenantId: string,
    resourceId: string,
    from: string,
    to: string,
  ): Promise<{ cost: number; hours: number; days: number }> {
    const result = await this.db.execute<{ cost: number; hours: number; days: number }>(sql`
      select coalesce(sum(amortized_cost), 0)::float8 as cost, coalesce(sum(usage_quantity), 0)::float8 as hours,
             count(distinct day)::int as days
      from cost_day
      where tenant_id = ${tenantId}::uuid and resource_id = ${resourceId} and service_name = 'Virtual Machines'
        and day between ${from}::date and ${to}::date`);
    return result.rows[0]!;
  }

  // False when another run measured the change first.
  async insertRealizedSaving(saving: typeof realizedSavings.$inferInsert): Promise<boolean> {
    const inserted = await this.db
      .insert(realizedSavings)
      .values(saving)
      .onConflictDoNothing()
      .returning({ id: realizedSavings.scheduledChangeId });
    return inserted.length > 0;
  }

  // What measured changes have saved from their application (or the year's start) to a day, at
  // their realized annual rate.
  async sumRealizedSince(teamId: string, yearStart: Date, until: Date, tenantId?: string): Promise<number> {
    const result = await this.db.execute<{ total: number }>(sql`
      select coalesce(sum(saving.realized_annual / ${sql.raw(String(daysPerYear))} *
        greatest(0, extract(epoch from (${until.toISOString()}::timestamptz - greatest(saving.applied_at, ${yearStart.toISOString()}::timestamptz))) / 86400)
      ), 0)::float8 as total
      from realized_saving as saving
      where saving.team_id = ${teamId}::uuid
        ${tenantId ? sql`and saving.tenant_id = ${tenantId}::uuid` : sql``}`);
    return result.rows[0]!.total;
  }

  // Changes whenever the team's bill does (a page written) or its resources do (their tags), so an
  // answer computed under one version is current while it holds.
  async readTeamVersion(teamId: string): Promise<string> {
    const result = await this.db.execute<{ version: string }>(sql`
      select concat_ws('.',
        (select coalesce(sum(cost_sync.version), 0) from cost_sync join tenant on tenant.id = cost_sync.tenant_id
          where tenant.team_id = ${teamId}::uuid),
        (select coalesce(sum(resources_version), 0) || '-' || count(*) from tenant where team_id = ${teamId}::uuid),
        (select count(*) from realized_saving where team_id = ${teamId}::uuid)
      ) as version`);
    return result.rows[0]!.version;
  }

  // How far the bill of each subscription in scope has been read: those of active tenants whose
  // backfill is still to come or under way (a subscription Cost Management refuses is not being
  // read, so it is left out).
  async listBillProgress(
    scope: Pick<CostScope, 'teamId' | 'tenantId' | 'subscriptionId'>,
  ): Promise<{ backfilled: boolean; plan: CostRead[] | undefined }[]> {
    const result = await this.db.execute<{ plan: CostRead[] | null; backfilled: boolean }>(sql`
      select cost_sync.plan, cost_sync.backfilled_at is not null as backfilled
      from subscription
      join tenant on tenant.id = subscription.tenant_id
      left join cost_sync on cost_sync.tenant_id = tenant.id
        and cost_sync.subscription_id = lower(subscription.subscription_id)
      where tenant.team_id = ${scope.teamId}::uuid
        and tenant.is_active and tenant.encrypted_secret is not null
        and cost_sync.denied_at is null
        and cost_sync.backfilled_at is null
        ${scope.tenantId ? sql`and tenant.id = ${scope.tenantId}::uuid` : sql``}
        ${scope.subscriptionId ? sql`and lower(subscription.subscription_id) = ${scope.subscriptionId.toLowerCase()}` : sql``}
    `);
    return result.rows.map((row) => ({ backfilled: row.backfilled, plan: row.plan ?? undefined }));
  }

  // Whether the tenant and subscription a call names are the team's (each when named).
  async isTeamScope(teamId: string, tenantId?: string, subscriptionId?: string): Promise<boolean> {
    const result = await this.db.execute<{ found: boolean }>(sql`
      select exists (
        select 1 from tenant
        ${subscriptionId ? sql`join subscription on subscription.tenant_id = tenant.id and lower(subscription.subscription_id) = ${subscriptionId.toLowerCase()}` : sql``}
        where tenant.team_id = ${teamId}::uuid
          ${tenantId ? sql`and tenant.id = ${tenantId}::uuid` : sql``}
      ) as found
    `);
    return result.rows[0]?.found ?? false;
  }

  // Whether the team has the resource, or has its costs (a resource deleted since).
  async isTeamResource(teamId: string, resourceId: string): Promise<boolean> {
    const result = await this.db.execute<{ found: boolean }>(sql`
      select exists (
        select 1 from resource join tenant on tenant.id = resource.tenant_id
        where tenant.team_id = ${teamId}::uuid and lower(resource.arm_id) = ${resourceId}
      ) or exists (
        select 1 from cost_month as cost join tenant on tenant.id = cost.tenant_id
        where tenant.team_id = ${teamId}::uuid and cost.resource_id = ${resourceId}
      ) as found
    `);
    return result.rows[0]?.found ?? false;
  }

  // Whether a scope's daily sums can be read from cost_day_total: it keeps tenant, subscription and
  // service, not the resource's group or tags.
  private isDayTotalScope(scope: CostScope): boolean {
    return !scope.resourceGroup && !scope.tag;
  }

  private scopeCondition(scope: CostScope): SQL {
    const conditions: SQL[] = [sql`tenant.team_id = ${scope.teamId}::uuid`];
    if (scope.tenantId) conditions.push(sql`cost.tenant_id = ${scope.tenantId}::uuid`);
    if (scope.subscriptionId)
      conditions.push(sql`cost.subscription_id = ${scope.subscriptionId.toLowerCase()}`);
    if (scope.resourceGroup) conditions.push(sql`cost.resource_group = ${scope.resourceGroup.toLowerCase()}`);
    if (scope.service) conditions.push(sql`cost.service_name = ${scope.service}`);
    if (scope.tag)
      conditions.push(sql`coalesce(resource.tags ->> ${scope.tag.name}, '') = ${scope.tag.value}`);
    return sql.join(conditions, sql` and `);
  }

  // Each of the team's resources' actual cost from `from` on, keyed `<tenant id> <ARM id, lower case>`.
  async sumResourceCostsSince(teamId: string, from: string): Promise<Map<string, number>> {
    const rows = await this.db
      .select({
        tenantId: costDays.tenantId,
        resourceId: costDays.resourceId,
        cost: sql<number>`sum(${costDays.actualCost})::float8`,
      })
      .from(costDays)
      .innerJoin(tenants, eq(tenants.id, costDays.tenantId))
      .where(and(eq(tenants.teamId, teamId), gte(costDays.day, from)))
      .groupBy(costDays.tenantId, costDays.resourceId);
    return new Map(rows.map((row) => [`${row.tenantId} ${row.resourceId.toLowerCase()}`, row.cost]));
  }
}

const exportBatchRows = 5_000;

export type CostExportRow = {
  day: string;
  tenantId: string;
  subscriptionId: string;
  resourceId: string;
  serviceName: string;
  resourceGroup: string;
  actualCost: number;
  amortizedCost: number;
  usageQuantity: number;
  currency: string;
  resourceName: string | null;
  resourceType: string | null;
  region: string | null;
  tags: Record<string, string>;
  subscriptionName: string | null;
  listCost: number;
};
