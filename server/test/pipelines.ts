// What the pipelines integration tests share: a cron that never fires while they move the clock, the
// API called as a signed-in member (pipelines created and run through it, a run read back), and a
// team's owner with one tenant synced from the emulator and its running VMs.
import type { Pipeline, PipelineDefinitionRequest, PipelineRunDetail } from '@cloudtrim/contracts/pipelines';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { resources } from '../src/db/schema';
import { connectTenant, listRunningVms, type CloudTestContext } from './azure-emulator';
import { bearer, createUser, logIn, type TestContext, type TestUser } from './helper';

// A yearly cron: a pipeline with it only runs when asked.
export const neverInTests = { cron: '0 0 1 1 *', timeZone: 'UTC' };

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

// Calls as the user whose token `readToken` answers, unless another token is given; the context and
// token are read at each call, so the client can be made before beforeAll sets them.
export function createPipelineClient(readContext: () => Pick<TestContext, 'app'>, readToken: () => string) {
  async function call(method: Method, url: string, body?: unknown, token = readToken()) {
    return readContext().app.inject({
      method,
      url,
      headers: { ...bearer(token), 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  }

  async function createPipeline(definition: PipelineDefinitionRequest, token?: string): Promise<Pipeline> {
    const response = await call('POST', '/api/v1/pipeline', definition, token);
    expect(response.statusCode, response.body).toBe(201);
    return response.json<Pipeline>();
  }

  async function runPipeline(id: string, dryRun: boolean, token?: string): Promise<PipelineRunDetail> {
    const response = await call('POST', `/api/v1/pipeline/${id}/run`, { dryRun }, token);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PipelineRunDetail>();
  }

  async function readRun(runId: string, token?: string): Promise<PipelineRunDetail> {
    return (await call('GET', `/api/v1/pipeline/run/${runId}`, undefined, token)).json<PipelineRunDetail>();
  }

  return { call, createPipeline, runPipeline, readRun };
}

export interface PipelineTeam {
  owner: TestUser;
  ownerToken: string;
  tenantId: string;
  // Its running VMs, by name.
  vms: (typeof resources.$inferSelect)[];
}

// A new team's owner, signed in, with the emulator's first tenant connected and synced; at least
// `minimumVms` of its VMs running, and, when asked, every resource of the tenant untagged.
export async function createPipelineTeam(
  context: CloudTestContext,
  options: { minimumVms?: number; isUntagged?: boolean } = {},
): Promise<PipelineTeam> {
  const db = context.container.database.db;
  const owner = await createUser(context);
  const ownerToken = await logIn(context, owner);
  const tenantId = await connectTenant(context, owner.teamId, 0, 0);
  await context.container.inventory.syncTenant(tenantId);
  const vms = await listRunningVms(db, tenantId);
  expect(vms.length).toBeGreaterThanOrEqual(options.minimumVms ?? 0);
  if (options.isUntagged)
    await db.update(resources).set({ tags: {} }).where(eq(resources.tenantId, tenantId));
  return { owner, ownerToken, tenantId, vms };
}
