// POST /api/v1/tenant checks a service principal's secret with Entra ID: unbounded, a signed-in
// user could test stolen secrets through us. Failed checks are bounded per user and per team.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createCloudTestContext,
  createTenantRequest,
  type CloudTestContext,
} from '../../../test/azure-emulator';
import { bearer, createUser, logIn } from '../../../test/helper';
import { tenantAddRules } from './tenants.service';

let context: CloudTestContext;

beforeAll(async () => {
  context = await createCloudTestContext({ emulator: { fleetSize: 10 } });
});
afterAll(() => context.close());

const postTenant = (token: string, payload: object) =>
  context.app.inject({ method: 'POST', url: '/api/v1/tenant', headers: bearer(token), payload });

describe('failed tenant checks', () => {
  it('are bounded per user, counted before the check so a parallel burst gets no more, then 429 even for a right secret', async () => {
    const token = await logIn(context, await createUser(context));
    const request = createTenantRequest(context.emulator, 1, 0);
    const limit = tenantAddRules.failedChecksPerUser.limit;
    const responses = await Promise.all(
      Array.from({ length: limit + 5 }, () =>
        postTenant(token, { ...request, ServicePrincipalSecret: 'stolen-guess' }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 400)).toHaveLength(limit);
    expect(statuses.filter((status) => status === 429)).toHaveLength(5);
    expect((await postTenant(token, request)).statusCode).toBe(429);
  });

  it('are bounded per team, whichever member tries', async () => {
    const owner = await createUser(context);
    const request = createTenantRequest(context.emulator, 0, 0);
    const perUser = tenantAddRules.failedChecksPerUser.limit;
    const perTeam = tenantAddRules.failedChecksPerTeam.limit;
    let failures = 0;
    const statuses: number[] = [];
    while (failures < perTeam + 1) {
      const member = await createUser(context, { teamId: owner.teamId });
      const token = await logIn(context, member);
      for (let attempt = 0; attempt < perUser && failures < perTeam + 1; attempt += 1) {
        statuses.push(
          (await postTenant(token, { ...request, ServicePrincipalSecret: 'stolen-guess' })).statusCode,
        );
        failures += 1;
      }
    }
    expect(statuses.slice(0, perTeam).every((status) => status === 400)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });

  it('do not count a check that succeeds', async () => {
    const token = await logIn(context, await createUser(context));
    const limit = tenantAddRules.failedChecksPerUser.limit;
    for (let attempt = 0; attempt < limit - 1; attempt += 1) {
      const response = await postTenant(token, {
        ...createTenantRequest(context.emulator, 0, 0),
        ServicePrincipalSecret: 'stolen-guess',
      });
      expect(response.statusCode).toBe(400);
    }
    expect((await postTenant(token, createTenantRequest(context.emulator, 0, 0))).statusCode).toBe(200);
    const wrong = await postTenant(token, {
      ...createTenantRequest(context.emulator, 1, 0),
      ServicePrincipalSecret: 'x',
    });
    expect(wrong.statusCode).toBe(400);
  });
});
