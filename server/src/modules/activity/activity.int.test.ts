import { activityLogResponseSchema } from '@cloudtrim/contracts/activity';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestContext,
  createUser,
  logIn,
  type TestContext,
  type TestUser,
} from '../../../test/helper';

let context: TestContext;
let owner: TestUser;
let ownerToken: string;
let strangerToken: string;
const resourceId =
  '/subscriptions/s1/resourceGroups/rg-web/providers/Microsoft.Compute/virtualMachines/web-01';

beforeAll(async () => {
  context = await createTestContext();
  owner = await createUser(context);
  ownerToken = await logIn(context, owner);
  strangerToken = await logIn(context, await createUser(context));
  // 40 entries, every fourth about one resource; recorded one at a time so their order is known.
  for (let index = 1; index <= 40; index += 1) {
    await context.container.activity.record([
      {
        teamId: owner.teamId,
        tenantId: null,
        serviceName: 'Inventory',
        resourceArmId: index % 4 === 0 ? resourceId : null,
        logText: `Entry ${index}`,
      },
    ]);
  }
});
afterAll(() => context.close());

const getLog = async (token: string, url: string) => {
  const response = await context.app.inject({ method: 'GET', url, headers: bearer(token) });
  expect(response.statusCode).toBe(200);
  return activityLogResponseSchema.parse(response.json());
};

describe('GET /api/v1/log', () => {
  it('answers a plain array of 30 entries, newest first', async () => {
    const entries = await getLog(ownerToken, '/api/v1/log');
    expect(entries).toHaveLength(30);
    expect(entries[0]).toMatchObject({
      ServiceName: 'Inventory',
      ResourceId: resourceId,
      LogText: 'Entry 40',
    });
    expect(entries.map((entry) => entry.LogText)).toEqual(
      Array.from({ length: 30 }, (_unused, index) => `Entry ${40 - index}`),
    );
    expect(Date.parse(entries[0]!.RowCreated!)).toBeGreaterThanOrEqual(Date.parse(entries[29]!.RowCreated!));
  });

  it('skips `offset` entries on /api/v1/log/{offset}', async () => {
    const secondPage = await getLog(ownerToken, '/api/v1/log/30');
    expect(secondPage.map((entry) => entry.LogText)).toEqual(
      Array.from({ length: 10 }, (_unused, index) => `Entry ${10 - index}`),
    );
    expect(await getLog(ownerToken, '/api/v1/log/40')).toEqual([]);
    expect((await getLog(ownerToken, '/api/v1/log/0'))[0]!.LogText).toBe('Entry 40');
  });

  it('keeps to one resource with ?resourceId=, in any letter case', async () => {
    const query = `?resourceId=${encodeURIComponent(resourceId.toUpperCase())}`;
    const entries = await getLog(ownerToken, `/api/v1/log${query}`);
    expect(entries.map((entry) => entry.LogText)).toEqual(
      Array.from({ length: 10 }, (_unused, index) => `Entry ${40 - 4 * index}`),
    );
    expect(await getLog(ownerToken, `/api/v1/log/5${query}`)).toHaveLength(5);
  });

  it('shows another team none of it, and answers 400 for a bad offset and 401 without a session', async () => {
    expect(await getLog(strangerToken, '/api/v1/log')).toEqual([]);
    const foreign = await context.app.inject({
      method: 'GET',
      url: `/api/v1/log?resourceId=${encodeURIComponent(resourceId)}`,
      headers: bearer(strangerToken),
    });
    expect(foreign.statusCode).toBe(404);
    for (const offset of ['-1', 'abc', '1.5']) {
      const response = await context.app.inject({
        method: 'GET',
        url: `/api/v1/log/${offset}`,
        headers: bearer(ownerToken),
      });
      expect(response.statusCode).toBe(400);
    }
    expect((await context.app.inject({ method: 'GET', url: '/api/v1/log' })).statusCode).toBe(401);
  });
});
