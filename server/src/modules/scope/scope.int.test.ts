// GET /api/v1/scope over an inventory read from the emulator: the team's tenants, subscriptions by
// display name, resource groups and tag keys and values as seen, narrowed and searched, paged; bad
// input a 400 naming the field; another team's nothing.
import type { ScopeResponse } from '@cloudtrim/contracts/scope';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';

let context: CloudTestContext;
let owner: TestUser;
let token: string;
let tenantId: string;

async function get(query: string, authorization = token) {
  return context.app.inject({ method: 'GET', url: `/api/v1/scope?${query}`, headers: bearer(authorization) });
}

async function list(query: string, authorization = token): Promise<ScopeResponse> {
  const response = await get(query, authorization);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<ScopeResponse>();
}

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 120, seed: 31 } });
  owner = await createUser(context);
  token = await logIn(context, owner);
  tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
}, 60_000);
afterAll(() => context.close());

describe('GET /api/v1/scope', () => {
  it('lists the team’s tenants, subscriptions by display name and resource groups, narrowed down', async () => {
    const tenants = await list('kind=tenants');
    expect(tenants).toMatchObject({ Page: 1, TotalCount: 1, Items: [{ Value: tenantId }] });

    const emulated = context.emulator.tenants[0]!.subscriptions;
    const subscriptions = await list(`kind=subscriptions&tenantId=${tenantId}`);
    expect(subscriptions.Items.map((item) => item.Label).sort()).toEqual(
      emulated.map((item) => item.displayName).sort(),
    );
    const [first] = subscriptions.Items;
    expect(first).toMatchObject({ TenantId: tenantId, SubscriptionId: first!.Value });

    const groups = await list(`kind=resourceGroups&subscriptionId=${first!.Value}`);
    const rows = await context.container.database.db.execute<{ name: string }>(sql`
      select distinct lower(resource_group) as name from resource
      where tenant_id = ${tenantId}::uuid and lower(arm_id) like ${`/subscriptions/${first!.Value}/%`}`);
    expect(groups.TotalCount).toBe(rows.rows.length);
    expect(groups.Items.every((item) => item.SubscriptionId === first!.Value)).toBe(true);
    const name = groups.Items[0]!.Value;
    const searched = await list(
      `kind=resourceGroups&search=${encodeURIComponent(name.slice(1, -1).toUpperCase())}`,
    );
    expect(searched.Items.map((item) => item.Value)).toContain(name);
  });

  it('lists tag keys and a key’s values as seen, a page at a time', async () => {
    const keys = await list('kind=tagKeys');
    expect(keys.Items.map((item) => item.Value)).toEqual(
      expect.arrayContaining(['application', 'environment', 'costcenter']),
    );
    const values = await list('kind=tagValues&tagKey=environment');
    expect(values.Items.map((item) => item.Value).sort()).toEqual(expect.arrayContaining(['prod']));
    const all = await list('kind=tagValues&tagKey=application');
    if (all.TotalCount > 50) {
      const second = await list('kind=tagValues&tagKey=application&page=2');
      expect(second.Page).toBe(2);
      expect(second.Items.length).toBe(Math.min(50, all.TotalCount - 50));
    }
    const past = await list('kind=tagKeys&page=99');
    expect(past).toMatchObject({ Items: [], Page: 99, TotalCount: keys.TotalCount });
  });

  it('answers 400 naming the field for bad input, and another team nothing', async () => {
    for (const [query, field] of [
      ['kind=regions', 'kind'],
      ['kind=tagValues', 'tagKey'],
      ['kind=tenants&page=0', 'page'],
      ['kind=subscriptions&tenantId=nope', 'tenantId'],
    ] as const) {
      const response = await get(query);
      expect(response.statusCode, query).toBe(400);
      expect(response.body, query).toContain(field);
    }
    const stranger = await createUser(context);
    const strangerToken = await logIn(context, stranger);
    for (const kind of ['tenants', 'subscriptions', 'resourceGroups', 'tagKeys']) {
      expect(await list(`kind=${kind}`, strangerToken)).toMatchObject({ Items: [], TotalCount: 0 });
    }
    expect(await list(`kind=subscriptions&tenantId=${tenantId}`, strangerToken)).toMatchObject({ Items: [] });
    expect((await get('kind=tenants', '')).statusCode).toBe(401);
  });
});
