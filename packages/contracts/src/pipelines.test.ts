import { describe, expect, it } from 'vitest';
import {
  approvalDecisionRequestSchema,
  createPipelineJsonSchema,
  isTimeZone,
  pipelineDefinitionSchema,
} from './pipelines';

const valid = {
  name: ' Stop dev VMs ',
  scope: { tags: [{ key: 'env', op: 'equals', value: 'dev' }] },
  action: { type: 'stop' },
  schedule: { cron: '0 19 * * 1-5', timeZone: 'Europe/London' },
};

function readField(input: unknown): string | undefined {
  const result = pipelineDefinitionSchema.safeParse(input);
  return result.success ? undefined : result.error.issues[0]!.path.join('.');
}

describe('a pipeline definition', () => {
  it('reads a dry run by default, one evaluation in a row, ten a run, destructive approvals after an hour', () => {
    expect(pipelineDefinitionSchema.parse(valid)).toEqual({
      ...valid,
      name: 'Stop dev VMs',
      condition: {},
      gates: { dryRun: true, inARow: 1, blastRadius: 10, approval: 'destructive', graceMinutes: 60 },
    });
  });

  it('takes the maintenance window as a schedule', () => {
    expect(readField({ ...valid, schedule: { maintenanceWindow: true } })).toBeUndefined();
  });

  it('names the field of each refusal', () => {
    expect(readField({ ...valid, name: ' ' })).toBe('name');
    expect(readField({ ...valid, scope: { tags: [{ key: 'env', op: 'equals' }] } })).toBe(
      'scope.tags.0.value',
    );
    expect(readField({ ...valid, scope: { subscriptionIds: ['prod'] } })).toBe('scope.subscriptionIds.0');
    expect(readField({ ...valid, action: { type: 'tag' } })).toBe('action.tag');
    expect(readField({ ...valid, action: { type: 'reboot' } })).toBe('action.type');
    expect(readField({ ...valid, condition: { finding: { kind: 'unattachedDays' } } })).toBe(
      'condition.finding.days',
    );
    expect(
      readField({ ...valid, condition: { finding: { kind: 'recommendation', minConfidence: 2 } } }),
    ).toBe('condition.finding.minConfidence');
    expect(readField({ ...valid, gates: { blastRadius: 0 } })).toBe('gates.blastRadius');
    expect(readField({ ...valid, gates: { inARow: 1.5 } })).toBe('gates.inARow');
    expect(readField({ ...valid, schedule: { cron: '0 19 * *', timeZone: 'Europe/London' } })).toBe(
      'schedule.cron',
    );
    expect(readField({ ...valid, schedule: { cron: '0 19 * * *', timeZone: 'Mars/Olympus' } })).toBe(
      'schedule.timeZone',
    );
  });

  it('deletes only waste and applies only recommendations', () => {
    expect(readField({ ...valid, action: { type: 'delete' } })).toBe('action.type');
    expect(
      readField({
        ...valid,
        action: { type: 'delete' },
        condition: { finding: { kind: 'unattachedDays', days: 30 } },
      }),
    ).toBeUndefined();
    expect(
      readField({
        ...valid,
        action: { type: 'delete' },
        condition: { finding: { kind: 'recommendation', recommendationKind: 'resize' } },
      }),
    ).toBe('action.type');
    expect(readField({ ...valid, action: { type: 'applyRecommendation' } })).toBe('action.type');
  });
});

describe('time zones', () => {
  it('knows IANA names and refuses others', () => {
    expect(isTimeZone('Europe/London')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Londres')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});

describe('the published JSON Schema', () => {
  it('describes the file: name, action and schedule required, gates optional', () => {
    const schema = createPipelineJsonSchema() as {
      required: string[];
      properties: Record<string, { properties?: Record<string, unknown> }>;
    };
    expect(schema.required).toEqual(['name', 'action', 'schedule']);
    expect(Object.keys(schema.properties.gates!.properties!)).toEqual([
      'dryRun',
      'inARow',
      'blastRadius',
      'approval',
      'graceMinutes',
    ]);
  });
});

describe('an approval decision', () => {
  it('is approve or reject', () => {
    expect(approvalDecisionRequestSchema.safeParse({ decision: 'approve' }).success).toBe(true);
    expect(approvalDecisionRequestSchema.safeParse({ decision: 'maybe' }).success).toBe(false);
  });
});
