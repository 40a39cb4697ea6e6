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

// The table-owner rule's messages for a fixture's code (no-restricted-syntax).
async function lintWrites(file: string, code: string): Promise<string[]> {
  const results = await eslint.lintText(code, { filePath: path.join(repoRoot, file) });
  return results
    .flatMap((result) => result.messages)
    .filter((m) => m.ruleId === 'no-restricted-syntax')
    .map((m) => m.message);
}

const resourceOwner = 'resource: only modules/resources writes this table; call its service.';
const accountOwner =
  'team, app_user, one_time_token: only modules/account writes these tables; call its service.';

describe('every table has one writing module', () => {
  const drizzleWrite = (table: string, write: string) =>
    `import type { Db } from '../../db/database';\nimport { ${table} } from '../../db/schema';\n\n` +
    `export async function write(db: Db): Promise<void> {\n  await db.${write};\n}\n`;
  const sqlWrite = (text: string) =>
    `import { sql } from 'drizzle-orm';\nimport type { Db } from '../../db/database';\n\n` +
    `export async function write(db: Db): Promise<void> {\n  await db.execute(sql\`${text}\`);\n}\n`;

  it.each([
    ['resources', 'update(resources).set({ automated: 0 })'],
    ['resources', 'delete(resources)'],
    ['resources', 'insert(resources).values([])'],
  ])(
    "a drizzle write of another module's table fails lint, naming its owner: %s.%s",
    async (table, write) => {
      expect(
        await lintWrites('server/src/modules/example/example.repository.ts', drizzleWrite(table, write)),
      ).toEqual([resourceOwner]);
    },
  );

  it.each([
    'update resource set analysed_until = null',
    'insert into resource (id) values (1)',
    'DELETE FROM resource where id = 1',
  ])("SQL text writing another module's table fails lint: %s", async (text) => {
    expect(await lintWrites('server/src/modules/example/example.repository.ts', sqlWrite(text))).toEqual([
      resourceOwner,
    ]);
  });

  it('the owner writes its table, and anyone reads it', async () => {
    const owner = 'server/src/modules/resources/resource-writes.repository.ts';
    expect(
      await lintWrites(owner, drizzleWrite('resources', 'update(resources).set({ automated: 0 })')),
    ).toEqual([]);
    expect(await lintWrites(owner, sqlWrite('update resource set analysed_until = null'))).toEqual([]);
    const reader = 'server/src/modules/example/example.repository.ts';
    expect(await lintWrites(reader, drizzleWrite('resources', 'select().from(resources)'))).toEqual([]);
    expect(
      await lintWrites(reader, sqlWrite('select id from resource join resource_state_dating using (id)')),
    ).toEqual([]);
  });

  it('a table written outside modules/ fails too, and a similar name is another table', async () => {
    expect(
      await lintWrites(
        'server/src/db/example.ts',
        drizzleWrite('users', 'update(users).set({ role: "Owner" })'),
      ),
    ).toEqual([accountOwner]);
    expect(
      await lintWrites(
        'server/src/modules/account/account.repository.ts',
        sqlWrite('update resource_state_dating set source = null'),
      ),
    ).toEqual(['resource_state_dating: only modules/inventory writes this table; call its service.']);
  });

  it("scheduled changes stay automation's, even to read", async () => {
    const code = `import { scheduledChanges } from '../../db/schema';\n\nexport const table = scheduledChanges;\n`;
    expect(await lintWrites('server/src/modules/example/example.repository.ts', code)).toEqual([
      'Only modules/automation touches scheduled changes; call AutomationService.',
    ]);
    expect(await lintWrites('server/src/modules/automation/automation.repository.ts', code)).toEqual([]);
  });
});
