// Pipelines under hostile definitions (issue 23). First the builder's preview cost: the off hours of a
// stop beside a start (pipelines.savings.ts findOffHours), a minutely and a quarter-hourly stop beside
// a start that fires once in years (`0 0 * 2 1#5`), beside the templates' weekday pair as the
// baseline; cron reads counted, and the longest a call holds the event loop. Then the tick's lag with
// 200 quarter-hourly pipelines of one team beside one of another team's, on embedded PostgreSQL:
// every due pipeline run one after another in the tick (the baseline: the tick as it was) against the
// tick sending each as its own pipeline-run job worked by one worker process's queue; the other team's
// lag and the last run's, from the tick's start. Targets: a preview ≤ 20 ms held, the other team's
// run ≤ 60 s after its tick.
import { pipelineDefinitionSchema, type PipelineSchedule } from '@cloudtrim/contracts/pipelines';
import cronParser from 'cron-parser';
import { and, eq, inArray } from 'drizzle-orm';
import { pipelineRuns, pipelines } from '../../server/src/db/schema';
import { createJobDefinitions } from '../../server/src/jobs/definitions';
import { createPipelineTickJob } from '../../server/src/jobs/pipeline-tick.job';
import { JobQueue } from '../../server/src/queue/queue';
import { findOffHours } from '../../server/src/modules/pipelines/pipelines.savings';
import { PipelinesRepository } from '../../server/src/modules/pipelines/pipelines.repository';
import { monitorEventLoop } from '../support/event-loop';
import { startBenchServer } from '../support/harness';
import { printTable } from '../support/table';

const pipelineCount = Number(process.env.BENCH_PIPELINES ?? 200);
const from = new Date('2026-11-23T00:00:00Z');

async function countReads<Value>(
  read: () => Promise<Value>,
): Promise<{ value: Value; reads: number; ms: number; heldMs: number; p99Ms: number }> {
  const prototype = Object.getPrototypeOf(cronParser.parseExpression('* * * * *')) as {
    next: (...args: unknown[]) => unknown;
  };
  const next = prototype.next;
  let reads = 0;
  prototype.next = function (this: unknown, ...args: unknown[]) {
    reads += 1;
    return next.apply(this, args);
  };
  const startedAt = performance.now();
  const loop = monitorEventLoop();
  try {
    const value = await read();
    const delay = loop.stop();
    return {
      value,
      reads,
      ms: performance.now() - startedAt,
      heldMs: delay.maxMilliseconds,
      p99Ms: delay.p99Milliseconds,
    };
  } finally {
    prototype.next = next;
  }
}

function start(schedule: PipelineSchedule) {
  return {
    name: 'Start',
    definition: pipelineDefinitionSchema.parse({
      name: 'Start',
      action: { type: 'start' },
      schedule,
    }),
  };
}

async function benchPreview(): Promise<void> {
  const cases: [string, PipelineSchedule, PipelineSchedule][] = [
    [
      'baseline: 0 19 * * 1-5 stop, 0 7 * * 1-5 start (London)',
      { cron: '0 19 * * 1-5', timeZone: 'Europe/London' },
      { cron: '0 7 * * 1-5', timeZone: 'Europe/London' },
    ],
    [
      '*/15 * * * * stop, 0 0 * 2 1#5 start',
      { cron: '*/15 * * * *', timeZone: 'UTC' },
      { cron: '0 0 * 2 1#5', timeZone: 'UTC' },
    ],
    [
      '* * * * * stop, 0 0 * 2 1#5 start',
      { cron: '* * * * *', timeZone: 'UTC' },
      { cron: '0 0 * 2 1#5', timeZone: 'UTC' },
    ],
    [
      '0 * * * * stop, 30 * * * * start',
      { cron: '0 * * * *', timeZone: 'UTC' },
      { cron: '30 * * * *', timeZone: 'UTC' },
    ],
  ];
  const rows: string[][] = [];
  for (const [label, stop, startSchedule] of cases) {
    // The longest of five calls, and the longest the event loop was held during them.
    let worst = { reads: 0, ms: 0, heldMs: 0, p99Ms: 0, hours: 0 };
    for (let round = 0; round < 5; round += 1) {
      const { value, reads, ms, heldMs, p99Ms } = await countReads(() =>
        findOffHours(stop, [start(startSchedule)], 2, from),
      );
      worst = {
        reads,
        ms: Math.max(worst.ms, ms),
        heldMs: Math.max(worst.heldMs, heldMs),
        p99Ms: Math.max(worst.p99Ms, p99Ms),
        hours: value.hoursPerWeek,
      };
    }
    rows.push([
      label,
      String(worst.reads),
      worst.ms.toFixed(1),
      worst.p99Ms.toFixed(1),
      worst.heldMs.toFixed(1),
      worst.hours.toFixed(1),
    ]);
  }
  console.log('Preview: off hours of one stop beside one start (the longest of 5 calls)');
  printTable(
    [
      'case',
      'cron reads',
      'ms the call',
      'event-loop p99 (ms)',
      'event loop held (max ms)',
      'hours off a week',
    ],
    rows,
  );
}

async function benchTick(): Promise<void> {
  const server = await startBenchServer();
  const worker = new JobQueue(server.databaseUrl, { error: () => {} });
  try {
    const { container } = server;
    const db = container.database.db;
    const repository = new PipelinesRepository(db);
    const definition = pipelineDefinitionSchema.parse({
      name: 'Quarter-hourly notice',
      scope: { tags: [{ key: 'bench', op: 'equals', value: 'none' }] },
      action: { type: 'notify' },
      schedule: { cron: '*/15 * * * *', timeZone: 'UTC' },
    });
    const createTeams = async (label: string) => {
      const user = (name: string) =>
        container.repositories.account.createWithTeam({
          email: `${name}-${label}@bench.test`,
          passwordHash: 'x',
          firstName: 'Bench',
          lastName: 'Team',
        });
      const [busy, other] = [await user('busy'), await user('other')];
      // Active since before the last quarter-hour, so its tick is due now.
      const since = new Date(Date.now() - 20 * 60_000);
      const busyIds: string[] = [];
      for (let index = 0; index < pipelineCount; index += 1) {
        busyIds.push(await repository.insert(busy.teamId, busy.id, definition, since));
      }
      const otherId = await repository.insert(other.teamId, other.id, definition, since);
      return { busyIds, otherId };
    };
    const readLags = async (ids: string[], otherId: string, startedAt: number) => {
      const runs = await Promise.all(
        [...ids, otherId].map(async (pipelineId) => {
          const [run] = await db
            .select()
            .from(pipelineRuns)
            .where(and(eq(pipelineRuns.pipelineId, pipelineId), eq(pipelineRuns.trigger, 'schedule')));
          return run;
        }),
      );
      if (runs.some((run) => !run)) return undefined;
      const lag = (run: (typeof runs)[number]) => (run!.startedAt.getTime() - startedAt) / 1000;
      return { other: lag(runs.at(-1)), last: Math.max(...runs.map(lag)) };
    };

    // Baseline: every due pipeline in the tick itself, one after another.
    const baselineSet = await createTeams('baseline');
    const baselineStart = Date.now();
    await container.pipelines.runDuePipelines();
    const baseline = (await readLags(baselineSet.busyIds, baselineSet.otherId, baselineStart))!;
    await db
      .update(pipelines)
      .set({ state: 'paused' })
      .where(inArray(pipelines.id, [...baselineSet.busyIds, baselineSet.otherId]));

    // Ours: the tick sends one job a pipeline; a worker process's queue works them off.
    const jobsSet = await createTeams('jobs');
    await worker.start(createJobDefinitions(container));
    await worker.work();
    const jobsStart = Date.now();
    await createPipelineTickJob(container).handle({});
    let ours: Awaited<ReturnType<typeof readLags>>;
    const deadline = Date.now() + 300_000;
    while (!(ours = await readLags(jobsSet.busyIds, jobsSet.otherId, jobsStart)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    console.log(`\nTick lag, ${pipelineCount} quarter-hourly pipelines of one team beside one of another's`);
    printTable(
      ['tick', "other team's run after (s)", 'last run after (s)'],
      [
        ['baseline: all in the tick, one after another', baseline.other.toFixed(2), baseline.last.toFixed(2)],
        [
          'one pipeline-run job each',
          ours?.other.toFixed(2) ?? 'not done',
          ours?.last.toFixed(2) ?? 'not done',
        ],
      ],
    );
  } finally {
    await worker.stop();
    await server.stop();
  }
}

await benchPreview();
if (process.env.BENCH_PREVIEW_ONLY !== '1') await benchTick();
