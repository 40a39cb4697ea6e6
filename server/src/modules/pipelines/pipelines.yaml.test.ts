import { pipelineDefinitionSchema } from '@cloudtrim/contracts/pipelines';
import { describe, expect, it } from 'vitest';
import { readPipelineYaml, writePipelineYaml } from './pipelines.yaml';

const definition = pipelineDefinitionSchema.parse({
  name: 'Stop dev VMs',
  scope: { tags: [{ key: 'env', op: 'equals', value: 'dev' }] },
  action: { type: 'stop' },
  schedule: { cron: '0 19 * * 1-5', timeZone: 'Europe/London' },
});

describe('pipeline files', () => {
  it('read back what was written, the schema named for editors', () => {
    const text = writePipelineYaml(definition, 'http://cloudtrim.test/api/v1/pipeline/schema.json');
    expect(text.split('\n')[0]).toBe(
      '# yaml-language-server: $schema=http://cloudtrim.test/api/v1/pipeline/schema.json',
    );
    expect(readPipelineYaml(text)).toEqual({ definition });
  });

  it('name the line and field of a value at fault', () => {
    const text = [
      'name: Stop',
      'action:',
      '  type: reboot',
      'schedule:',
      '  maintenanceWindow: true',
      '',
    ].join('\n');
    expect(readPipelineYaml(text)).toMatchObject({ fault: { line: 3, field: 'action.type' } });
  });

  it('name the enclosing line of a field that is missing', () => {
    const text = ['name: Stop', 'action:', '  type: tag', 'schedule:', '  maintenanceWindow: true', ''].join(
      '\n',
    );
    expect(readPipelineYaml(text)).toMatchObject({
      fault: { line: 3, field: 'action.tag', message: 'A tag action needs the tag to set.' },
    });
  });

  it('name the line of a syntax error and of a repeated key', () => {
    expect(readPipelineYaml('name: Stop\naction: {type: stop\nschedule: x\n')).toMatchObject({
      fault: { line: 3 },
    });
    expect(readPipelineYaml('name: Stop\nname: Again\n')).toMatchObject({ fault: { line: 2 } });
  });
});
