import { and, asc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { budgetCrossings, budgets, subscriptions, tenants, type BudgetThresholdRow } from '../../db/schema';

export type BudgetRow = typeof budgets.$inferSelect;
export type BudgetValues = Omit<typeof budgets.$inferInsert, 'id' | 'teamId' | 'createdAt' | 'updatedAt'>;
export type BudgetCrossingRow = typeof budgetCrossings.$inferSelect;
export type { BudgetThresholdRow };

export interface TeamTenant {
  id: string;
  friendlyName: string;
  subscriptionIds: string[];
}

// Works on whichever Db it is given: the pool's, or a transaction's (db/transaction.ts), so a
// crossing commits with its alert and mails.
export class BudgetsRepository {
  constructor(private readonly db: Db) {}

  listForTeam(teamId: string): Promise<BudgetRow[]> {
    return this.db
      .select()
      .from(budgets)
      .where(eq(budgets.teamId, teamId))
      .orderBy(asc(budgets.createdAt), asc(budgets.id));
  }

  // The budgets a tenant's bill counts in: its own, and its team's across tenants.
  async listForTenant(tenantId: string): Promise<BudgetRow[]> {
    const rows = await this.db
      .select({ budget: budgets })
      .from(budgets)
      .innerJoin(tenants, eq(tenants.teamId, budgets.teamId))
      .where(and(eq(tenants.id, tenantId), or(isNull(budgets.tenantId), eq(budgets.tenantId, tenantId))))
      .orderBy(asc(budgets.createdAt), asc(budgets.id));
    return rows.map((row) => row.budget);
  }

  async findForTeam(teamId: string, id: string): Promise<BudgetRow | undefined> {
    const [row] = await this.db
      .select()
      .from(budgets)
      .where(and(eq(budgets.teamId, teamId), eq(budgets.id, id)));
    return row;
  }

  // The team's budgets, counted under its lock (lockTeam) so two saves cannot pass the limit.
  async lockTeam(teamId: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`budget-limits:${teamId}`}))`);
  }

  async countForTeam(teamId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(budgets)
      .where(eq(budgets.teamId, teamId));
    return row!.count;
  }

  async insert(teamId: string, values: BudgetValues, at: Date): Promise<BudgetRow> {
    const [row] = await this.db
      .insert(budgets)
      .values({ ...values, teamId, createdAt: at, updatedAt: at })
      .returning();
    return row!;
  }

  async update(teamId: string, id: string, values: BudgetValues, at: Date): Promise<BudgetRow | undefined> {
    const [row] = await this.db
      .update(budgets)
      .set({ ...values, updatedAt: at })
      .where(and(eq(budgets.teamId, teamId), eq(budgets.id, id)))
      .returning();
    return row;
  }

  async delete(teamId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(budgets)
      .where(and(eq(budgets.teamId, teamId), eq(budgets.id, id)))
      .returning({ id: budgets.id });
    return rows.length > 0;
  }

  listCrossings(budgetIds: readonly string[]): Promise<BudgetCrossingRow[]> {
    if (budgetIds.length === 0) return Promise.resolve([]);
    return this.db
      .select()
      .from(budgetCrossings)
      .where(inArray(budgetCrossings.budgetId, [...budgetIds]))
      .orderBy(asc(budgetCrossings.crossedAt));
  }

  // False when the threshold has crossed in that period already (another worker, an earlier run):
  // the primary key decides, and a second insert waits for the first to commit or roll back.
  async insertCrossing(crossing: BudgetCrossingRow): Promise<boolean> {
    const rows = await this.db
      .insert(budgetCrossings)
      .values(crossing)
      .onConflictDoNothing()
      .returning({ budgetId: budgetCrossings.budgetId });
    return rows.length > 0;
  }

  async deleteCrossings(
    budgetId: string,
    periodStart: string,
    thresholdKeys: readonly string[],
  ): Promise<void> {
    if (thresholdKeys.length === 0) return;
    await this.db
      .delete(budgetCrossings)
      .where(
        and(
          eq(budgetCrossings.budgetId, budgetId),
          eq(budgetCrossings.periodStart, periodStart),
          inArray(budgetCrossings.thresholdKey, [...thresholdKeys]),
        ),
      );
  }

  // Serialises the evaluations of one budget (two workers after two ingestions), for the transaction.
  async lockBudget(budgetId: string): Promise<void> {
    await this.db.execute(sql`select pg_advisory_xact_lock(hashtext(${`budget:${budgetId}`}))`);
  }

  // The team's tenants with their subscriptions (Azure's ids), for the scope's checks and names.
  async listTeamTenants(teamId: string): Promise<TeamTenant[]> {
    const rows = await this.db
      .select({
        id: tenants.id,
        friendlyName: tenants.friendlyName,
        isActive: tenants.isActive,
        subscriptionId: subscriptions.subscriptionId,
        displayName: subscriptions.displayName,
      })
      .from(tenants)
      .leftJoin(subscriptions, eq(subscriptions.tenantId, tenants.id))
      .where(eq(tenants.teamId, teamId))
      .orderBy(asc(tenants.createdAt), asc(subscriptions.subscriptionId));
    const byId = new Map<string, TeamTenant>();
    for (const row of rows) {
      const tenant = byId.get(row.id) ?? { id: row.id, friendlyName: row.friendlyName, subscriptionIds: [] };
      if (row.subscriptionId) tenant.subscriptionIds.push(row.subscriptionId);
      byId.set(row.id, tenant);
    }
    return [...byId.values()];
  }

  async readSubscriptionName(teamId: string, subscriptionId: string): Promise<string | undefined> {
    const [row] = await this.db
      .select({ displayName: subscriptions.displayName })
      .from(subscriptions)
      .innerJoin(tenants, eq(tenants.id, subscriptions.tenantId))
      .where(
        and(
          eq(tenants.teamId, teamId),
          sql`lower(${subscriptions.subscriptionId}) = ${subscriptionId.toLowerCase()}`,
        ),
      )
      .limit(1);
    return row?.displayName;
  }

  // Whether the team's inventory or bill knows the resource group (in the subscription and tenant,
  // when given).
  async hasResourceGroup(
    teamId: string,
    group: string,
    tenantId?: string,
    subscriptionId?: string,
  ): Promise<boolean> {
    const result = await this.db.execute<{ found: boolean }>(sql`
      select exists (
        select 1 from resource join tenant on tenant.id = resource.tenant_id
        where tenant.team_id = ${teamId}::uuid
          and lower(resource.resource_group) = ${group.toLowerCase()}
          ${tenantId ? sql`and tenant.id = ${tenantId}::uuid` : sql``}
          ${subscriptionId ? sql`and lower(resource.arm_id) like ${`/subscriptions/${subscriptionId.toLowerCase()}/%`}` : sql``}
      ) or exists (
        select 1 from cost_month as cost join tenant on tenant.id = cost.tenant_id
        where tenant.team_id = ${teamId}::uuid
          and lower(cost.resource_group) = ${group.toLowerCase()}
          ${tenantId ? sql`and tenant.id = ${tenantId}::uuid` : sql``}
          ${subscriptionId ? sql`and cost.subscription_id = ${subscriptionId.toLowerCase()}` : sql``}
      ) as found`);
    return result.rows[0]?.found ?? false;
  }
}
