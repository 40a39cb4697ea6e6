import { describe, expect, it } from 'vitest';
import type { PipelineDefinition } from '@cloudtrim/contracts/pipelines';
import {
  buildPipelineDefinition,
  checkPipelineDefinition,
  createPipelineDraft,
  findFieldError,
  readPipelineDraft,
} from './pipeline-draft';

const gates = {
  dryRun: true,
  inARow: 2,
  blastRadius: 10,
  approval: 'destructive',
  graceMinutes: 60,
} as const;

const definitions: PipelineDefinition[] = [
  {
    name: 'Apply high-confidence right-sizing in the window',
    scope: {
      tenantIds: ['0b2f5e4c-8a3d-4f61-9c7e-2d1a6b9e0f34'],
      subscriptionIds: ['11111111-2222-3333-4444-555555555555', '21111111-2222-3333-4444-555555555555'],
      resourceGroups: ['rg-web-prod'],
      tags: [{ key: 'owner', op: 'exists' }],
    },
    condition: { finding: { kind: 'recommendation', recommendationKind: 'resize', minConfidence: 0.9 } },
    action: { type: 'applyRecommendation' },
    schedule: { maintenanceWindow: true },
    gates,
  },
  {
    name: 'Snapshot and delete disks unattached 30 days',
    scope: {},
    condition: {
      finding: { kind: 'unattachedDays', days: 30 },
      tags: [{ key: 'keep', op: 'notEquals', value: 'yes' }],
    },
    action: { type: 'delete' },
    schedule: { cron: '0 3 * * *', timeZone: 'Europe/London' },
    gates: { ...gates, approval: 'always', graceMinutes: 1440 },
  },
];

describe('pipeline draft', () => {
  it.each(definitions)('reads $name into the form and builds it back unchanged', (definition) => {
    const built = buildPipelineDefinition(readPipelineDraft(definition));
    expect(checkPipelineDefinition(built)).toEqual({});
    expect(JSON.parse(JSON.stringify(built))).toEqual(definition);
  });

  it('names each field the contract refuses, by its path', () => {
    const draft = {
      ...createPipelineDraft(),
      subscriptionIds: 'not-a-guid',
      findingKind: 'unattachedDays' as const,
      timeZone: 'Mars/Olympus',
      blastRadius: '0',
    };
    const errors = checkPipelineDefinition(buildPipelineDefinition(draft));
    expect(errors.name).toBe('Name is required.');
    expect(findFieldError(errors, 'scope.subscriptionIds')).toMatch(/^Subscription id must be a GUID/);
    expect(errors['condition.finding.days']).toBe('Days must be a whole number from 1 to 365.');
    expect(errors['schedule.timeZone']).toBe('Time zone must be an IANA time zone such as Europe/London.');
    expect(errors['gates.blastRadius']).toBe('Blast radius must be from 1 to 1000.');
  });
});
