import { tenantAddedText, tenantExistsText, tenantNotAuthenticatedText } from '@cloudtrim/contracts/messages';
import { tenantsResponseSchema, type AddTenantRequest } from '@cloudtrim/contracts/tenants';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  connectTenant,
  createCloudTestContext,
  createTenantRequest,
  type CloudTestContext,
} from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { AzureGateway } from '../../cloud/azure/azure-gateway';
import { tenants as tenantTable } from '../../db/schema';
import { HttpError } from '../../lib/http-errors';
import {
  tenantAddedReadOnlyText,
  tenantNoSubscriptionsText,
  tenantReadOnlyStatus,
  tenantReadOnlyText,
} from './tenants.service';

let context: CloudTestContext;
let owner: TestUser;
let ownerToken: string;
let stranger: TestUser;
let strangerToken: string;

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 10 } });
  owner = await createUser(context);
  ownerToken = await logIn(context, owner);
  stranger = await createUser(context);
  strangerToken = await logIn(context, stranger);
});
afterAll(() => context.close());

const postTenant = (token: string, payload: object) =>
  context.app.inject({ method: 'POST', url: '/api/v1/tenant', headers: bearer(token), payload });

const getTenants = async (token: string) => {
  const response = await context.app.inject({ method: 'GET', url: '/api/v1/tenant', headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return tenantsResponseSchema.parse(response.json());
};

async function countRows(query: ReturnType<typeof sql>): Promise<number> {
  const result = await context.container.database.db.execute<{ count: number }>(query);
  return Number(result.rows[0]!.count);
}

describe('POST /api/v1/tenant', () => {
  it('checks the credentials with Entra ID, stores the tenant and queues its first sync', async () => {
    const request = createTenantRequest(context.emulator, 0, 0, 'Contoso Main');
    const response = await postTenant(ownerToken, request);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: tenantAddedText('Contoso Main') });

    const [tenant] = await getTenants(ownerToken);
    expect(tenant).toMatchObject({
      FriendlyName: 'Contoso Main',
      Type: 'Azure',
      TenantId: request.TenantId,
      ApplicationId: request.ApplicationId,
      ServicePrincipalSecret: 'Set',
      Status: 'Pending',
      Healthy: 1,
      Active: 1,
      LastSync: null,
      ResourceCount: 0,
      CanWrite: 1,
    });
    expect(JSON.stringify(tenant)).not.toContain(request.ServicePrincipalSecret);
    const queued = await countRows(
      sql`select count(*) from pgboss.job where name = 'inventory-sync' and data->>'tenantId' = ${tenant!.Id}`,
    );
    expect(queued).toBe(1);
    expect(await getTenants(strangerToken)).toEqual([]);
  });

  it('shows OK, healthy and the resource count once the sync has run', async () => {
    const [tenant] = await getTenants(ownerToken);
    const summary = await context.container.inventory.syncTenant(tenant!.Id);
    expect(summary?.failures).toEqual([]);
    const [synced] = await getTenants(ownerToken);
    expect(synced).toMatchObject({ Status: 'OK', Healthy: 1, ResourceCount: summary!.resourceCount });
    expect(summary!.resourceCount).toBeGreaterThan(10);
    expect(Date.parse(synced!.LastSync!)).toBeGreaterThan(Date.now() - 60_000);
  });

  it('answers 409 for an Azure tenant the team already has, in any letter case', async () => {
    const request = createTenantRequest(context.emulator, 0, 0, 'Again');
    const response = await postTenant(ownerToken, { ...request, TenantId: request.TenantId.toUpperCase() });
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(tenantExistsText);
    expect(await getTenants(ownerToken)).toHaveLength(1);
  });

  it('answers 400 for a wrong secret or an unknown application, storing nothing', async () => {
    const request = createTenantRequest(context.emulator, 1, 0);
    const wrongSecret = await postTenant(ownerToken, {
      ...request,
      ServicePrincipalSecret: 'not-the-secret',
    });
    expect(wrongSecret.statusCode).toBe(400);
    expect(wrongSecret.json().message).toBe(tenantNotAuthenticatedText);
    const unknownApplication = await postTenant(ownerToken, {
      ...request,
      ApplicationId: '0b9e3a4c-1111-4222-8333-944455556666',
    });
    expect(unknownApplication.statusCode).toBe(400);
    const unknownTenant = await postTenant(ownerToken, {
      ...request,
      TenantId: '0b9e3a4c-1111-4222-8333-944455556666',
    });
    expect(unknownTenant.statusCode).toBe(400);
    expect(await getTenants(ownerToken)).toHaveLength(1);
  });

  it('answers 400 for a principal that can read no subscription, storing nothing', async () => {
    const response = await postTenant(strangerToken, createTenantRequest(context.emulator, 0, 1));
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe(tenantNoSubscriptionsText);
    expect(await getTenants(strangerToken)).toEqual([]);
  });

  it('answers 400 naming the field for a malformed body, and 401 without a session', async () => {
    const request = createTenantRequest(context.emulator, 1, 0);
    const cases: [Partial<Record<keyof AddTenantRequest, unknown>>, string][] = [
      [{ ...request, FriendlyName: '  ' }, 'FriendlyName'],
      [{ ...request, TenantId: 'contoso' }, 'TenantId'],
      [{ ...request, ApplicationId: undefined }, 'ApplicationId'],
      [{ ...request, ServicePrincipalSecret: '' }, 'ServicePrincipalSecret'],
      [{ ...request, Type: 'AWS' }, 'Type'],
    ];
    for (const [payload, field] of cases) {
      const response = await postTenant(ownerToken, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json().field).toBe(field);
    }
    const anonymous = await context.app.inject({ method: 'POST', url: '/api/v1/tenant', payload: request });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('the service principal secret at rest', () => {
  it('appears in clear in no text column of any table', async () => {
    await connectTenant(context, stranger.teamId, 1, 0);
    const secrets = context.emulator.tenants.flatMap((tenant) =>
      tenant.principals.map((principal) => principal.secret),
    );
    const columns = await context.container.database.db.execute<{
      schema: string;
      table: string;
      column: string;
    }>(sql`
      select table_schema as schema, table_name as table, column_name as column
      from information_schema.columns
      join information_schema.tables using (table_schema, table_name)
      where table_type = 'BASE TABLE'
        and table_schema not in ('pg_catalog', 'information_schema')
        and data_type in ('text', 'character varying', 'json', 'jsonb', 'character')
    `);
    expect(
      columns.rows.some((column) => column.table === 'tenant' && column.column === 'encrypted_secret'),
    ).toBe(true);
    const found: string[] = [];
    for (const { schema, table, column } of columns.rows) {
      const identifier = sql.raw(`"${schema}"."${table}"`);
      const value = sql.raw(`"${column}"::text`);
      for (const secret of secrets) {
        const hits = await countRows(
          sql`select count(*) from ${identifier} where strpos(${value}, ${secret}) > 0`,
        );
        if (hits > 0) found.push(`${schema}.${table}.${column}`);
      }
    }
    expect(found).toEqual([]);
  });
});

describe('DELETE /api/v1/tenant/{id}', () => {
  it("answers 404 for another team's tenant or an unknown one, and 400 for a malformed id", async () => {
    const [tenant] = await getTenants(ownerToken);
    const foreign = await context.app.inject({
      method: 'DELETE',
      url: `/api/v1/tenant/${tenant!.Id}`,
      headers: bearer(strangerToken),
    });
    expect(foreign.statusCode).toBe(404);
    const unknown = await context.app.inject({
      method: 'DELETE',
      url: '/api/v1/tenant/0b9e3a4c-1111-4222-8333-944455556666',
      headers: bearer(ownerToken),
    });
    expect(unknown.statusCode).toBe(404);
    const malformed = await context.app.inject({
      method: 'DELETE',
      url: '/api/v1/tenant/not-a-guid',
      headers: bearer(ownerToken),
    });
    expect(malformed.statusCode).toBe(400);
    expect(await getTenants(ownerToken)).toHaveLength(1);
  });

  it('removes the tenant with its subscriptions, resources, metrics and points; its queued jobs do nothing', async () => {
    const [tenant] = await getTenants(ownerToken);
    await context.container.metrics.collectTenant(tenant!.Id);
    const byTenant = (table: string) =>
      countRows(sql`select count(*) from ${sql.raw(table)} where tenant_id = ${tenant!.Id}::uuid`);
    const metricsOfTenant = await countRows(sql`
      select count(*) from metric join resource on resource.id = metric.resource_id
      where resource.tenant_id = ${tenant!.Id}::uuid`);
    const metricsBefore = await countRows(sql`select count(*) from metric`);
    expect(await byTenant('resource')).toBeGreaterThan(0);
    expect(metricsOfTenant).toBeGreaterThan(0);
    // Only this tenant has been collected.
    expect(await countRows(sql`select count(*) from metric_point`)).toBeGreaterThan(0);

    const response = await context.app.inject({
      method: 'DELETE',
      url: `/api/v1/tenant/${tenant!.Id}`,
      headers: bearer(ownerToken),
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toContain('Contoso Main');
    expect(await getTenants(ownerToken)).toEqual([]);
    expect(await byTenant('resource')).toBe(0);
    expect(await byTenant('subscription')).toBe(0);
    expect(await countRows(sql`select count(*) from metric`)).toBe(metricsBefore - metricsOfTenant);
    expect(await countRows(sql`select count(*) from metric_point`)).toBe(0);
    expect(await context.container.inventory.syncTenant(tenant!.Id)).toBeUndefined();
    expect(await context.container.metrics.collectTenant(tenant!.Id)).toBeUndefined();
    expect(await context.container.metrics.backfillTenant(tenant!.Id)).toBeUndefined();
    // The other team's tenant is untouched.
    expect(await getTenants(strangerToken)).toHaveLength(1);
  });
});

describe('the credentials a process keeps for a tenant', () => {
  it('are forgotten when the tenant is deleted, and when a job finds it deactivated', async () => {
    const forget = vi.spyOn(AzureGateway.prototype, 'forgetCredentials');
    try {
      const user = await createUser(context);
      const token = await logIn(context, user);
      const request = createTenantRequest(context.emulator, 0, 0);
      const principal = { tenantId: request.TenantId, applicationId: request.ApplicationId };
      const deletedId = await connectTenant(context, user.teamId);
      expect(forget).not.toHaveBeenCalled();
      const response = await context.app.inject({
        method: 'DELETE',
        url: `/api/v1/tenant/${deletedId}`,
        headers: bearer(token),
      });
      expect(response.statusCode).toBe(200);
      expect(forget).toHaveBeenCalledTimes(1);
      expect(forget).toHaveBeenCalledWith(principal);

      forget.mockClear();
      const deactivatedId = await connectTenant(context, user.teamId);
      await context.container.database.db
        .update(tenantTable)
        .set({ isActive: false })
        .where(eq(tenantTable.id, deactivatedId));
      expect(await context.container.inventory.syncTenant(deactivatedId)).toBeUndefined();
      expect(forget).toHaveBeenCalledWith(principal);
    } finally {
      forget.mockRestore();
    }
  });
});

describe('a tenant whose service principal can only read', () => {
  let reader: TestUser;
  let readerToken: string;

  beforeAll(async () => {
    reader = await createUser(context);
    readerToken = await logIn(context, reader);
  });

  const readActivity = async (teamId: string) =>
    (await context.container.activity.listEntries(teamId, 0)).map((entry) => entry.LogText);

  const rejectionOf = async (tenantId: string) => {
    try {
      await context.container.tenants.assertCanWrite(tenantId);
      return undefined;
    } catch (error) {
      return error;
    }
  };

  it('is found out when added: told in the answer, shown on the tenant, said in Recent Activity', async () => {
    const response = await postTenant(
      readerToken,
      createTenantRequest(context.emulator, 1, 1, 'Fabrikam Read'),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: tenantAddedReadOnlyText('Fabrikam Read') });
    expect(response.json().message).toContain('Virtual Machine Contributor');
    const [added] = await getTenants(readerToken);
    expect(added).toMatchObject({ Status: 'Pending', CanWrite: 0 });

    await context.container.inventory.syncTenant(added!.Id);
    const [synced] = await getTenants(readerToken);
    // Reading works, so it is healthy; its Status says what to grant instead of 'OK'.
    expect(synced).toMatchObject({ Status: tenantReadOnlyStatus, Healthy: 1, CanWrite: 0 });
    expect(synced!.ResourceCount).toBeGreaterThan(0);
    const readOnlyLines = (await readActivity(reader.teamId)).filter((text) =>
      text?.includes('can only read'),
    );
    // Said once: the sync found what the add already knew.
    expect(readOnlyLines).toEqual([
      'Tenant "Fabrikam Read" can only read: grant its service principal the Virtual Machine Contributor role to apply recommendations',
    ]);
  });

  it('answers a clear 403 naming the role to whoever would change a VM of it', async () => {
    const [tenant] = await getTenants(readerToken);
    const rejection = await rejectionOf(tenant!.Id);
    expect(rejection).toBeInstanceOf(HttpError);
    expect(rejection).toMatchObject({ statusCode: 403, message: tenantReadOnlyText });
    expect(tenantReadOnlyText).toContain('Virtual Machine Contributor');

    const [writer] = await getTenants(strangerToken);
    expect(writer).toMatchObject({ CanWrite: 1 });
    expect(await rejectionOf(writer!.Id)).toBeUndefined();
    expect(await rejectionOf('0b9e3a4c-1111-4222-8333-944455556666')).toMatchObject({ statusCode: 404 });
  });

  it('is found out again by each sync, when a role is taken away or granted', async () => {
    const { db } = context.container.database;
    const [tenant] = await getTenants(readerToken);
    // As if the principal had held the role when it was added, and lost it since.
    await db.update(tenantTable).set({ canWrite: true }).where(eq(tenantTable.id, tenant!.Id));
    expect((await getTenants(readerToken))[0]).toMatchObject({ Status: 'OK', CanWrite: 1 });
    await context.container.inventory.syncTenant(tenant!.Id);
    expect((await getTenants(readerToken))[0]).toMatchObject({ Status: tenantReadOnlyStatus, CanWrite: 0 });
    expect(
      (await readActivity(reader.teamId)).filter((text) => text?.includes('can only read')),
    ).toHaveLength(2);

    // And the other way: the stranger's principal holds the role, whatever was stored before.
    const [writer] = await getTenants(strangerToken);
    await db.update(tenantTable).set({ canWrite: false }).where(eq(tenantTable.id, writer!.Id));
    await context.container.inventory.syncTenant(writer!.Id);
    expect((await getTenants(strangerToken))[0]).toMatchObject({ Status: 'OK', CanWrite: 1 });
    expect(await readActivity(stranger.teamId)).toContain(
      'Tenant "Fabrikam" may now change virtual machines (Virtual Machine Contributor)',
    );
  });
});
