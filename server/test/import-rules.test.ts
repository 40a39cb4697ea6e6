// The server's import rules in eslint.config.js, each proved where several entries overlap: flat config
// lets a later entry replace an earlier one's options for the same rule, which once dropped the Azure
// SDK ban for repositories without a word. Each case lints a small fixture at a path it names.
import path from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

const repoRoot = path.resolve(import.meta.dirname, '../..');
let eslint: ESLint;

// The first lint loads the parser and every plugin (seconds on a busy machine): done once here, with
// time to spare, so each case below takes milliseconds.
beforeAll(async () => {
  eslint = new ESLint({ cwd: repoRoot });
  await eslint.lintText('export {};\n', { filePath: path.join(repoRoot, 'server/src/warm-up.ts') });
}, 60_000);

// The rule's own message, without ESLint's "'x' import is restricted from being used by a pattern."
async function lintImport(file: string, specifier: string): Promise<string[]> {
  const code = `import { thing } from '${specifier}';\n\nexport const used = thing;\n`;
  const results = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return results
    .flatMap((result) => result.messages)
    .filter((m) => m.ruleId === 'no-restricted-imports')
    .map((m) => m.message.replace(/^.* by a pattern\. /, ''));
}

describe('the server import rules', () => {
  it.each([
    'server/src/modules/example/example.repository.ts',
    'server/src/modules/example/example.service.ts',
    'server/src/modules/example/example.routes.ts',
    'server/src/jobs/example.job.ts',
    'server/src/queue/example-work.ts',
    'server/src/container.ts',
    'server/src/modules/example/example.int.test.ts',
  ])('%s may not import the Azure SDK', async (file) => {
    expect(await lintImport(file, '@azure/arm-compute')).toEqual([
      'Only server/src/cloud/azure imports the Azure SDK.',
    ]);
  });

  it('server/src/cloud/azure imports the Azure SDK', async () => {
    expect(await lintImport('server/src/cloud/azure/example.ts', '@azure/arm-compute')).toEqual([]);
  });

  it('a repository imports neither services nor routes, and the Azure ban still holds beside it', async () => {
    const file = 'server/src/modules/example/example.repository.ts';
    expect(await lintImport(file, '../other/other.service')).toEqual([
      'Repositories sit below services and routes.',
    ]);
    expect(await lintImport(file, './example.routes')).toEqual([
      'Repositories sit below services and routes.',
    ]);
  });

  it.each(['server/src/modules/example/example.routes.ts', 'server/src/jobs/example.job.ts'])(
    '%s reaches the data through a service, never a repository',
    async (file) => {
      expect(await lintImport(file, '../example/example.repository')).toEqual([
        'Routes and job handlers reach the data through a service, never a repository.',
      ]);
    },
  );

  it('a service never imports routes', async () => {
    expect(await lintImport('server/src/modules/example/example.service.ts', './example.routes')).toEqual([
      'Services and repositories never import routes.',
    ]);
  });

  it.each([
    'server/src/modules/example/example.service.ts',
    'server/src/modules/example/example.repository.ts',
    'server/src/container.ts',
    'server/src/queue/example-work.ts',
  ])('%s may not import a job handler', async (file) => {
    expect(await lintImport(file, '../../jobs/cost-sync.job')).toContain(
      'Only jobs/ imports a job handler; enqueue by the job names in queue/.',
    );
  });

  it('jobs/ imports its handlers', async () => {
    expect(await lintImport('server/src/jobs/definitions.ts', './cost-sync.job')).toEqual([]);
  });

  it('a module may not import jobs/, and takes the queue and job names from queue/', async () => {
    const file = 'server/src/modules/example/example.service.ts';
    expect(await lintImport(file, '../../jobs/tenant-job')).toEqual([
      'Modules sit below jobs/: the queue and the job names are in queue/.',
    ]);
    expect(await lintImport(file, '../../queue/cloud-work')).toEqual([]);
    expect(await lintImport(file, '../../queue/queue')).toEqual([]);
  });
});
