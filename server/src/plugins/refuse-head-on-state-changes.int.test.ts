// HEAD on a GET that applies a recommendation is refused and applies nothing (SPEC's apply calls are
// GETs, and Fastify would otherwise answer HEAD by running the GET's handler).
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../test/azure-emulator';
import { bearer, createUser, logIn } from '../../test/helper';
import { automationLogs, recommendations, resources, scheduledChanges } from '../db/schema';
import { stateChangingGetRoutes } from './refuse-head-on-state-changes';

let context: CloudTestContext;
let token: string;
let recommendationId: number;
let resourceId: string;

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 2 } });
  const owner = await createUser(context);
  token = await logIn(context, owner);
  const tenantId = await connectTenant(context, owner.teamId);
  await context.container.inventory.syncTenant(tenantId);
  const { db } = context.container.database;
  const [vm] = await db
    .select()
    .from(resources)
    .where(and(eq(resources.tenantId, tenantId), eq(resources.type, 'Microsoft.Compute/virtualMachines')));
  resourceId = vm!.id;
  const [row] = await db
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
  recommendationId = row!.id;
}, 60_000);
afterAll(() => context?.close());

async function countChanges() {
  const { db } = context.container.database;
  const changes = await db.select().from(scheduledChanges).where(eq(scheduledChanges.resourceId, resourceId));
  const logs = await db.select().from(automationLogs).where(eq(automationLogs.resourceId, resourceId));
  return { changes: changes.length, logs: logs.length };
}

describe('HEAD on the apply calls', () => {
  it('answers 405 allowing GET, signed in or not, and applies nothing', async () => {
    for (const route of stateChangingGetRoutes) {
      for (const headers of [bearer(token), {}]) {
        const response = await context.app.inject({
          method: 'HEAD',
          url: `${route}?id=${recommendationId}`,
          headers,
        });
        expect(response.statusCode).toBe(405);
        expect(response.headers.allow).toBe('GET');
        expect(response.body).toBe('');
      }
    }
    expect(await countChanges()).toEqual({ changes: 0, logs: 0 });
    const [recommendation] = await context.container.database.db
      .select({ status: recommendations.status })
      .from(recommendations)
      .where(eq(recommendations.id, recommendationId));
    expect(recommendation!.status).toBe('open');
  });

  it('still applies on GET', async () => {
    const response = await context.app.inject({
      method: 'GET',
      url: `/api/v1/log/recommendation/apply/maintenancewindow?id=${recommendationId}`,
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
    expect((await countChanges()).changes).toBe(1);
  });

  it('leaves HEAD on a GET that only reads alone', async () => {
    const response = await context.app.inject({
      method: 'HEAD',
      url: '/api/v1/team',
      headers: bearer(token),
    });
    expect(response.statusCode).toBe(200);
  });
});
