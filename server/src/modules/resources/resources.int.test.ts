import { automationUpdatedText, resourceSavedText } from '@cloudtrim/contracts/messages';
import {
  buildResourceAutomationPath,
  cloudResourcesResponseSchema,
  findResourcesResponseSchema,
  type CloudResource,
} from '@cloudtrim/contracts/resources';
import { and, eq, sql } from 'drizzle-orm';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectTenant,
  createCloudTestContext,
  createTenantRequest,
  type CloudTestContext,
} from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { resources as resourceTable, scheduledChanges } from '../../db/schema';

let context: CloudTestContext;
let owner: TestUser;
let ownerToken: string;
let strangerToken: string;

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 10 } });
  owner = await createUser(context);
  ownerToken = await logIn(context, owner);
  const stranger = await createUser(context);
  strangerToken = await logIn(context, stranger);
  // Two tenants, added in the reverse of their names' order.
  for (const tenantIndex of [1, 0]) {
    await context.container.inventory.syncTenant(await connectTenant(context, owner.teamId, tenantIndex, 0));
  }
  await context.container.inventory.syncTenant(await connectTenant(context, stranger.teamId, 1, 0));
});
afterAll(() => context.close());

const getResources = async (token: string): Promise<CloudResource[]> => {
  const response = await context.app.inject({
    method: 'GET',
    url: '/api/v1/resource',
    headers: bearer(token),
  });
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return cloudResourcesResponseSchema.parse(response.json());
};

const postResource = (token: string, payload: unknown) =>
  context.app.inject({
    method: 'POST',
    url: '/api/v1/resource',
    headers: bearer(token),
    payload: payload as object,
  });

describe('GET /api/v1/resource', () => {
  it("lists the team's resources in the contract's shape, sorted by tenant, resource group and name", async () => {
    const resources = await getResources(ownerToken);
    const tenants = await context.container.tenants.listTenants(owner.teamId);
    expect(resources).toHaveLength(tenants.reduce((total, tenant) => total + tenant.ResourceCount, 0));
    expect(new Set(resources.map((resource) => resource.TenantName))).toEqual(
      new Set(['Contoso', 'Fabrikam']),
    );
    const sortKey = (resource: CloudResource) =>
      [
        resource.TenantName,
        resource.ResourceGroup?.toLowerCase(),
        resource.ResourceId.split('/').at(-1)!.toLowerCase(),
      ].join('\u0000');
    const keys = resources.map(sortKey);
    expect(keys).toEqual([...keys].sort());
    expect(resources[0]).toMatchObject({
      TenantName: 'Contoso',
      TenantId: tenants.find((tenant) => tenant.FriendlyName === 'Contoso')!.Id,
      Automated: 0,
      ActiveHoursStart: null,
      ActiveHoursEnd: null,
    });
    expect(resources.every((resource) => resource.SubscriptionName && resource.LastRead)).toBe(true);
  });

  it('shows another team only its own resources, and nothing to a team without tenants', async () => {
    const strangers = await getResources(strangerToken);
    expect(strangers.every((resource) => resource.TenantName === 'Fabrikam')).toBe(true);
    const loner = await logIn(context, await createUser(context));
    expect(await getResources(loner)).toEqual([]);
  });
});

describe('GET /api/v1/resource: one tenant changed', () => {
  it("shows the change at once beside the other tenant's rows as they were", async () => {
    const before = await getResources(ownerToken);
    const fabrikam = before.find((resource) => resource.TenantName === 'Fabrikam')!;
    expect(before[0]!.TenantName).toBe('Contoso');
    const response = await postResource(ownerToken, [
      { ResourceId: fabrikam.ResourceId, Automated: 1, ActiveHoursStart: 7, ActiveHoursEnd: 19 },
    ]);
    expect(response.statusCode).toBe(200);
    const after = await getResources(ownerToken);
    expect(after).toEqual(
      before.map((resource) =>
        resource === fabrikam
          ? { ...resource, Automated: 1, ActiveHoursStart: 7, ActiveHoursEnd: 19 }
          : resource,
      ),
    );
  });

  it('writes a name with quotes, a backslash and accents as JSON that reads back the same', async () => {
    const user = await createUser(context);
    const friendlyName = 'Zürich "Ops" \\ night\tshift';
    await context.container.tenants.addTenant(
      user.teamId,
      createTenantRequest(context.emulator, 0, 0, friendlyName),
    );
    const [tenant] = await context.container.tenants.listTenants(user.teamId);
    await context.container.inventory.syncTenant(tenant!.Id);
    const resources = await getResources(await logIn(context, user));
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((resource) => resource.TenantName === friendlyName)).toBe(true);
  });
});

describe('GET /api/v1/resource: encodings and revalidation', () => {
  const getRaw = (token: string, headers: Record<string, string> = {}) =>
    context.app.inject({ method: 'GET', url: '/api/v1/resource', headers: { ...bearer(token), ...headers } });

  it('sends the same list compressed with brotli or gzip when the client accepts them', async () => {
    const plain = await getRaw(ownerToken);
    expect(plain.headers['content-encoding']).toBeUndefined();
    const expected = plain.json();
    const brotli = await getRaw(ownerToken, { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers.vary).toMatch(/accept-encoding/i);
    expect(JSON.parse(brotliDecompressSync(brotli.rawPayload).toString())).toEqual(expected);
    const gzipped = await getRaw(ownerToken, { 'accept-encoding': 'gzip, deflate' });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzipped.rawPayload).toString())).toEqual(expected);
  });

  it('answers 304 for the copy a browser already holds, and the new list once it changed', async () => {
    const first = await getRaw(ownerToken);
    const etag = first.headers.etag as string;
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const revalidated = await getRaw(ownerToken, { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    // Another team's copy never matches, even a team whose list is empty.
    expect((await getRaw(strangerToken, { 'if-none-match': etag })).statusCode).toBe(200);

    const [resource] = first.json() as CloudResource[];
    await postResource(ownerToken, [
      { ResourceId: resource!.ResourceId, Automated: 0, ActiveHoursStart: 6, ActiveHoursEnd: 20 },
    ]);
    const changed = await getRaw(ownerToken, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect((changed.json() as CloudResource[])[0]).toMatchObject({ ActiveHoursStart: 6, ActiveHoursEnd: 20 });
  });
});

describe('POST /api/v1/resource', () => {
  it('saves automation and active hours, shown at once by the list', async () => {
    const [first] = await getResources(ownerToken);
    const response = await postResource(ownerToken, [
      { ResourceId: first!.ResourceId.toUpperCase(), Automated: 1, ActiveHoursStart: 8, ActiveHoursEnd: 18 },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: resourceSavedText });
    const [saved] = await getResources(ownerToken);
    expect(saved).toMatchObject({
      ResourceId: first!.ResourceId,
      Automated: 1,
      ActiveHoursStart: 8,
      ActiveHoursEnd: 18,
    });
    await postResource(ownerToken, [
      { ResourceId: first!.ResourceId, Automated: 0, ActiveHoursStart: 0, ActiveHoursEnd: 23 },
    ]);
    expect((await getResources(ownerToken))[0]).toMatchObject({
      Automated: 0,
      ActiveHoursStart: 0,
      ActiveHoursEnd: 23,
    });
  });

  it('answers 400 for anything but an array holding one valid item', async () => {
    const [first] = await getResources(ownerToken);
    const item = { ResourceId: first!.ResourceId, Automated: 1, ActiveHoursStart: 8, ActiveHoursEnd: 18 };
    const invalid: unknown[] = [
      item,
      [],
      [item, item],
      [{ ...item, Automated: 2 }],
      [{ ...item, ActiveHoursStart: 24 }],
      [{ ...item, ActiveHoursEnd: -1 }],
      [{ ...item, ActiveHoursEnd: 7.5 }],
      [{ ...item, ResourceId: '' }],
      [{ Automated: 1, ActiveHoursStart: 8, ActiveHoursEnd: 18 }],
    ];
    for (const payload of invalid) expect((await postResource(ownerToken, payload)).statusCode).toBe(400);
    expect((await getResources(ownerToken))[0]).toMatchObject({ Automated: 0, ActiveHoursStart: 0 });
  });

  it("answers 404 for another team's or an unknown resource, changing nothing", async () => {
    const [first] = await getResources(ownerToken);
    const foreign = await postResource(strangerToken, [
      { ResourceId: first!.ResourceId, Automated: 1, ActiveHoursStart: 1, ActiveHoursEnd: 2 },
    ]);
    expect(foreign.statusCode).toBe(404);
    const unknown = await postResource(ownerToken, [
      { ResourceId: `${first!.ResourceId}-gone`, Automated: 1, ActiveHoursStart: 1, ActiveHoursEnd: 2 },
    ]);
    expect(unknown.statusCode).toBe(404);
    expect((await getResources(ownerToken))[0]).toMatchObject({ Automated: 0, ActiveHoursStart: 0 });
  });
});

describe('GET /api/v1/resource/find', () => {
  const find = (token: string, partialResource?: string) =>
    context.app.inject({
      method: 'GET',
      url: '/api/v1/resource/find',
      query: partialResource === undefined ? {} : { partialResource },
      headers: bearer(token),
    });

  it('matches a case-insensitive part of the name or the ARM id, with the automation view fields', async () => {
    const resources = await getResources(ownerToken);
    const machine = resources.find(
      (resource) => resource.ResourceType === 'Microsoft.Compute/virtualMachines',
    )!;
    const name = machine.ResourceId.split('/').at(-1)!;
    const byName = findResourcesResponseSchema.parse((await find(ownerToken, name.toUpperCase())).json());
    expect(byName.Data.map((resource) => resource.ResourceId)).toContain(machine.ResourceId);
    expect(byName.Data.find((resource) => resource.ResourceId === machine.ResourceId)).toMatchObject({
      ResourceName: name,
      ResourceCategory: 'Compute',
      SubCategory: 'Virtual Machine',
      PredictionMethod: 'cloudtrim-forecast',
      PredictionMethodFriendlyShortText: 'Forecast of the next 14 days',
      TenantId: machine.TenantId,
      SubscriptionName: machine.SubscriptionName,
      ResourceGroup: machine.ResourceGroup,
    });
    const group = machine.ResourceGroup!;
    const byId = findResourcesResponseSchema.parse(
      (await find(ownerToken, `resourceGroups/${group}`)).json(),
    );
    expect(byId.Data.length).toBe(resources.filter((resource) => resource.ResourceGroup === group).length);
    expect((await find(ownerToken, '%')).json().Data).toEqual([]);
  });

  it("finds nothing of another team's, and answers 400 without a search", async () => {
    const [first] = await getResources(ownerToken);
    const strangers = (await find(strangerToken, first!.ResourceId)).json();
    expect(strangers).toEqual({ Data: [] });
    expect((await find(ownerToken)).statusCode).toBe(400);
    expect((await find(ownerToken, '   ')).statusCode).toBe(400);
  });
});

describe('PUT /api/v1/resource/{resource path}', () => {
  // As SPEC's client sends it: the id appended to the path, a JSON content type and no body.
  const putAutomation = (token: string, resourceId: string, query: string) =>
    context.app.inject({
      method: 'PUT',
      url: `${buildResourceAutomationPath(resourceId)}?${query}`,
      headers: { ...bearer(token), 'content-type': 'application/json' },
    });

  // A Contoso machine: the stranger's team connected Fabrikam too, so its ids are in both teams.
  const findMachine = async () => {
    const resources = await getResources(ownerToken);
    return resources
      .filter(
        (resource) =>
          resource.TenantName === 'Contoso' && resource.ResourceType === 'Microsoft.Compute/virtualMachines',
      )
      .at(-1)!;
  };

  const searchFor = async (resourceId: string) => {
    const response = await context.app.inject({
      method: 'GET',
      url: '/api/v1/resource/find',
      query: { partialResource: resourceId },
      headers: bearer(ownerToken),
    });
    return findResourcesResponseSchema
      .parse(response.json())
      .Data.find((resource) => resource.ResourceId === resourceId)!;
  };

  const readRow = async (resourceId: string) => {
    const [row] = await context.container.database.db
      .select()
      .from(resourceTable)
      .where(eq(sql`lower(${resourceTable.armId})`, resourceId.toLowerCase()));
    return row!;
  };

  it('saves Automate and the window with no body, shown by the search and the Cloud Resources list', async () => {
    const machine = await findMachine();
    const before = await context.app.inject({
      method: 'GET',
      url: '/api/v1/resource',
      headers: bearer(ownerToken),
    });
    const response = await putAutomation(ownerToken, machine.ResourceId, 'automated=1&maintenanceWindow=3');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({ message: automationUpdatedText });
    expect(await searchFor(machine.ResourceId)).toMatchObject({ Automated: 1, MaintenanceWindow: 3 });
    const after = await context.app.inject({
      method: 'GET',
      url: '/api/v1/resource',
      headers: { ...bearer(ownerToken), 'if-none-match': before.headers.etag as string },
    });
    expect(after.statusCode).toBe(200);
    expect(
      (after.json() as CloudResource[]).find((row) => row.ResourceId === machine.ResourceId),
    ).toMatchObject({
      Automated: 1,
    });
  });

  it('keeps the window when none is sent, and lists No Change as not automated', async () => {
    const machine = await findMachine();
    await putAutomation(ownerToken, machine.ResourceId, 'automated=1&maintenanceWindow=4');
    const response = await putAutomation(ownerToken, machine.ResourceId.toUpperCase(), 'automated=2');
    expect(response.statusCode).toBe(200);
    expect(await searchFor(machine.ResourceId)).toMatchObject({ Automated: 2, MaintenanceWindow: 4 });
    expect(
      (await getResources(ownerToken)).find((row) => row.ResourceId === machine.ResourceId),
    ).toMatchObject({
      Automated: 0,
    });
    await putAutomation(ownerToken, machine.ResourceId, 'automated=0&maintenanceWindow=0');
    expect(await searchFor(machine.ResourceId)).toMatchObject({ Automated: 0, MaintenanceWindow: 0 });
  });

  it('answers 400 for bad values and changes nothing', async () => {
    const machine = await findMachine();
    await putAutomation(ownerToken, machine.ResourceId, 'automated=1&maintenanceWindow=5');
    for (const query of [
      '',
      'automated=3',
      'automated=-1',
      'automated=yes',
      'automated=1.5',
      'automated=',
      'automated=0&maintenanceWindow=24',
      'automated=0&maintenanceWindow=-1',
      'automated=0&maintenanceWindow=2.5',
      'automated=0&maintenanceWindow=noon',
    ]) {
      const response = await putAutomation(ownerToken, machine.ResourceId, query);
      expect(response.statusCode, query).toBe(400);
    }
    // Text PostgreSQL cannot hold.
    expect((await putAutomation(ownerToken, `${machine.ResourceId}\u0000`, 'automated=0')).statusCode).toBe(
      400,
    );
    expect(await searchFor(machine.ResourceId)).toMatchObject({ Automated: 1, MaintenanceWindow: 5 });
  });

  it("answers 404 for another team's or an unknown resource, changing nothing", async () => {
    const machine = await findMachine();
    await putAutomation(ownerToken, machine.ResourceId, 'automated=0&maintenanceWindow=6');
    expect(
      (await putAutomation(strangerToken, machine.ResourceId, 'automated=1&maintenanceWindow=1')).statusCode,
    ).toBe(404);
    expect(
      (await putAutomation(ownerToken, `${machine.ResourceId}-gone`, 'automated=1&maintenanceWindow=1'))
        .statusCode,
    ).toBe(404);
    expect(await searchFor(machine.ResourceId)).toMatchObject({ Automated: 0, MaintenanceWindow: 6 });
  });

  it('moves the changes planned at the window to the new one, and No Change drops them but not a rollback', async () => {
    const machine = await findMachine();
    await putAutomation(ownerToken, machine.ResourceId, 'automated=1&maintenanceWindow=2');
    const row = await readRow(machine.ResourceId);
    const { db } = context.container.database;
    const plan = async (origin: 'window' | 'guard') => {
      const [change] = await db
        .insert(scheduledChanges)
        .values({
          teamId: owner.teamId,
          tenantId: row.tenantId,
          resourceId: row.id,
          kind: origin === 'guard' ? 'rollback' : 'resize',
          origin,
          newSize: 'Standard_D2s_v5',
          changeAt: new Date(Date.now() + 3_600_000),
        })
        .returning();
      return change!;
    };
    const readChange = async (id: number) =>
      (await db.select().from(scheduledChanges).where(eq(scheduledChanges.id, id)))[0]!;

    const planned = await plan('window');
    await putAutomation(ownerToken, machine.ResourceId, 'automated=1&maintenanceWindow=7');
    const moved = await readChange(planned.id);
    expect(moved).toMatchObject({ state: 'planned', version: 2 });
    expect(moved.changeAt.getUTCHours()).toBe(7);
    expect(moved.changeAt.getUTCMinutes()).toBe(0);
    expect(moved.changeAt.getTime() - Date.now()).toBeGreaterThan(0);
    expect(moved.changeAt.getTime() - Date.now()).toBeLessThanOrEqual(24 * 3_600_000);

    await putAutomation(ownerToken, machine.ResourceId, 'automated=1');
    expect(await readChange(planned.id)).toMatchObject({ version: 2 });

    await putAutomation(ownerToken, machine.ResourceId, 'automated=2');
    expect(await readChange(planned.id)).toMatchObject({ state: 'cancelled' });
    const activity = await context.container.activity.listEntries(owner.teamId, 0, machine.ResourceId);
    const name = machine.ResourceId.split('/').at(-1)!;
    expect(activity.map((entry) => entry.LogText)).toEqual(
      expect.arrayContaining([
        `${name}: automation set to Automated, maintenance window 07:00 - 08:00 UTC; 1 planned change(s) moved to the new window`,
        `${name}: automation set to No Change, maintenance window 07:00 - 08:00 UTC; 1 planned change(s) cancelled`,
      ]),
    );
    const rollback = await plan('guard');
    await putAutomation(ownerToken, machine.ResourceId, 'automated=2&maintenanceWindow=9');
    expect(await readChange(rollback.id)).toMatchObject({ state: 'planned', version: 1 });
    await db
      .delete(scheduledChanges)
      .where(and(eq(scheduledChanges.resourceId, row.id), eq(scheduledChanges.state, 'planned')));
  });
});
