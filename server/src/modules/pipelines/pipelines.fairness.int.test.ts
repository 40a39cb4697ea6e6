// Fairness across teams (issue 23): the tick sends each due pipeline as its own pipeline-run job, so
// the workers share a minute's runs. 200 quarter-hourly pipelines of one team beside one of another
// team's: the other team's run is made within 60 s of the tick being dispatched, each pipeline its
// own job (PostgreSQL, pg-boss workers, a movable clock).
import { pipelineDefinitionSchema } from '@cloudtrim/contracts/pipelines';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudTestContext, waitFor, type CloudTestContext } from '../../../test/azure-emulator';
import { createUser } from '../../../test/helper';
import { pipelineRuns } from '../../db/schema';
import { createPipelineTickJob } from '../../jobs/pipeline-tick.job';
import { PipelinesRepository } from './pipelines.repository';

let clockMs = Date.UTC(2026, 10, 10, 9, 50);
const readClock = () => new Date(clockMs);

let context: CloudTestContext;

beforeAll(async () => {
  context = await createCloudTestContext({ now: readClock, hasWorkers: true, emulator: { fleetSize: 2 } });
}, 120_000);

afterAll(() => context?.close());

describe("one team's many pipelines", () => {
  it("do not hold up another team's run past a minute", async () => {
    const busy = await createUser(context);
    const other = await createUser(context);
    const definition = pipelineDefinitionSchema.parse({
      name: 'Quarter-hourly notice',
      scope: { tags: [{ key: 'fairness', op: 'equals', value: 'none' }] },
      action: { type: 'notify' },
      schedule: { cron: '*/15 * * * *', timeZone: 'UTC' },
    });
    const repository = new PipelinesRepository(context.container.database.db);
    for (let index = 0; index < 200; index += 1) {
      await repository.insert(busy.teamId, busy.userId, definition, readClock());
    }
    const otherPipeline = await repository.insert(other.teamId, other.userId, definition, readClock());

    clockMs = Date.UTC(2026, 10, 10, 10, 0, 20);
    const dispatchedAt = Date.now();
    await createPipelineTickJob(context.container).handle({});
    const run = await waitFor(async () => {
      const [row] = await context.container.database.db
        .select()
        .from(pipelineRuns)
        .where(and(eq(pipelineRuns.pipelineId, otherPipeline), eq(pipelineRuns.trigger, 'schedule')));
      return row;
    }, 60_000);
    expect(Date.now() - dispatchedAt).toBeLessThan(60_000);
    expect(run).toMatchObject({ state: 'succeeded', scheduledFor: new Date(Date.UTC(2026, 10, 10, 10, 0)) });

    const { rows } = await context.container.database.pool.query<{ count: number }>(
      "select count(*)::int as count from pgboss.job where name = 'pipeline-run'",
    );
    expect(rows[0]!.count).toBe(201);
    // A second tick in the same quarter sends nothing for the ticks already claimed.
    await waitFor(async () => {
      const [row] = await context.container.database.pool
        .query<{
          count: number;
        }>("select count(*)::int as count from pipeline_run where trigger = 'schedule'")
        .then((result) => result.rows);
      return row!.count === 201;
    }, 120_000);
    clockMs = Date.UTC(2026, 10, 10, 10, 1, 20);
    expect(await context.container.pipelines.dispatchDuePipelines(async () => {})).toBe(0);
  }, 240_000);
});
