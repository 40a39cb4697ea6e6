import { setTimeout } from 'node:timers/promises';
import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import { readDatabaseErrorCode, type Db, type Executor } from '../../db/database';
import { subscriptions, tenants } from '../../db/schema';
import { deleteTenantPoints } from '../metrics/metric-rows.repository';

export type TenantRow = typeof tenants.$inferSelect;

export interface TenantSummary {
  id: string;
  friendlyName: string;
  type: 'Azure';
  azureTenantId: string;
  applicationId: string;
  hasSecret: boolean;
  status: string;
  isHealthy: boolean;
  isActive: boolean;
  lastSyncAt: Date | null;
  resourceCount: number;
  canWrite: boolean | null;
  // False once Cost Management refused the principal on a subscription, until it reads again.
  canReadCosts: boolean;
}

export interface NewTenant {
  // Chosen before the insert: the secret is sealed bound to it.
  id: string;
  teamId: string;
  friendlyName: string;
  azureTenantId: string;
  applicationId: string;
  encryptedSecret: string;
  // Null when the principal's permissions could not be read; a sync tries again.
  canWrite: boolean | null;
  subscriptions: { subscriptionId: string; displayName: string; state: string }[];
}

export class TenantsRepository {
  constructor(private readonly db: Db) {}

  // One small query: the resource count is kept by the syncs.
  async listForTeam(teamId: string): Promise<TenantSummary[]> {
    return this.db
      .select({
        id: tenants.id,
        friendlyName: tenants.friendlyName,
        type: tenants.type,
        azureTenantId: tenants.azureTenantId,
        applicationId: tenants.applicationId,
        hasSecret: sql<boolean>`${tenants.encryptedSecret} is not null`,
        status: tenants.status,
        isHealthy: tenants.isHealthy,
        isActive: tenants.isActive,
        lastSyncAt: tenants.lastSyncAt,
        resourceCount: tenants.resourceCount,
        canWrite: tenants.canWrite,
        canReadCosts: sql<boolean>`not exists (
          select 1 from cost_sync where cost_sync.tenant_id = ${tenants.id} and cost_sync.denied_at is not null
        )`,
      })
      .from(tenants)
      .where(eq(tenants.teamId, teamId))
      .orderBy(asc(tenants.friendlyName), asc(tenants.id));
  }

  async findById(id: string): Promise<TenantRow | undefined> {
    const [row] = await this.db.select().from(tenants).where(eq(tenants.id, id));
    return row;
  }

  async findByAzureTenant(teamId: string, azureTenantId: string): Promise<TenantRow | undefined> {
    const [row] = await this.db
      .select()
      .from(tenants)
      .where(and(eq(tenants.teamId, teamId), eq(tenants.azureTenantId, azureTenantId)));
    return row;
  }

  async listActiveIds(): Promise<string[]> {
    const rows = await this.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.isActive, true));
    return rows.map((row) => row.id);
  }

  // Undefined when the team already has this Azure tenant (the unique index decides, race-free).
  async insert(tenant: NewTenant): Promise<TenantRow | undefined> {
    return this.db.transaction(async (transaction) => {
      const [created] = await transaction
        .insert(tenants)
        .values({
          id: tenant.id,
          teamId: tenant.teamId,
          friendlyName: tenant.friendlyName,
          azureTenantId: tenant.azureTenantId,
          applicationId: tenant.applicationId,
          encryptedSecret: tenant.encryptedSecret,
          canWrite: tenant.canWrite,
          status: 'Pending',
        })
        .onConflictDoNothing()
        .returning();
      if (!created) return undefined;
      if (tenant.subscriptions.length > 0) {
        await transaction
          .insert(subscriptions)
          .values(tenant.subscriptions.map((subscription) => ({ ...subscription, tenantId: created.id })));
      }
      return created;
    });
  }

  // Secrets sealed before they were bound to their tenant (see SecretBox), to be sealed again.
  async listUnboundSecrets(): Promise<Array<{ id: string; encryptedSecret: string }>> {
    const rows = await this.db
      .select({ id: tenants.id, encryptedSecret: tenants.encryptedSecret })
      .from(tenants)
      .where(sql`${tenants.encryptedSecret} is not null and ${tenants.encryptedSecret} not like 'v2:%'`);
    return rows.map((row) => ({ id: row.id, encryptedSecret: row.encryptedSecret! }));
  }

  async replaceSecret(id: string, previous: string, encryptedSecret: string): Promise<void> {
    await this.db
      .update(tenants)
      .set({ encryptedSecret })
      .where(and(eq(tenants.id, id), eq(tenants.encryptedSecret, previous)));
  }

  // Resources, subscriptions and metrics go with it (foreign keys cascade), the metrics' points by
  // the metrics module's own delete first. A collection or back-fill writing this tenant's metrics
  // at that moment can deadlock with the cascade; PostgreSQL then aborts one side, and the delete
  // tries again.
  async deleteForTeam(teamId: string, id: string): Promise<TenantRow | undefined> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.db.transaction(async (transaction) => {
          const [owned] = await transaction
            .select({ id: tenants.id })
            .from(tenants)
            .where(and(eq(tenants.teamId, teamId), eq(tenants.id, id)))
            .for('update');
          if (!owned) return undefined;
          await deleteTenantPoints(transaction, id);
          const [deleted] = await transaction.delete(tenants).where(eq(tenants.id, id)).returning();
          return deleted;
        });
      } catch (error) {
        if (attempt >= 5 || !isConcurrencyFailure(error)) throw error;
        await setTimeout(50 * attempt);
      }
    }
  }

  // True when the value changed (so the change is said once in Recent Activity).
  async updateCanWrite(id: string, canWrite: boolean): Promise<boolean> {
    const changed = await this.db
      .update(tenants)
      .set({ canWrite })
      .where(and(eq(tenants.id, id), sql`${tenants.canWrite} is distinct from ${canWrite}`))
      .returning({ id: tenants.id });
    return changed.length > 0;
  }

  async recordSyncResult(
    id: string,
    // `at` is when a sync last succeeded; a failure leaves it as it was.
    result: { status: string; isHealthy: boolean; error: string | null; at?: Date },
  ) {
    await this.db
      .update(tenants)
      .set({
        status: result.status,
        isHealthy: result.isHealthy,
        lastError: result.error,
        ...(result.at ? { lastSyncAt: result.at } : {}),
      })
      .where(eq(tenants.id, id));
  }

  async listIdsForTeam(teamId: string): Promise<string[]> {
    const rows = await this.db.select({ id: tenants.id }).from(tenants).where(eq(tenants.teamId, teamId));
    return rows.map((row) => row.id);
  }
}

// deadlock_detected, serialization_failure, lock_not_available: another transaction won; retrying is safe.
function isConcurrencyFailure(error: unknown): boolean {
  const code = readDatabaseErrorCode(error);
  return code === '40P01' || code === '40001' || code === '55P03';
}

// The one place a tenant's resources_version moves (after any change the Cloud Resources list shows:
// it keys the list's cache and ETag), in the caller's transaction.
export async function bumpResourcesVersion(db: Executor, tenantId: string): Promise<void> {
  await db
    .update(tenants)
    .set({ resourcesVersion: sql`${tenants.resourcesVersion} + 1` })
    .where(eq(tenants.id, tenantId));
}

export async function bumpResourcesVersionOfResource(db: Executor, resourceId: string): Promise<void> {
  await db.execute(sql`
    update tenant set resources_version = resources_version + 1
    where id = (select tenant_id from resource where id = ${resourceId})`);
}

// After a sync changed a tenant's resources: a new version for cached lists, and the count the
// tenant list shows.
export async function recountTenantResources(db: Executor, tenantId: string): Promise<void> {
  await db.execute(sql`
    update tenant
    set resources_version = resources_version + 1,
        resource_count = (select count(*) from resource where resource.tenant_id = ${tenantId}::uuid)
    where id = ${tenantId}::uuid
  `);
}

// Subscriptions the principal no longer reads go, and their resources with them (the caller's
// transaction): answers the rows kept and those removed.
export async function replaceSubscriptionRows(
  db: Executor,
  tenantId: string,
  seen: { subscriptionId: string; displayName: string; state: string }[],
): Promise<{ rows: SubscriptionRow[]; removed: SubscriptionRow[] }> {
  const removed = await db
    .delete(subscriptions)
    .where(
      and(
        eq(subscriptions.tenantId, tenantId),
        seen.length > 0
          ? notInArray(
              subscriptions.subscriptionId,
              seen.map((subscription) => subscription.subscriptionId),
            )
          : undefined,
      ),
    )
    .returning({
      id: subscriptions.id,
      subscriptionId: subscriptions.subscriptionId,
      displayName: subscriptions.displayName,
    });
  const rows: SubscriptionRow[] = [];
  for (const subscription of seen) {
    const [row] = await db
      .insert(subscriptions)
      .values({ tenantId, ...subscription })
      .onConflictDoUpdate({
        target: [subscriptions.tenantId, subscriptions.subscriptionId],
        set: { displayName: subscription.displayName, state: subscription.state },
      })
      .returning({
        id: subscriptions.id,
        subscriptionId: subscriptions.subscriptionId,
        displayName: subscriptions.displayName,
      });
    rows.push(row!);
  }
  return { rows, removed };
}

export interface SubscriptionRow {
  id: string;
  subscriptionId: string;
  displayName: string;
}
