// The pipeline gates against careless or hostile definitions (issue 23), on PostgreSQL and the Azure
// emulator with a movable clock: a cron that never fires refused at save, an old bad row failing only
// its own run while the tick goes on and the list still answers.
import type {
  Pipeline,
  PipelineDefinitionRequest,
  PipelineListResponse,
} from '@cloudtrim/contracts/pipelines';
import { and, eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import type { Db } from '../../db/database';
import { pipelineRuns, pipelines, pipelineVersions } from '../../db/schema';

let clockMs = Date.UTC(2026, 10, 10, 9, 50);
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let db: Db;
let owner: TestUser;
let ownerToken: string;

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  return context.app.inject({
    method,
    url,
    headers: { ...bearer(ownerToken), 'content-type': 'application/json' },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

async function createPipeline(definition: PipelineDefinitionRequest): Promise<Pipeline> {
  const response = await call('POST', '/api/v1/pipeline', definition);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<Pipeline>();
}

async function countPipelines(teamId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(pipelines)
    .where(eq(pipelines.teamId, teamId));
  return row!.count;
}

// A row as an older release saved it, past today's checks.
async function overwriteSchedule(pipelineId: string, schedule: { cron: string; timeZone: string }) {
  const [version] = await db
    .select()
    .from(pipelineVersions)
    .where(eq(pipelineVersions.pipelineId, pipelineId));
  await db
    .update(pipelineVersions)
    .set({ definition: { ...version!.definition, schedule } })
    .where(eq(pipelineVersions.pipelineId, pipelineId));
}

beforeAll(async () => {
  context = await createCloudTestContext({ now: readClock, emulator: { fleetSize: 4 } });
  db = context.container.database.db;
  owner = await createUser(context);
  ownerToken = await logIn(context, owner);
}, 120_000);

afterAll(() => context?.close());

describe('a cron with no next firing', () => {
  const hourly: PipelineDefinitionRequest = {
    name: 'Hourly notice',
    scope: { tags: [{ key: 'shift', op: 'equals', value: 'none' }] },
    action: { type: 'notify' },
    schedule: { cron: '0 * * * *', timeZone: 'UTC' },
  };

  it('is refused at save naming the cron, and nothing is saved', async () => {
    const before = await countPipelines(owner.teamId);
    for (const cron of ['0 0 31 2,4 *', '0 0 * 2 1#5']) {
      const response = await call('POST', '/api/v1/pipeline', {
        ...hourly,
        schedule: { cron, timeZone: 'UTC' },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({
        field: 'schedule.cron',
        message: 'Cron: it never fires within a year.',
      });
    }
    expect(await countPipelines(owner.teamId)).toBe(before);
  });

  it('saved by an older release, fails only its own run: the tick goes on and the list answers', async () => {
    clockMs = Date.UTC(2026, 10, 10, 9, 50);
    const never = await createPipeline({ ...hourly, name: 'Never' });
    await overwriteSchedule(never.id, { cron: '0 0 31 2,4 *', timeZone: 'UTC' });
    const unreadable = await createPipeline({ ...hourly, name: 'Unreadable zone' });
    await overwriteSchedule(unreadable.id, { cron: '0 * * * *', timeZone: 'Not/AZone' });
    const good = await createPipeline({ ...hourly, name: 'Good' });

    clockMs = Date.UTC(2026, 10, 10, 10, 1);
    await context.container.pipelines.runDuePipelines();

    const runsOf = (pipelineId: string) =>
      db
        .select()
        .from(pipelineRuns)
        .where(and(eq(pipelineRuns.pipelineId, pipelineId)));
    expect(await runsOf(never.id)).toHaveLength(0);
    expect((await runsOf(unreadable.id)).map((run) => run.state)).toEqual(['failed']);
    expect((await runsOf(good.id)).map((run) => [run.state, run.scheduledFor])).toEqual([
      ['succeeded', new Date(Date.UTC(2026, 10, 10, 10, 0))],
    ]);
    // The failed tick is not tried again each minute.
    clockMs = Date.UTC(2026, 10, 10, 10, 2);
    await context.container.pipelines.runDuePipelines();
    expect(await runsOf(unreadable.id)).toHaveLength(1);

    // (A zone the contract refuses cannot be answered in the list's contract either: gone first.)
    await db.delete(pipelines).where(eq(pipelines.id, unreadable.id));
    const list = await call('GET', '/api/v1/pipeline');
    expect(list.statusCode, list.body).toBe(200);
    const byName = new Map(list.json<PipelineListResponse>().pipelines.map((item) => [item.name, item]));
    expect(byName.get('Never')?.nextRunAt).toBeNull();
    expect(byName.get('Good')?.nextRunAt).toBe('2026-11-10T11:00:00.000Z');
  }, 60_000);
});

describe('a hostile pipeline file', () => {
  it('answers 400 with the line for an alias bomb, and no junk file answers 500', async () => {
    const before = await countPipelines(owner.teamId);
    const bomb = [
      'name: Bomb',
      'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
      ...'bcdefgh'
        .split('')
        .map((name, index) => `${name}: &${name} [${Array(9).fill(`*${'abcdefgh'[index]}`).join(', ')}]`),
      '',
    ].join('\n');
    const response = await call('POST', '/api/v1/pipeline/import', { yaml: bomb });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      message: 'Line 5: A pipeline file may use at most 20 aliases.',
      line: 5,
    });

    const token = fc.constantFrom(
      'name: x',
      'a: &x [1]',
      'b: *x',
      '<<: *x',
      '*z',
      '{',
      '- ',
      ': ',
      '!!binary x',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(token, fc.string({ maxLength: 8 })), { maxLength: 12 }),
        async (parts) => {
          const answer = await call('POST', '/api/v1/pipeline/import', { yaml: parts.join('\n') || ' ' });
          expect(answer.statusCode, answer.body).toBeLessThan(500);
        },
      ),
      { numRuns: 40, seed: 23 },
    );
    expect(await countPipelines(owner.teamId)).toBe(before);
  }, 60_000);
});
