// The whole path through the job workers: adding a tenant queues its sync, the sync queues the
// back-fill, the schedules' fan-out jobs reach every tenant, and a failing tenant fails alone.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCloudTestContext,
  createTenantRequest,
  waitFor,
  type CloudTestContext,
} from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { SecretBox } from '../../lib/secret-box';

let context: CloudTestContext;
let owner: TestUser;

beforeAll(async () => {
  context = await createCloudTestContext({ hasWorkers: true, emulator: { fleetSize: 10 } });
  owner = await createUser(context);
});
afterAll(() => context.close());

async function count(statement: ReturnType<typeof sql>): Promise<number> {
  const result = await context.container.database.db.execute<{ count: number }>(statement);
  return Number(result.rows[0]!.count);
}

describe('cloud jobs', () => {
  it('syncs a tenant added through the API, then back-fills its hourly history', async () => {
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/v1/tenant',
      headers: bearer(await logIn(context, owner)),
      payload: createTenantRequest(context.emulator, 0, 0),
    });
    expect(response.statusCode).toBe(200);
    const tenant = await waitFor(async () => {
      const [listed] = await context.container.tenants.listTenants(owner.teamId);
      return listed?.Status === 'OK' && listed;
    });
    expect(tenant.ResourceCount).toBeGreaterThan(10);
    await waitFor(async () => (await count(sql`select count(*) from metric_hourly`)) > 0);
  });

  it('collects every tenant from the fan-out job, while a tenant whose secret no longer works fails alone', async () => {
    const other = await createUser(context);
    await context.container.tenants.addTenant(other.teamId, createTenantRequest(context.emulator, 1, 0));
    const [broken] = await context.container.tenants.listTenants(other.teamId);
    // An old secret, sealed for this tenant: it no longer signs in.
    const rotated = new SecretBox(context.secrets.encryptionKey).encrypt('rotated-away-secret', broken!.Id);
    await context.container.database.db.execute(sql`
      update tenant set encrypted_secret = ${rotated} where id = ${broken!.Id}::uuid`);
    const [healthy] = await context.container.tenants.listTenants(owner.teamId);

    await context.container.inventory.enqueueSyncForAllTenants();
    await context.container.metrics.enqueueCollectionForAllTenants();
    const failed = await waitFor(async () => {
      const [listed] = await context.container.tenants.listTenants(other.teamId);
      return listed?.Status.startsWith('Sync failed') && listed;
    });
    expect(failed.Healthy).toBe(0);
    await waitFor(async () => {
      const [listed] = await context.container.tenants.listTenants(owner.teamId);
      return listed!.Status === 'OK' && Date.parse(listed!.LastSync!) > Date.parse(healthy!.LastSync!);
    });
    await waitFor(async () => (await count(sql`select count(*) from metric_point`)) > 0);
  });
});
