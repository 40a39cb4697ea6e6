import { pipelineDefinitionSchema, type PipelineDefinitionRequest } from '@cloudtrim/contracts/pipelines';
import { describe, expect, it } from 'vitest';
import { describeScope, evaluatePipeline, type PipelineCandidate } from './pipelines.match';
import { dayMs } from '../../lib/time';

const now = new Date('2027-03-01T12:00:00Z');

function createCandidate(name: string, fields: Partial<PipelineCandidate> = {}): PipelineCandidate {
  return {
    resourceId: `id-${name}`,
    tenantId: 'tenant-1',
    canWrite: true,
    armId: `/subscriptions/sub-1/resourceGroups/web-rg/providers/Microsoft.Compute/virtualMachines/${name}`,
    name,
    type: 'Microsoft.Compute/virtualMachines',
    subcategory: 'Virtual Machine',
    subscriptionId: 'sub-1',
    resourceGroup: 'web-rg',
    powerState: 'running',
    tags: {},
    details: {},
    stateSince: null,
    maintenanceWindow: 2,
    heldUntil: null,
    monthlyCost: null,
    recommendations: [],
    ...fields,
  };
}

function define(fields: Partial<PipelineDefinitionRequest>) {
  return pipelineDefinitionSchema.parse({
    name: 'Test',
    action: { type: 'deallocate' },
    schedule: { cron: '0 19 * * *', timeZone: 'Europe/London' },
    ...fields,
  });
}

function summarise(items: ReturnType<typeof evaluatePipeline>) {
  return items.map((item) => [item.candidate.name, item.outcome, item.reason]);
}

describe('evaluatePipeline', () => {
  it('matches the scope by tag (keys case-insensitive), resource group and subscription', () => {
    const definition = define({
      scope: {
        subscriptionIds: ['00000000-0000-0000-0000-000000000001'],
        resourceGroups: ['WEB-RG'],
        tags: [
          { key: 'env', op: 'equals', value: 'dev' },
          { key: 'keep', op: 'notExists' },
        ],
      },
    });
    const subscriptionId = '00000000-0000-0000-0000-000000000001';
    const items = evaluatePipeline(
      definition,
      [
        createCandidate('a', { subscriptionId, tags: { Env: 'dev' } }),
        createCandidate('b', { subscriptionId, tags: { env: 'prod' } }),
        createCandidate('c', { subscriptionId, tags: { env: 'dev', keep: '' } }),
        createCandidate('d', { tags: { env: 'dev' } }),
      ],
      { now, dryRun: false },
    );
    expect(summarise(items)).toEqual([['a', 'acted', null]]);
  });

  it('lets the opt-out tag win, counts evaluations in a row, then caps the run at the largest savings', () => {
    const definition = define({
      condition: { finding: { kind: 'idle' } },
      gates: { dryRun: false, inARow: 2, blastRadius: 1 },
    });
    const idle = (id: number, saving: number) => [
      { id, kind: 'shutdown', confidence: 0.9, annualSaving: saving, text: 'Shut down' },
    ];
    const candidates = [
      createCandidate('a', { recommendations: idle(1, 100) }),
      createCandidate('b', { recommendations: idle(2, 300) }),
      createCandidate('c', { recommendations: idle(3, 900), tags: { 'CloudTrim:Exclude': 'yes' } }),
      createCandidate('d', { recommendations: idle(4, 500) }),
      createCandidate('e'),
    ];
    const streaks = new Map([
      ['id-a', 1],
      ['id-b', 1],
      ['id-c', 5],
    ]);
    expect(summarise(evaluatePipeline(definition, candidates, { now, dryRun: false, streaks }))).toEqual([
      ['a', 'skipped', 'overBlastRadius'],
      ['b', 'acted', null],
      ['c', 'skipped', 'optedOut'],
      ['d', 'skipped', 'notEnoughInARow'],
    ]);
  });

  it('waits for approval on the change an applied recommendation makes: any deletion, a prod VM powered off', () => {
    const apply = define({
      action: { type: 'applyRecommendation' },
      condition: { finding: { kind: 'recommendation' } },
      gates: { dryRun: false },
    });
    const recommend = (kind: string) => [
      { id: kind.length, kind, confidence: 0.9, annualSaving: 100, text: kind },
    ];
    const prod = { environment: 'prod' };
    const items = evaluatePipeline(
      apply,
      [
        createCandidate('disk', {
          type: 'Microsoft.Compute/disks',
          recommendations: recommend('deleteDisk'),
        }),
        createCandidate('ip', {
          type: 'Microsoft.Network/publicIPAddresses',
          recommendations: recommend('deletePublicIp'),
        }),
        createCandidate('plan', {
          type: 'Microsoft.Web/serverfarms',
          recommendations: recommend('deletePlan'),
        }),
        createCandidate('prod-idle', { tags: prod, recommendations: recommend('shutdown') }),
        createCandidate('prod-stopped', { tags: prod, recommendations: recommend('deallocate') }),
        createCandidate('prod-nights', {
          tags: { Env: 'Production' },
          recommendations: recommend('activeHours'),
        }),
        createCandidate('prod-resize', { tags: prod, recommendations: recommend('resize') }),
        createCandidate('dev-idle', { tags: { env: 'dev' }, recommendations: recommend('shutdown') }),
      ],
      { now, dryRun: false },
    );
    expect(summarise(items)).toEqual([
      ['dev-idle', 'acted', null],
      ['disk', 'skipped', 'awaitingApproval'],
      ['ip', 'skipped', 'awaitingApproval'],
      ['plan', 'skipped', 'awaitingApproval'],
      ['prod-idle', 'skipped', 'awaitingApproval'],
      ['prod-nights', 'skipped', 'awaitingApproval'],
      ['prod-resize', 'acted', null],
      ['prod-stopped', 'skipped', 'awaitingApproval'],
    ]);
  });

  it('waits for approval to change a protection tag, and not another tag', () => {
    const retag = (key: string) =>
      define({ action: { type: 'tag', tag: { key, value: 'dev' } }, gates: { dryRun: false } });
    const vm = createCandidate('vm', { tags: { environment: 'prod' } });
    for (const key of ['environment', 'ENV', 'cloudtrim:exclude']) {
      expect(summarise(evaluatePipeline(retag(key), [vm], { now, dryRun: false }))).toEqual([
        ['vm', 'skipped', 'awaitingApproval'],
      ]);
    }
    expect(summarise(evaluatePipeline(retag('owner'), [vm], { now, dryRun: false }))).toEqual([
      ['vm', 'acted', null],
    ]);
  });

  it('waits for approval to stop a production VM or to delete, and not to stop another', () => {
    const stop = define({ action: { type: 'stop' }, gates: { dryRun: false } });
    const items = evaluatePipeline(
      stop,
      [createCandidate('prod', { tags: { environment: 'Production' } }), createCandidate('dev')],
      { now, dryRun: false },
    );
    expect(summarise(items)).toEqual([
      ['dev', 'acted', null],
      ['prod', 'skipped', 'awaitingApproval'],
    ]);
    const remove = define({
      action: { type: 'delete' },
      condition: { finding: { kind: 'unattachedDays', days: 30 } },
      gates: { dryRun: false },
    });
    const disk = createCandidate('disk', {
      type: 'Microsoft.Compute/disks',
      details: { diskState: 'Unattached' },
      stateSince: new Date(now.getTime() - 31 * dayMs),
      recommendations: [
        { id: 9, kind: 'deleteDisk', confidence: null, annualSaving: 60, text: 'Delete the disk' },
      ],
    });
    const young = createCandidate('young', {
      type: 'Microsoft.Compute/disks',
      details: { diskState: 'Unattached' },
      stateSince: new Date(now.getTime() - 29 * dayMs),
    });
    const [item, ...others] = evaluatePipeline(remove, [disk, young], { now, dryRun: false });
    expect(others).toEqual([]);
    expect(item).toMatchObject({
      reason: 'awaitingApproval',
      recommendationId: 9,
      annualSaving: 60,
      detail: 'Delete: Delete the disk',
    });
  });

  it('says why an action does not apply, and what a dry run would do', () => {
    const start = define({ action: { type: 'start' } });
    const items = evaluatePipeline(
      start,
      [
        createCandidate('running'),
        createCandidate('stopped', { powerState: 'deallocated' }),
        createCandidate('locked', { powerState: 'deallocated', canWrite: false }),
      ],
      { now, dryRun: true },
    );
    expect(items.map((item) => [item.candidate.name, item.outcome, item.reason, item.detail])).toEqual([
      ['locked', 'skipped', 'readOnly', 'The tenant is read-only'],
      ['running', 'skipped', 'notApplicable', 'Already running'],
      ['stopped', 'matched', null, 'Would start'],
    ]);
  });
});

describe('describeScope', () => {
  it('says the scope in a line', () => {
    expect(describeScope({})).toBe('All resources');
    expect(
      describeScope({
        subscriptionIds: ['00000000-0000-0000-0000-000000000001', '00000000-0000-0000-0000-000000000002'],
        resourceGroups: ['web-rg'],
        tags: [
          { key: 'env', op: 'equals', value: 'dev' },
          { key: 'keep', op: 'notExists' },
        ],
      }),
    ).toBe('2 subscriptions · resource group web-rg · tag env = dev · no tag keep');
  });
});
