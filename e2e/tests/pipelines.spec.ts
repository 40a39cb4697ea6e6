import AxeBuilder from '@axe-core/playwright';
import type { Browser, Locator, Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { hashPassword } from '../../server/src/lib/password-hasher';
import { demo, expect, logInThroughForm, readState, test, type Account } from '../support/fixtures';

// Automation Pipelines against the real server and the emulated fleet: a pipeline built from the
// "stop dev VMs" template and previewed, run for real, its stops held for approval until a colleague
// (a second user of the demo team, in a browser of their own) approves them, and the VMs stop. On the
// way its YAML is exported, and a copy with a fault is refused by its line and field, saving nothing.

async function withDatabase<Result>(work: (client: pg.Client) => Promise<Result>): Promise<Result> {
  const client = new pg.Client({ connectionString: readState().databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * A second member of the demo account's team, made directly in the database: an Approver (a Member
 * may not approve), in the team since before the run it approves.
 */
async function createColleague(): Promise<Account> {
  const account = {
    email: `colin-${randomUUID().slice(0, 8)}@example.com`,
    password: 'E2e-Password-2026',
    firstName: 'Colin',
  };
  const passwordHash = await hashPassword(account.password);
  await withDatabase((client) =>
    client.query(
      `insert into app_user (team_id, email, password_hash, first_name, last_name, role)
       select team_id, $2, $3, $4, 'Colleague', 'Approver' from app_user where email = $1`,
      [demo.email, account.email, passwordHash, account.firstName],
    ),
  );
  return account;
}

/** The power state the server last recorded for each of the demo team's resources named. */
async function readPowerStates(names: readonly string[]): Promise<Record<string, string | null>> {
  const { rows } = await withDatabase((client) =>
    client.query<{ name: string; power_state: string | null }>(
      `select resource.name, resource.power_state from resource
       join tenant on tenant.id = resource.tenant_id
       join app_user on app_user.team_id = tenant.team_id
       where app_user.email = $1 and resource.name = any($2)`,
      [demo.email, names],
    ),
  );
  return Object.fromEntries(rows.map((row) => [row.name, row.power_state]));
}

async function logIn(page: Page, account: Pick<Account, 'email' | 'password'>): Promise<void> {
  await page.goto('/login');
  await logInThroughForm(page, account);
  await expect(page).toHaveURL(/\/home$/);
}

/** Waits until the demo fleet's first sync has landed, reloading as a user would. */
async function waitForFleet(page: Page): Promise<void> {
  await page.goto('/resources');
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('columnheader', { name: 'HOURS START' })).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 120_000, intervals: [3_000] });
}

/** axe's serious and critical findings (WCAG 2.2 A and AA) on what the page shows now. */
async function findSeriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'])
    .analyze();
  return results.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
    );
}

function readCells(row: Locator): Promise<string[]> {
  return row.locator('th, td').allTextContents();
}

async function openColleaguePage(browser: Browser, colleague: Account): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await logIn(page, colleague);
  return page;
}

test.beforeEach(async ({ page }) => {
  test.setTimeout(360_000);
  await page.setViewportSize({ width: 1280, height: 900 });
});

test('a pipeline built from the stop-dev-VMs template is previewed, approved by a colleague, and stops the VMs', async ({
  page,
  browser,
}) => {
  const colleague = await createColleague();
  const stamp = Date.now();
  const name = `Stop dev VMs ${stamp}`;
  await logIn(page, demo);
  await waitForFleet(page);

  await page.getByRole('link', { name: 'Automation Pipelines' }).first().click();
  await expect(page.getByRole('heading', { name: 'Automation Pipelines', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'NEW PIPELINE' }).click();
  const builder = page.getByRole('dialog', { name: 'New pipeline' });
  const preview = builder.getByRole('region', { name: 'Dry-run preview (nothing is written to Azure)' });
  await expect(preview.getByText(/^The preview runs once the pipeline passes its checks/)).toBeVisible();

  await builder.getByLabel('Start from').selectOption({ label: 'Stop dev VMs outside business hours' });
  await expect(builder.getByLabel('Name', { exact: true })).toHaveValue(
    'Stop dev VMs outside business hours',
  );
  await expect(builder.getByRole('combobox', { name: 'Action', exact: true })).toHaveValue('stop');
  await expect(builder.getByLabel('Time zone', { exact: true })).toHaveValue('Europe/London');
  await builder.getByLabel('Name', { exact: true }).fill(name);
  // The template scopes the VMs tagged environment = dev, as the emulated fleet tags them; two at
  // most, each after a colleague approves.
  await expect(builder.getByLabel('Scope tag 1 key')).toHaveValue('environment');
  await builder.getByLabel('Blast radius (per run)').fill('2');
  await builder.getByLabel('Approval', { exact: true }).selectOption('always');
  await builder.getByLabel('Grace (minutes)').fill('0');

  const summary = preview.locator('.pipeline-preview-summary');
  await expect(summary).toHaveText(/^\d+ matched · 2 would be acted on now · \$[\d,]+\.\d\d a year$/, {
    timeout: 20_000,
  });
  const matched = Number((await summary.textContent())!.split(' ')[0]);
  expect(matched).toBeGreaterThanOrEqual(2);
  const previewRows = preview.getByRole('table', { name: 'Preview' }).locator('tbody tr');
  await expect(previewRows.first()).toBeVisible();
  expect((await readCells(previewRows.first()))[2]).toMatch(/^\$[\d,]+\.\d\d$/);
  expect(await findSeriousViolations(page)).toEqual([]);
  await builder.getByRole('button', { name: 'SAVE PIPELINE' }).click();
  await expect(builder).toBeHidden();

  const row = page.getByRole('table', { name: 'Pipelines' }).getByRole('row').filter({ hasText: name });
  await expect(row).toBeVisible();
  expect((await readCells(row)).slice(2, 4)).toEqual(['Stop', '0 19 * * 1-5 (Europe/London)']);
  await expect(row.getByRole('cell').nth(5)).toHaveText('Active');

  // Pipelines as code: the YAML exported, and a copy with a fault refused by its line and field.
  const downloading = page.waitForEvent('download');
  await row.getByRole('button', { name: `Export ${name} as YAML` }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(`stop-dev-vms-${stamp}.yaml`);
  const yaml = await readFile(await download.path(), 'utf8');
  expect(yaml).toContain(`name: ${name}`);
  const broken = yaml.replace('timeZone: Europe/London', 'timeZone: Mars/Olympus');
  expect(broken).not.toBe(yaml);
  const faultLine = broken.split('\n').findIndex((text) => text.includes('Mars/Olympus')) + 1;
  await page.getByLabel('Pipeline file to import').setInputFiles({
    name: 'broken.yaml',
    mimeType: 'application/yaml',
    buffer: Buffer.from(broken),
  });
  await expect(page.getByRole('alert').filter({ hasText: 'The file was not imported.' })).toHaveText(
    `The file was not imported. Line ${faultLine}, schedule.timeZone: Time zone must be an IANA time zone such as Europe/London.`,
  );
  await page.reload();
  await expect(row).toHaveCount(1);

  // Run for real: both stops wait for a colleague.
  await row.getByRole('button', { name: `Runs of ${name}` }).click();
  const runs = page.getByRole('dialog', { name: `Runs of ${name}` });
  await runs.getByRole('button', { name: 'RUN NOW', exact: true }).click();
  await runs.getByRole('button', { name: 'RUN FOR REAL' }).click();
  const items = runs.getByRole('table', { name: 'Run items' });
  const waiting = items.locator('tbody tr').filter({ hasText: 'Skipped: awaiting approval' });
  await expect(waiting).toHaveCount(2, { timeout: 30_000 });
  expect(await findSeriousViolations(page)).toEqual([]);
  const vmNames = await waiting.locator('th').allTextContents();
  expect(Object.values(await readPowerStates(vmNames))).toEqual(['running', 'running']);
  await runs.getByRole('button', { name: 'Close' }).click();

  // The proposer is not asked to approve their own proposal.
  await expect(page.getByText('Nothing is waiting for your approval.')).toBeVisible();

  const colleaguePage = await openColleaguePage(browser, colleague);
  await colleaguePage.goto('/automation');
  const approval = colleaguePage
    .getByRole('list', { name: 'Approvals' })
    .getByRole('listitem')
    .filter({ hasText: name });
  await expect(approval.getByRole('heading', { name: `${name}: Stop 2 resources` })).toBeVisible();
  await expect(approval.getByText(demo.email, { exact: false })).toBeVisible();
  expect(await findSeriousViolations(colleaguePage)).toEqual([]);
  await approval.getByRole('button', { name: `Approve ${name}` }).click();
  await expect(approval).toHaveCount(0);
  await colleaguePage.context().close();

  // The executor stops them (its dispatch claims due changes every minute); a stop deallocates, as
  // the portal's Stop does, so either state is a stopped VM.
  await expect
    .poll(() => readPowerStates(vmNames), { timeout: 180_000, intervals: [5_000] })
    .toEqual(
      Object.fromEntries(vmNames.map((vmName) => [vmName, expect.stringMatching(/^(stopped|deallocated)$/)])),
    );
  await expect(async () => {
    await page.reload();
    const reloadedRow = page
      .getByRole('table', { name: 'Pipelines' })
      .getByRole('row')
      .filter({ hasText: name });
    await reloadedRow.getByRole('button', { name: `Runs of ${name}` }).click();
    const reopened = page.getByRole('dialog', { name: `Runs of ${name}` });
    await reopened
      .getByRole('button', { name: /^Details of the run of / })
      .first()
      .click();
    await expect(
      reopened.getByRole('table', { name: 'Run items' }).locator('tbody tr').filter({ hasText: 'Acted' }),
    ).toHaveCount(2, { timeout: 3_000 });
  }).toPass({ timeout: 60_000, intervals: [3_000] });
  await page
    .getByRole('dialog', { name: `Runs of ${name}` })
    .getByRole('button', { name: 'Close' })
    .click();

  const list = page.getByRole('table', { name: 'Pipelines' }).getByRole('row').filter({ hasText: name });
  await list.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete pipeline' });
  await confirm.getByRole('button', { name: 'DELETE PIPELINE' }).click();
  await expect(confirm).toBeHidden();
  await expect(list).toHaveCount(0);
});
