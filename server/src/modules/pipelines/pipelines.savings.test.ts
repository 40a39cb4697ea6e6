import { pipelineDefinitionSchema, type PipelineDefinitionRequest } from '@cloudtrim/contracts/pipelines';
import cronParser from 'cron-parser';
import { describe, expect, it, vi } from 'vitest';
import { evaluatePipeline, listStopTargets, type PipelineCandidate } from './pipelines.match';
import { estimateStopSavings, findOffHours, type StartPipeline } from './pipelines.savings';
import { weeksPerYear } from '../../lib/time';

const london = 'Europe/London';
const weekdaysAt19 = { cron: '0 19 * * 1-5', timeZone: london };
const weekdaysAt7 = { cron: '0 7 * * 1-5', timeZone: london };

function define(fields: Partial<PipelineDefinitionRequest>) {
  return pipelineDefinitionSchema.parse({
    name: 'Stop dev VMs',
    action: { type: 'stop' },
    schedule: weekdaysAt19,
    ...fields,
  });
}

function createStart(name: string, fields: Partial<PipelineDefinitionRequest> = {}): StartPipeline {
  return {
    name,
    definition: define({ name, action: { type: 'start' }, schedule: weekdaysAt7, ...fields }),
  };
}

function createVm(name: string, fields: Partial<PipelineCandidate> = {}): PipelineCandidate {
  return {
    resourceId: `id-${name}`,
    tenantId: 'tenant-1',
    canWrite: true,
    armId: `/subscriptions/sub-1/resourceGroups/dev-rg/providers/Microsoft.Compute/virtualMachines/${name}`,
    name,
    type: 'Microsoft.Compute/virtualMachines',
    subcategory: 'Virtual Machine',
    subscriptionId: 'sub-1',
    resourceGroup: 'dev-rg',
    powerState: 'running',
    tags: { environment: 'dev' },
    details: {},
    stateSince: null,
    maintenanceWindow: 2,
    heldUntil: null,
    monthlyCost: null,
    recommendations: [],
    ...fields,
  };
}

describe('findOffHours', () => {
  it('counts each weekday evening and the weekend until the start, in London time', async () => {
    // Monday 23 November 2026, GMT all week: four nights of 12 hours, Friday 19:00 to Monday 07:00.
    const offHours = await findOffHours(
      weekdaysAt19,
      [createStart('Start dev VMs')],
      2,
      new Date('2026-11-23T00:00:00Z'),
    );
    expect(offHours).toEqual({ hoursPerWeek: 4 * 12 + 60, startNames: ['Start dev VMs'] });
  });

  it('counts the hour clocks go forward as lost and the hour they go back as one more', async () => {
    const starts = [createStart('Start dev VMs')];
    // 28 March 2027: the weekend is 59 hours (Friday 19:00 GMT to Monday 07:00 BST).
    expect((await findOffHours(weekdaysAt19, starts, 2, new Date('2027-03-22T00:00:00Z'))).hoursPerWeek).toBe(
      48 + 59,
    );
    // 31 October 2027: 61 hours.
    expect((await findOffHours(weekdaysAt19, starts, 2, new Date('2027-10-25T00:00:00Z'))).hoursPerWeek).toBe(
      48 + 61,
    );
    // A week starting mid-week walks the same firings.
    expect((await findOffHours(weekdaysAt19, starts, 2, new Date('2026-11-25T12:00:00Z'))).hoursPerWeek).toBe(
      108,
    );
  });

  it('counts an hour once when the stop fires again before anything starts the VM', async () => {
    // Stopped every evening, started on Mondays only: off all week but Monday 07:00 to 19:00.
    const offHours = await findOffHours(
      { cron: '0 19 * * *', timeZone: london },
      [createStart('Start on Mondays', { schedule: { cron: '0 7 * * 1', timeZone: london } })],
      2,
      new Date('2026-11-23T00:00:00Z'),
    );
    expect(offHours).toEqual({ hoursPerWeek: 168 - 12, startNames: ['Start on Mondays'] });
  });

  it('ends at the earliest of several starts, in their own zones, and names those that end it', async () => {
    const offHours = await findOffHours(
      weekdaysAt19,
      [
        createStart('Start early on Mondays', { schedule: { cron: '0 5 * * 1', timeZone: 'UTC' } }),
        createStart('Start dev VMs'),
      ],
      2,
      new Date('2026-11-23T00:00:00Z'),
    );
    expect(offHours).toEqual({
      hoursPerWeek: 48 + 58,
      startNames: ['Start dev VMs', 'Start early on Mondays'],
    });
  });

  it("stops in each VM's own window hour", async () => {
    // Stopped at 02:00 UTC, started at 07:00 UTC every day: five hours a night.
    const offHours = await findOffHours(
      { maintenanceWindow: true },
      [createStart('Start at 7', { schedule: { cron: '0 7 * * *', timeZone: 'UTC' } })],
      2,
      new Date('2026-11-23T00:00:00Z'),
    );
    expect(offHours.hoursPerWeek).toBe(35);
  });
});

describe('estimateStopSavings', () => {
  const from = new Date('2026-11-23T00:00:00Z');

  it('prices the off hours at the bill, else the list price; only a start covering the VM counts', async () => {
    const starts = [
      createStart('Start dev VMs', { scope: { tags: [{ key: 'environment', op: 'equals', value: 'dev' }] } }),
      createStart('Start idle VMs', { condition: { finding: { kind: 'idle' } } }),
    ];
    const billed = createVm('billed');
    const listed = createVm('listed');
    const test = createVm('test', { tags: { environment: 'test' } });
    const unpriced = createVm('unpriced');
    const savings = await estimateStopSavings(
      weekdaysAt19,
      starts,
      [billed, listed, test, unpriced],
      (vm) => {
        if (vm === billed) return { bill: { amortizedCost: 30, actualCost: 30, usageHours: 100 } };
        return vm === unpriced ? {} : { listHourly: 0.42 };
      },
      from,
    );
    expect(savings.get(billed.resourceId)).toEqual({
      annualSaving: 0.3 * 108 * weeksPerYear,
      note: 'off 108 hours a week (until Start dev VMs) at $0.30 an hour of compute (its bill)',
      isStartedAgain: true,
    });
    expect(savings.get(listed.resourceId)).toEqual({
      annualSaving: 0.42 * 108 * weeksPerYear,
      note: 'off 108 hours a week (until Start dev VMs) at $0.42 an hour of compute (list price)',
      isStartedAgain: true,
    });
    // Only the start pipeline asking for a finding is left, and it says nothing certain.
    expect(savings.get(test.resourceId)).toEqual({
      annualSaving: 0,
      note: 'saves $0.42 an hour of compute (list price) while off; no pipeline starts it again',
      isStartedAgain: false,
    });
    expect(savings.get(unpriced.resourceId)).toEqual({
      annualSaving: 0,
      note: 'off 108 hours a week (until Start dev VMs); no price read yet for its size',
      isStartedAgain: true,
    });
  });

  it('saves nothing on a VM a reservation pays for, and prices a bill of under a day at list', async () => {
    const reserved = createVm('reserved');
    const young = createVm('young');
    const savings = await estimateStopSavings(
      weekdaysAt19,
      [createStart('Start dev VMs')],
      [reserved, young],
      (vm) =>
        vm === reserved
          ? { bill: { amortizedCost: 40, actualCost: 4, usageHours: 100 }, listHourly: 0.5 }
          : { bill: { amortizedCost: 3, actualCost: 3, usageHours: 10 }, listHourly: 0.096 },
      from,
    );
    expect(savings.get(reserved.resourceId)).toMatchObject({
      annualSaving: 0,
      note: 'a reservation covers its hours, so stopping it saves nothing on the bill',
    });
    expect(savings.get(young.resourceId)).toMatchObject({
      annualSaving: 0.096 * 108 * weeksPerYear,
      note: 'off 108 hours a week (until Start dev VMs) at $0.096 an hour of compute (list price)',
    });
  });
});

describe('a stop pipeline with what its stops save', () => {
  it('previews each running VM with its saving, the largest first within the blast radius', async () => {
    const definition = define({ gates: { blastRadius: 4 } });
    const idle = [{ id: 7, kind: 'shutdown', confidence: 0.9, annualSaving: 900, text: 'Shut down' }];
    const stoppedWaste = [
      { id: 8, kind: 'deallocate', confidence: null, annualSaving: 50, text: 'Deallocate' },
    ];
    const candidates = [
      createVm('small'),
      createVm('large'),
      createVm('medium'),
      createVm('stopped', { powerState: 'stopped', recommendations: stoppedWaste }),
      createVm('prod', { tags: { environment: 'prod' } }),
    ];
    const targets = listStopTargets(definition, candidates);
    expect(targets.map((vm) => vm.name)).toEqual(['small', 'large', 'medium', 'prod']);
    const hourly: Record<string, number> = { small: 0.1, large: 0.8, medium: 0.4, prod: 2 };
    const startDev = createStart('Start dev VMs', {
      scope: { tags: [{ key: 'environment', op: 'equals', value: 'dev' }] },
    });
    const stopSavings = await estimateStopSavings(
      definition.schedule,
      [startDev],
      targets,
      (vm) => ({ listHourly: hourly[vm.name] }),
      new Date('2026-11-23T00:00:00Z'),
    );
    const items = evaluatePipeline(definition, candidates, {
      now: new Date('2026-11-23T00:00:00Z'),
      dryRun: true,
      stopSavings,
    });
    expect(
      items.map((item) => [item.candidate.name, item.outcome, item.reason, item.annualSaving, item.detail]),
    ).toEqual([
      [
        'large',
        'matched',
        null,
        0.8 * 108 * weeksPerYear,
        'Would stop (deallocate): off 108 hours a week (until Start dev VMs) at $0.80 an hour of compute (list price)',
      ],
      [
        'medium',
        'matched',
        null,
        0.4 * 108 * weeksPerYear,
        'Would stop (deallocate): off 108 hours a week (until Start dev VMs) at $0.40 an hour of compute (list price)',
      ],
      // Nothing starts a production VM again: it saves nothing, so it comes last.
      ['prod', 'skipped', 'overBlastRadius', 0, 'Over the blast radius of 4'],
      [
        'small',
        'matched',
        null,
        0.1 * 108 * weeksPerYear,
        'Would stop (deallocate): off 108 hours a week (until Start dev VMs) at $0.10 an hour of compute (list price)',
      ],
      // Stopped but not deallocated: its waste recommendation's saving, as before.
      ['stopped', 'matched', null, 50, 'Would stop (deallocate)'],
    ]);
    expect(items.find((item) => item.candidate.name === 'stopped')!.recommendationId).toBe(8);

    // An idle VM nothing starts again keeps what shutting it down saves; started again, its off hours.
    const idleVm = createVm('idle', { recommendations: idle });
    const [alone] = evaluatePipeline(definition, [idleVm], {
      now: new Date('2026-11-23T00:00:00Z'),
      dryRun: true,
      stopSavings: await estimateStopSavings(
        definition.schedule,
        [],
        [idleVm],
        () => ({ listHourly: 1 }),
        new Date(),
      ),
    });
    expect(alone).toMatchObject({
      annualSaving: 900,
      recommendationId: 7,
      detail: 'Would stop (deallocate)',
    });
    const [paired] = evaluatePipeline(definition, [idleVm], {
      now: new Date('2026-11-23T00:00:00Z'),
      dryRun: true,
      stopSavings: await estimateStopSavings(
        definition.schedule,
        [startDev],
        [idleVm],
        () => ({ listHourly: 1 }),
        new Date('2026-11-23T00:00:00Z'),
      ),
    });
    expect(paired).toMatchObject({ annualSaving: 108 * weeksPerYear, recommendationId: null });
  });
});

describe('findOffHours bounded', () => {
  // Every read of any cron, counted where the parser answers it.
  async function countCronReads(read: () => Promise<void>): Promise<number> {
    const prototype = Object.getPrototypeOf(cronParser.parseExpression('* * * * *')) as {
      next: () => unknown;
    };
    const next = vi.spyOn(prototype, 'next');
    try {
      await read();
      return next.mock.calls.length;
    } finally {
      next.mockRestore();
    }
  }

  // The fifth Monday of a February: no firing before 2044.
  const rareStart = createStart('Rare start', { schedule: { cron: '0 0 * 2 1#5', timeZone: 'UTC' } });

  it('reads a minutely or quarter-hourly stop beside a start that fires once in years a handful of times', async () => {
    for (const cron of ['* * * * *', '*/15 * * * *']) {
      let hours = 0;
      const reads = await countCronReads(async () => {
        hours = (
          await findOffHours({ cron, timeZone: 'UTC' }, [rareStart], 2, new Date('2026-11-23T00:00:00Z'))
        ).hoursPerWeek;
      });
      // Off the whole week: no start comes.
      expect(hours).toBe(168);
      expect(reads).toBeLessThanOrEqual(4);
    }
  });

  it('lets the event loop in while it walks a stop and start that alternate all week', async () => {
    const hourly = createStart('Hourly start', { schedule: { cron: '30 * * * *', timeZone: 'UTC' } });
    const order: string[] = [];
    setImmediate(() => order.push('another request'));
    await findOffHours({ cron: '0 * * * *', timeZone: 'UTC' }, [hourly], 2, new Date('2026-11-23T00:00:00Z'));
    order.push('walk done');
    expect(order).toEqual(['another request', 'walk done']);
  });

  it('reads each cron about once per change of state: a quarter-hourly stop beside an hourly start', async () => {
    const hourly = createStart('Hourly start', { schedule: { cron: '30 * * * *', timeZone: 'UTC' } });
    let hours = 0;
    const reads = await countCronReads(async () => {
      hours = (
        await findOffHours(
          { cron: '0 * * * *', timeZone: 'UTC' },
          [hourly],
          2,
          new Date('2026-11-23T00:00:00Z'),
        )
      ).hoursPerWeek;
    });
    // Off half of every hour.
    expect(hours).toBe(84);
    // 168 stops and 168 starts, and the stop's first firing after the week.
    expect(reads).toBeLessThanOrEqual(2 * 168 + 2);
  });
});
