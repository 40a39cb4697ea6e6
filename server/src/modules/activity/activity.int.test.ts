import { activityLogResponseSchema } from '@cloudtrim/contracts/activity';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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

describe('the pages kept per log version', () => {
  const record = (teamId: string, logText: string, resourceArmId: string | null = null) =>
    context.container.activity.record([
      { teamId, tenantId: null, serviceName: 'Resources', resourceArmId, logText },
    ]);

  it('answers a repeated call with one version read, and shows a new entry on the very next call', async () => {
    const user = await createUser(context);
    const token = await logIn(context, user);
    await record(user.teamId, 'First');
    expect((await getLog(token, '/api/v1/log')).map((entry) => entry.LogText)).toEqual(['First']);
    const query = vi.spyOn(context.container.database.pool, 'query');
    try {
      expect((await getLog(token, '/api/v1/log')).map((entry) => entry.LogText)).toEqual(['First']);
      expect(query).toHaveBeenCalledTimes(1);
    } finally {
      query.mockRestore();
    }
    await record(user.teamId, 'Second', resourceId);
    expect((await getLog(token, '/api/v1/log')).map((entry) => entry.LogText)).toEqual(['Second', 'First']);
    expect((await getLog(token, '/api/v1/log/1')).map((entry) => entry.LogText)).toEqual(['First']);
    const filtered = `/api/v1/log?resourceId=${encodeURIComponent(resourceId)}`;
    expect((await getLog(token, filtered)).map((entry) => entry.LogText)).toEqual(['Second']);
    await record(user.teamId, 'Third', resourceId.toUpperCase());
    expect(
      (await getLog(token, `/api/v1/log?resourceId=${encodeURIComponent(resourceId.toUpperCase())}`)).map(
        (entry) => entry.LogText,
      ),
    ).toEqual(['Third', 'Second']);
  });

  it("keeps each team's pages apart and is not changed by another team's entries", async () => {
    const [first, second] = [await createUser(context), await createUser(context)];
    const [firstToken, secondToken] = [await logIn(context, first), await logIn(context, second)];
    await record(first.teamId, 'Ours');
    expect((await getLog(firstToken, '/api/v1/log')).map((entry) => entry.LogText)).toEqual(['Ours']);
    expect(await getLog(secondToken, '/api/v1/log')).toEqual([]);
    await record(second.teamId, 'Theirs');
    expect((await getLog(firstToken, '/api/v1/log')).map((entry) => entry.LogText)).toEqual(['Ours']);
    expect((await getLog(secondToken, '/api/v1/log')).map((entry) => entry.LogText)).toEqual(['Theirs']);
  });

  it('shows entries recorded at once by concurrent writers, whatever order they commit in', async () => {
    const user = await createUser(context);
    const token = await logIn(context, user);
    for (let round = 0; round < 5; round += 1) {
      await Promise.all(
        Array.from({ length: 6 }, (_unused, index) => record(user.teamId, `Round ${round} writer ${index}`)),
      );
      // Read as soon as the writes returned: a page kept from between two commits would miss some.
      expect(await getLog(token, '/api/v1/log')).toHaveLength(Math.min(30, 6 * (round + 1)));
    }
    const { rows } = await context.container.database.pool.query<{ count: number }>(
      'select count(*)::int as count from activity_log where team_id = $1',
      [user.teamId],
    );
    expect(rows[0]!.count).toBe(30);
  });

  it('shows an entry to every call made after it was recorded, while other calls keep the version read busy', async () => {
    const user = await createUser(context);
    const token = await logIn(context, user);
    let isLoading = true;
    const background = Array.from({ length: 6 }, async () => {
      while (isLoading) await getLog(token, '/api/v1/log');
    });
    try {
      for (let index = 1; index <= 8; index += 1) {
        await record(user.teamId, `Entry ${index}`);
        const [newest] = await getLog(token, '/api/v1/log');
        expect(newest?.LogText).toBe(`Entry ${index}`);
      }
    } finally {
      isLoading = false;
      await Promise.all(background);
    }
  });
});
