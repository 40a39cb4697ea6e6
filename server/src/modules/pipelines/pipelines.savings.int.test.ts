// What a stop pipeline's dry run says it saves, against PostgreSQL and the Azure emulator's catalogue:
// nothing while no pipeline of the team starts the VMs again (and the items say so), then, once a
// start pipeline covers them, each VM's list price an hour times the hours a week it is off (walked
// here from the two cron expressions) times 52.18, in the preview, the run's items and its total.
import { roundCents } from '@cloudtrim/contracts/money';
import type { PipelineDefinitionRequest, PipelinePreviewResponse } from '@cloudtrim/contracts/pipelines';
import cronParser from 'cron-parser';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { createPipelineClient, createPipelineTeam } from '../../../test/pipelines';
import type { Db } from '../../db/database';
import { resources } from '../../db/schema';
import { weeksPerYear } from '../../lib/time';

// A Wednesday in a week with no daylight-saving change.
const clockMs = Date.parse('2026-11-25T12:00:00Z');
const stopSchedule = { cron: '0 19 * * 1-5', timeZone: 'Europe/London' };
const startSchedule = { cron: '0 7 * * 1-5', timeZone: 'Europe/London' };

let context: CloudTestContext;
let db: Db;
let token: string;
let devVms: (typeof resources.$inferSelect)[];

const client = createPipelineClient(
  () => context,
  () => token,
);
const { call, createPipeline } = client;
const dryRun = (pipelineId: string) => client.runPipeline(pipelineId, true);

// The hours from each stop in the week from now to the start that follows it.
function walkOffHours(): number {
  const until = clockMs + 7 * 86_400_000;
  const stops = cronParser.parseExpression(stopSchedule.cron, {
    currentDate: new Date(clockMs),
    endDate: new Date(until),
    tz: stopSchedule.timeZone,
  });
  let offMs = 0;
  while (stops.hasNext()) {
    const stop = stops.next().toDate();
    const start = cronParser
      .parseExpression(startSchedule.cron, { currentDate: stop, tz: startSchedule.timeZone })
      .next()
      .toDate();
    offMs += start.getTime() - stop.getTime();
  }
  return offMs / 3_600_000;
}

async function readListHourly(vm: typeof resources.$inferSelect): Promise<number> {
  const catalogue = await context.container.pricing.loadCatalogue(vm.region);
  const price = catalogue.pricesByOs[vm.osType === 'Windows' ? 'Windows' : 'Linux'].get(vm.sku!);
  expect(price, `${vm.sku} in ${vm.region}`).toBeDefined();
  return price!.hourlyPrice;
}

beforeAll(async () => {
  context = await createCloudTestContext({ now: () => new Date(clockMs), emulator: { fleetSize: 12 } });
  db = context.container.database.db;
  const team = await createPipelineTeam(context, { isUntagged: true });
  token = team.ownerToken;
  await context.container.pricing.ensureFreshForTenant(team.tenantId);
  devVms = team.vms.slice(0, 3);
  expect(devVms).toHaveLength(3);
  for (const vm of devVms) {
    await db
      .update(resources)
      .set({ tags: { environment: 'dev' } })
      .where(eq(resources.id, vm.id));
  }
}, 120_000);

afterAll(() => context.close());

describe('a stop pipeline on running VMs', () => {
  const stop: PipelineDefinitionRequest = {
    name: 'Stop dev VMs',
    scope: { tags: [{ key: 'environment', op: 'equals', value: 'dev' }] },
    action: { type: 'stop' },
    schedule: stopSchedule,
  };

  it('saves nothing while no pipeline starts the VMs again, and says so', async () => {
    const preview = (await call('POST', '/api/v1/pipeline/preview', stop)).json<PipelinePreviewResponse>();
    expect(preview).toMatchObject({ matched: 3, wouldAct: 3, annualSaving: 0 });
    for (const item of preview.items) {
      const vm = devVms.find((candidate) => candidate.name === item.resourceName)!;
      const hourly = (await readListHourly(vm)).toFixed(4).replace(/0{1,2}$/, '');
      expect(item).toMatchObject({
        outcome: 'matched',
        annualSaving: 0,
        detail: `Would stop (deallocate): saves $${hourly} an hour of compute (list price) while off; no pipeline starts it again`,
      });
    }
  });

  it("saves each VM's price for the hours until the team's start pipeline, in the preview and the run", async () => {
    const start = await createPipeline({
      name: 'Start dev VMs',
      scope: { tags: [{ key: 'environment', op: 'equals', value: 'dev' }] },
      action: { type: 'start' },
      schedule: startSchedule,
    });
    const offHours = walkOffHours();
    expect(offHours).toBeGreaterThan(0);
    const expected = new Map<string, number>();
    for (const vm of devVms) {
      expected.set(vm.name, roundCents((await readListHourly(vm)) * offHours * weeksPerYear));
    }
    const total = roundCents([...expected.values()].reduce((sum, saving) => sum + saving, 0));

    const preview = (await call('POST', '/api/v1/pipeline/preview', stop)).json<PipelinePreviewResponse>();
    expect(Object.fromEntries(preview.items.map((item) => [item.resourceName, item.annualSaving]))).toEqual(
      Object.fromEntries(expected),
    );
    expect(preview.annualSaving).toBe(total);
    expect(preview.items[0]!.detail).toMatch(
      new RegExp(
        `^Would stop \\(deallocate\\): off ${offHours} hours a week \\(until Start dev VMs\\) at \\$`,
      ),
    );

    const pipeline = await createPipeline({ ...stop, gates: { blastRadius: 2 } });
    const run = await dryRun(pipeline.id);
    // The blast radius keeps the two largest savings.
    const largest = [...expected].sort((first, second) => second[1] - first[1]);
    expect(
      run.items
        .filter((item) => item.outcome === 'matched')
        .map((item) => item.resourceName)
        .sort(),
    ).toEqual(
      largest
        .slice(0, 2)
        .map(([name]) => name)
        .sort(),
    );
    expect(run.annualSaving).toBe(roundCents(largest[0]![1] + largest[1]![1]));

    // Paused, the start pipeline starts nothing: the saving is gone again.
    const paused = await call('POST', `/api/v1/pipeline/${start.id}/pause`, {});
    expect(paused.statusCode, paused.body).toBe(200);
    expect((await dryRun(pipeline.id)).annualSaving).toBe(0);
  });
});
