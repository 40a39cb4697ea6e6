// The one rule every per-tenant job follows (TenantsService.openForWork): a tenant that is gone or
// inactive has nothing to do; a tenant whose secret is missing or will not open has nothing that can
// be done, says so in its Status and, once, in Recent Activity; both are logged; none of it fails
// the job, since a retry could not help.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn } from '../../../test/helper';
import { createAzureGateway } from '../../cloud/azure/azure-gateway';
import { recommendations, resources, scheduledChanges } from '../../db/schema';
import { PgBossCloudWorkQueue } from '../../queue/cloud-work';
import { SecretBox } from '../../lib/secret-box';
import { TenantsRepository } from './tenants.repository';
import { TenantsService, tenantSecretUnreadableText, type TenantWorkLog } from './tenants.service';

let context: CloudTestContext;

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 4 } });
});
afterAll(() => context.close());

async function count(statement: ReturnType<typeof sql>): Promise<number> {
  const result = await context.container.database.db.execute<{ count: number }>(statement);
  return Number(result.rows[0]!.count);
}

async function connectNewTeam(tenantIndex = 0) {
  const owner = await createUser(context);
  return { owner, teamId: owner.teamId, tenantId: await connectTenant(context, owner.teamId, tenantIndex) };
}

// The container's tenants service, with a log the test can read.
function createLoggedTenants(): { tenants: TenantsService; lines: Array<[string, object, string]> } {
  const lines: Array<[string, object, string]> = [];
  const log: TenantWorkLog = {
    info: (details, message) => lines.push(['info', details, message]),
    warn: (details, message) => lines.push(['warn', details, message]),
  };
  const tenants = new TenantsService(
    new TenantsRepository(context.container.database.db),
    createAzureGateway(context.config.azure),
    new SecretBox(context.secrets.encryptionKey),
    new PgBossCloudWorkQueue(context.container.queue),
    context.container.activity,
    context.container.throttle,
    log,
  );
  return { tenants, lines };
}

// Every per-tenant entry point the jobs call, as the jobs call them.
async function runEveryTenantJob(tenantId: string) {
  const { inventory, metrics } = context.container;
  return {
    sync: await inventory.syncTenant(tenantId),
    collection: await metrics.collectTenant(tenantId),
    backfill: await metrics.backfillTenant(tenantId),
  };
}

const unreadableStatus = `Sync failed: ${tenantSecretUnreadableText}`;

describe('a per-tenant job', () => {
  it('for a tenant whose secret is missing does nothing, and the tenant says what to do, once', async () => {
    const { teamId, tenantId } = await connectNewTeam();
    await context.container.database.db.execute(sql`
      update tenant set encrypted_secret = null where id = ${tenantId}::uuid`);

    expect(await runEveryTenantJob(tenantId)).toEqual({
      sync: undefined,
      collection: undefined,
      backfill: undefined,
    });
    await runEveryTenantJob(tenantId);

    const [listed] = await context.container.tenants.listTenants(teamId);
    expect(listed).toMatchObject({ Status: unreadableStatus, Healthy: 0, ServicePrincipalSecret: 'None' });
    expect(await count(sql`select count(*) from resource where tenant_id = ${tenantId}::uuid`)).toBe(0);
    expect(
      await count(sql`
        select count(*) from activity_log
        where tenant_id = ${tenantId}::uuid and log_text like ${`%${tenantSecretUnreadableText}`}`),
    ).toBe(1);
  });

  it('treats a secret that will not open (sealed for another tenant) as a missing one, and logs it', async () => {
    const { tenantId: otherId } = await connectNewTeam(1);
    const { teamId, tenantId } = await connectNewTeam();
    await context.container.database.db.execute(sql`
      update tenant set encrypted_secret = (select encrypted_secret from tenant where id = ${otherId}::uuid)
      where id = ${tenantId}::uuid`);
    const { tenants, lines } = createLoggedTenants();

    expect(await tenants.openForWork(tenantId, 'inventory-sync')).toBeUndefined();
    expect(lines).toEqual([
      ['warn', { tenantId, job: 'inventory-sync' }, expect.stringContaining('secret missing or unreadable')],
    ]);
    expect(await runEveryTenantJob(tenantId)).toEqual({
      sync: undefined,
      collection: undefined,
      backfill: undefined,
    });
    const [listed] = await context.container.tenants.listTenants(teamId);
    expect(listed).toMatchObject({ Status: unreadableStatus, Healthy: 0 });
    // The other tenant, whose ciphertext it was, still works.
    expect(await context.container.inventory.syncTenant(otherId)).toMatchObject({ failures: [] });
  });

  it('for a tenant that is gone or inactive does nothing and reports nothing', async () => {
    const { tenantId: goneId } = await connectNewTeam();
    const { teamId, tenantId: inactiveId } = await connectNewTeam();
    await context.container.database.db.execute(sql`delete from tenant where id = ${goneId}::uuid`);
    await context.container.database.db.execute(sql`
      update tenant set is_active = false where id = ${inactiveId}::uuid`);
    const activityOf = () =>
      count(sql`select count(*) from activity_log where tenant_id = ${inactiveId}::uuid`);
    const activityBefore = await activityOf();
    const { tenants, lines } = createLoggedTenants();

    expect(await tenants.openForWork(goneId, 'metrics-collect')).toBeUndefined();
    expect(await tenants.openForWork(inactiveId, 'metrics-collect')).toBeUndefined();
    expect(lines.map(([level, details]) => [level, details])).toEqual([
      ['info', { tenantId: goneId, job: 'metrics-collect' }],
      ['info', { tenantId: inactiveId, job: 'metrics-collect' }],
    ]);
    for (const tenantId of [goneId, inactiveId]) {
      expect(await runEveryTenantJob(tenantId)).toEqual({
        sync: undefined,
        collection: undefined,
        backfill: undefined,
      });
    }
    const [inactive] = await context.container.tenants.listTenants(teamId);
    expect(inactive!.Status).not.toMatch(/^Sync failed/);
    expect(await activityOf()).toBe(activityBefore);
  });

  it('that loses its tenant while it runs simply ends; any other failure is still the job’s', async () => {
    const { tenantId } = await connectNewTeam();
    const { tenants, lines } = createLoggedTenants();
    const failure = new Error('an unexpected failure');

    await expect(
      tenants.runUnlessDeleted(tenantId, 'metrics-backfill', () => Promise.reject(failure)),
    ).rejects.toBe(failure);
    const result = await tenants.runUnlessDeleted(tenantId, 'metrics-backfill', async () => {
      await context.container.database.db.execute(sql`delete from tenant where id = ${tenantId}::uuid`);
      throw failure;
    });
    expect(result).toBeUndefined();
    expect(lines).toEqual([
      ['info', { tenantId, job: 'metrics-backfill' }, expect.stringContaining('deleted while its job ran')],
    ]);
  });

  it('that reads prices or applies a change follows the same rule', async () => {
    const { owner, tenantId } = await connectNewTeam();
    await context.container.inventory.syncTenant(tenantId);
    const { db } = context.container.database;
    const [vm] = await db
      .select()
      .from(resources)
      .where(and(eq(resources.tenantId, tenantId), eq(resources.type, 'Microsoft.Compute/virtualMachines')));
    const [recommendation] = await db
      .insert(recommendations)
      .values({
        teamId: owner.teamId,
        tenantId,
        resourceId: vm!.id,
        kind: 'shutdown',
        predictionMethod: 'cloudtrim-forecast',
        currentSize: vm!.sku,
        targetSize: null,
        recommendation: 'Shut down',
        annualCostSavings: 120,
        status: 'open',
      })
      .returning({ id: recommendations.id });
    const applied = await context.app.inject({
      method: 'GET',
      url: `/api/v1/log/recommendation/apply/now?id=${recommendation!.id}`,
      headers: bearer(await logIn(context, owner)),
    });
    expect(applied.statusCode).toBe(200);
    await db.execute(sql`update tenant set encrypted_secret = null where id = ${tenantId}::uuid`);

    const refresh = await context.container.pricing.ensureFreshForTenant(tenantId);
    expect(refresh.failures.length).toBeGreaterThan(0);
    const [change] = await db.select().from(scheduledChanges).where(eq(scheduledChanges.resourceId, vm!.id));
    await context.container.automation.executor.execute(change!.id);
    // The change waits for the secret rather than fail: it may be half-way through in Azure.
    const [waiting] = await db.select().from(scheduledChanges).where(eq(scheduledChanges.id, change!.id));
    expect(waiting).toMatchObject({
      state: 'claimed',
      error: expect.stringContaining("the tenant's secret is missing or cannot be read"),
    });
    expect(
      await count(sql`
        select count(*) from activity_log
        where tenant_id = ${tenantId}::uuid and log_text like ${`%${tenantSecretUnreadableText}`}`),
    ).toBe(1);
  });
});
