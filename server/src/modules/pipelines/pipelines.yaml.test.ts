import { pipelineDefinitionSchema } from '@cloudtrim/contracts/pipelines';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pipelineFileMaxChars, readPipelineYaml, writePipelineYaml } from './pipelines.yaml';

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

// The billion laughs: each line's list holds the last one nine times over.
function writeAliasBomb(levels: number): string {
  const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let level = 1; level < levels; level += 1) {
    const previous = String.fromCharCode(96 + level);
    const alias = `*${previous}`;
    lines.push(
      `${String.fromCharCode(97 + level)}: &${String.fromCharCode(97 + level)} [${Array(9).fill(alias).join(',')}]`,
    );
  }
  return `name: Bomb\n${lines.join('\n')}\n`;
}

describe('hostile pipeline files', () => {
  it('refuse an alias bomb with the line of the alias past the count, in under a second', () => {
    const startedAt = performance.now();
    const read = readPipelineYaml(writeAliasBomb(9));
    expect(performance.now() - startedAt).toBeLessThan(1000);
    // Line 1 is the name, line 2 the anchor; line 3 holds aliases 1 to 9, line 4 10 to 18, line 5
    // the 21st.
    expect(read).toEqual({
      fault: { message: 'A pipeline file may use at most 20 aliases.', line: 5 },
    });
  });

  it('read a few aliases as the values they name', () => {
    const text = [
      'name: Stop',
      'scope:',
      '  tags:',
      '    - &dev { key: env, op: equals, value: dev }',
      '    - *dev',
      'action: { type: stop }',
      'schedule: { maintenanceWindow: true }',
      '',
    ].join('\n');
    expect(readPipelineYaml(text)).toMatchObject({ definition: { name: 'Stop' } });
  });

  it('refuse a document over the size limit with the line where it passes it', () => {
    const text = `name: Big\n${'# padding\n'.repeat(pipelineFileMaxChars / 10)}`;
    expect(readPipelineYaml(text)).toEqual({
      fault: { message: 'A pipeline file must be at most 100000 characters.', line: 10_001 },
    });
  });

  it('answer a definition or a fault with a line for any text, never an exception', () => {
    const token = fc.constantFrom(
      'name: x',
      'a: &x [1, 2]',
      'b: *x',
      '*x',
      '&y',
      '<<: *x',
      '<<: 1',
      '? [a, b]',
      ': ',
      '- ',
      '--- ',
      '...',
      '!!binary x',
      '!!js/function x',
      '!tag x',
      '%YAML 1.1',
      '{',
      '}',
      '[',
      '"\\u0000"',
      'schedule: { cron: "0 0 31 2,4 *", timeZone: UTC }',
      'action: { type: stop }',
      '  ',
      '\t',
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(token, fc.string({ maxLength: 12 })), { maxLength: 30 }),
        fc.constantFrom('\n', ' ', '\n  '),
        (parts, separator) => {
          const read = readPipelineYaml(parts.join(separator));
          if ('fault' in read) expect(read.fault.line).toBeGreaterThanOrEqual(1);
          else expect(read.definition.name).toBeTypeOf('string');
        },
      ),
      { numRuns: 500, seed: 23 },
    );
  });
});
