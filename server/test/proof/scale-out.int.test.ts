// Scale-out (issue 10 §2): two ROLE=api and two ROLE=worker processes on one PostgreSQL, the API
// behind a round-robin proxy, so consecutive calls of one client land on different processes.
// Sessions and their revocation, a new tenant's collection and a change to Azure must all come out
// right, and nothing may be done twice.
import { readCurrentSize } from '@cloudtrim/azure-emulator/arm/arm.views';
import { listSizesOfferedInRegion } from '@cloudtrim/azure-emulator/catalog/sku.catalog';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCloudTestContext,
  createTenantRequest,
  waitFor,
  type CloudTestContext,
} from '../azure-emulator';
import { createUser, type TestUser } from '../helper';
import { startRoundRobinProxy, startServerProcess, type ServerProcess } from '../server-process';

let context: CloudTestContext;
let owner: TestUser;
let processes: ServerProcess[];
let proxy: Awaited<ReturnType<typeof startRoundRobinProxy>>;

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 8 } });
  owner = await createUser(context);
  processes = await Promise.all([
    startServerProcess(context, 'api'),
    startServerProcess(context, 'api'),
    startServerProcess(context, 'worker'),
    startServerProcess(context, 'worker'),
  ]);
  proxy = await startRoundRobinProxy(processes.slice(0, 2).map((server) => server.port));
}, 180_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.all((processes ?? []).map((server) => server.stop()));
  await context.close();
});

async function call(method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(`${proxy.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

async function logIn(): Promise<string> {
  const answer = await call('POST', '/api/v1/token', undefined, {
    emailAddress: owner.email,
    password: owner.password,
  });
  expect(answer.status).toBe(200);
  return answer.body as string;
}

describe('two API and two worker processes behind a round-robin proxy', () => {
  it('honour a session on every process, and a log-out on the very next call, whichever process takes it', async () => {
    const token = await logIn();
    const other = await logIn();
    for (let attempt = 0; attempt < 4; attempt += 1) {
      expect((await call('GET', '/api/v1/account/details', token)).status).toBe(200);
    }
    expect((await call('DELETE', '/api/v1/token', token)).status).toBe(204);
    expect((await call('GET', '/api/v1/account/details', token)).status).toBe(401);
    expect((await call('GET', '/api/v1/account/details', token)).status).toBe(401);
    expect((await call('GET', '/api/v1/account/details', other)).status).toBe(200);
    expect((await call('DELETE', '/api/v1/token/all', other)).status).toBe(204);
    expect((await call('GET', '/api/v1/account/details', other)).status).toBe(401);
    expect((await call('GET', '/api/v1/account/details', other)).status).toBe(401);
  });

  it.runIf(process.platform === 'linux')(
    "run every thread of a worker at nice 10, and leave the API processes' threads at their own",
    () => {
      const niceValues = (server: ServerProcess) =>
        new Set(
          readdirSync(`/proc/${server.child.pid}/task`).map((thread) =>
            Number(
              readFileSync(`/proc/${server.child.pid}/task/${thread}/stat`, 'utf8')
                .split(') ')[1]!
                .split(' ')[16],
            ),
          ),
        );
      const [firstApi, secondApi, firstWorker, secondWorker] = processes;
      for (const worker of [firstWorker!, secondWorker!]) expect(niceValues(worker)).toEqual(new Set([10]));
      for (const api of [firstApi!, secondApi!]) expect(niceValues(api)).toEqual(new Set([os.getPriority()]));
    },
  );

  it("collect a new tenant's inventory once, on one worker", async () => {
    const token = await logIn();
    const added = await call(
      'POST',
      '/api/v1/tenant',
      token,
      createTenantRequest(context.emulator, 0, 0, 'Contoso'),
    );
    expect(added.status).toBe(200);
    // The sync writes one subscription at a time: the list is compared once the sync has ended.
    const tenant = await waitFor(async () => {
      const [listed] = await context.container.tenants.listTenants(owner.teamId);
      return listed?.Status !== 'Pending' && listed;
    }, 90_000);
    const answer = await call('GET', '/api/v1/resource', token);
    expect(answer.status).toBe(200);
    const resources = answer.body as { ResourceId: string }[];
    expect(resources.length).toBeGreaterThan(0);
    expect(resources).toHaveLength(tenant!.ResourceCount);
    expect(new Set(resources.map((resource) => resource.ResourceId.toLowerCase())).size).toBe(
      resources.length,
    );
    // The resources are visible once the sync has written them, a moment before pg-boss marks its
    // job completed: wait for no sync of the tenant to be pending or running, then count.
    const completed = await waitFor(async () => {
      const { rows } = await context.container.database.pool.query<{ pending: number; completed: number }>(
        `select count(*) filter (where state in ('created', 'retry', 'active'))::int as pending,
                count(*) filter (where state = 'completed')::int as completed
         from pgboss.job where name = 'inventory-sync' and data->>'tenantId' = $1`,
        [tenant!.Id],
      );
      return rows[0]!.pending === 0 && rows[0]!.completed > 0 ? rows[0]!.completed : undefined;
    }, 30_000);
    expect(completed).toBe(1);
  });

  it('apply a change asked for twice, through both API processes, exactly once', async () => {
    const token = await logIn();
    const { pool } = context.container.database;
    const vm = (
      await pool.query<{ id: string; arm_id: string; region: string; tenant_id: string }>(
        `select r.id, r.arm_id, r.region, r.tenant_id from resource r join tenant t on t.id = r.tenant_id
          where t.team_id = $1 and r.type = 'Microsoft.Compute/virtualMachines' and r.power_state = 'running'
          order by r.arm_id limit 1`,
        [owner.teamId],
      )
    ).rows[0]!;
    const machine = context.emulator.fleet.findVirtualMachine(vm.arm_id)!;
    const current = readCurrentSize(machine);
    const target =
      listSizesOfferedInRegion(vm.region).find(
        (size) => size.family === current.family && size.vcpus < current.vcpus,
      ) ??
      listSizesOfferedInRegion(vm.region).find(
        (size) => size.family === current.family && size.name !== current.name,
      )!;
    const recommendation = await pool.query<{ id: string }>(
      `insert into recommendation (team_id, tenant_id, resource_id, kind, prediction_method, current_size,
         target_size, recommendation, annual_cost_savings)
       values ($1, $2, $3, 'resize', 'cloudtrim-forecast', $4, $5, $6, 100) returning id`,
      [owner.teamId, vm.tenant_id, vm.id, current.name, target.name, `Resize to ${target.name}.`],
    );
    const id = recommendation.rows[0]!.id;
    const first = await call('GET', `/api/v1/log/recommendation/apply/now?id=${id}`, token);
    const second = await call('GET', `/api/v1/log/recommendation/apply/now?id=${id}`, token);
    expect([first.status, second.status]).toEqual([200, 200]);
    const done = await waitFor(async () => {
      const { rows } = await pool.query<{ state: string }>(
        'select state from scheduled_change where recommendation_id = $1',
        [id],
      );
      return rows.length > 0 && rows.every((row) => ['succeeded', 'failed'].includes(row.state))
        ? rows
        : undefined;
    }, 120_000);
    expect(done).toEqual([{ state: 'succeeded' }]);
    expect(machine.sizeHistory.filter((change) => change.size.name === target.name)).toHaveLength(1);
    // Longer than its wait for the change to settle (120 s), which the suite's 60 s cut short on a
    // slow machine.
  }, 150_000);
});
