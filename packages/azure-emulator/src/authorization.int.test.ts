import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readerPermission, virtualMachineContributorPermission } from './arm/authorization.routes';
import { startTestEmulator, type TestEmulator } from './testing/emulator.fixture';

const permissionsPath = (subscriptionId: string) =>
  `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/permissions?api-version=2022-04-01`;

describe("Microsoft.Authorization: a principal's own permissions", () => {
  let kit: TestEmulator;
  let contosoProduction: string;
  let fabrikamProduction: string;

  beforeAll(async () => {
    kit = await startTestEmulator();
    contosoProduction = kit.emulator.tenants[0]?.subscriptions[0]?.subscriptionId ?? '';
    fabrikamProduction = kit.emulator.tenants[1]?.subscriptions[0]?.subscriptionId ?? '';
  });

  afterAll(async () => {
    await kit.stop();
  });

  it('answers Reader and Virtual Machine Contributor for the read-write principals', async () => {
    for (const [tenantIndex, subscriptionId] of [
      [0, contosoProduction],
      [1, fabrikamProduction],
    ] as const) {
      const answer = await kit.send('GET', permissionsPath(subscriptionId), {
        token: await kit.readToken(tenantIndex, 0),
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ value: [readerPermission, virtualMachineContributorPermission] });
    }
  });

  it('answers only Reader for fabrikam-reader, and refuses a principal with no role', async () => {
    const reader = await kit.send('GET', permissionsPath(fabrikamProduction), {
      token: await kit.readToken(1, 1),
    });
    expect(reader.status).toBe(200);
    expect(reader.body).toEqual({ value: [readerPermission] });
    const stranger = await kit.send('GET', permissionsPath(contosoProduction), {
      token: await kit.readToken(0, 1),
    });
    expect(stranger.status).toBe(403);
  });
});
