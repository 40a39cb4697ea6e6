import type { Locator, Page } from '@playwright/test';
import { demo, expect, logInThroughForm, test } from '../support/fixtures';

// /recommendations against the real server: the engine analyses the demo fleet after its first
// collection, then the list shows its recommendations with SPEC's fields, the money format, the Memo
// tooltip, both layout breakpoints, the evidence chart, and the apply buttons whose changes reach
// /pending.

const moneyFormat = /^\$\d{1,3}(,\d{3})*\.\d{2}$/;
const wideHeaders = [
  'ID',
  'RESOURCE',
  'WHEN',
  'PREDICTION METHOD',
  'RECOMMENDATION',
  'ANNUAL COST SAVINGS',
  'ACTIONS',
];
const condensedHeaders = ['RESOURCE', 'RECOMMENDATION', 'ANNUAL COST SAVINGS', 'ACTIONS'];

async function logInAsDemo(page: Page): Promise<void> {
  await page.goto('/login');
  await logInThroughForm(page, demo);
  await expect(page).toHaveURL(/\/home$/);
}

function getRecommendationRows(page: Page): Locator {
  return page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'ANNUAL COST SAVINGS' }) })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
}

/** Waits until the engine has analysed the demo fleet, reloading as a user would. */
async function openRecommendations(page: Page): Promise<void> {
  await page.goto('/recommendations');
  await expect(async () => {
    await page.reload();
    await expect(getRecommendationRows(page).first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 150_000, intervals: [3_000] });
}

/** The first resize whose buttons are still free, found again by its Id once its buttons change. */
async function findApplicableRow(page: Page): Promise<{ row: Locator; name: string }> {
  const rows = getRecommendationRows(page).filter({
    has: page.getByRole('button', { name: 'APPLY NOW', exact: true }),
  });
  for (const row of await rows.all()) {
    const id = (await row.getByRole('cell').nth(0).textContent())!.trim();
    const name = (await row.getByRole('cell').nth(1).textContent())!.trim();
    const recommendation = (await row.getByRole('cell').nth(4).textContent())!;
    // A resize names its target size; a shutdown or an active-hours schedule plans no new size.
    if (/Standard_/.test(recommendation)) {
      const rowById = getRecommendationRows(page).filter({
        has: page.getByRole('cell', { name: id, exact: true }),
      });
      return { row: rowById, name };
    }
  }
  throw new Error('No resize recommendation is left to apply');
}

test.beforeEach(async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await logInAsDemo(page);
  await openRecommendations(page);
});

test('lists the recommendations with SPEC’s fields, the total, the money format and the Memo tooltip', async ({
  page,
}) => {
  await expect(page.getByRole('heading', { name: 'Recommendations', level: 1 })).toBeVisible();
  await expect(page.getByRole('columnheader')).toHaveText(wideHeaders);

  const total = page.getByRole('status').filter({ hasText: 'Annual savings on offer' });
  await expect(total).toBeVisible();
  expect((await total.locator('.total-savings-amount').textContent())!.trim()).toMatch(moneyFormat);

  const row = getRecommendationRows(page).first();
  const cells = row.getByRole('cell');
  await expect(cells.nth(0)).toHaveText(/^\d+$/);
  await expect(cells.nth(2)).toHaveText(/UTC$/);
  expect((await cells.nth(5).textContent())!.trim()).toMatch(moneyFormat);
  await expect(row.getByRole('button', { name: 'APPLY NOW', exact: true })).toBeVisible();
  await expect(row.getByRole('button', { name: 'APPLY AT MAINTENANCE WINDOW', exact: true })).toBeVisible();

  // The Memo explains the recommendation on hover.
  await cells.nth(4).locator('.has-tooltip').hover();
  const tooltip = page.getByRole('tooltip');
  await expect(tooltip).toBeVisible();
  expect((await tooltip.textContent())!.length).toBeGreaterThan(20);
});

test('switches layout at 991px and 865px', async ({ page }) => {
  await page.setViewportSize({ width: 992, height: 900 });
  await expect(page.getByRole('columnheader')).toHaveText(wideHeaders);
  await page.setViewportSize({ width: 991, height: 900 });
  await expect(page.getByRole('columnheader')).toHaveText(condensedHeaders);
  await page.setViewportSize({ width: 866, height: 900 });
  await expect(page.getByRole('columnheader')).toHaveText(condensedHeaders);
  await page.setViewportSize({ width: 865, height: 900 });
  await expect(page.getByRole('columnheader')).toHaveCount(0);
  const card = page.locator('.data-card').first();
  await expect(card.getByText('ANNUAL COST SAVINGS')).toBeVisible();
  await expect(card.getByRole('button', { name: 'APPLY NOW', exact: true })).toBeVisible();
});

test('EVIDENCE charts the last 14 days on the current size and projected on the new one', async ({
  page,
}) => {
  // A resize: waste (a disk, a plan, a database) is judged on its state and has no chart.
  const { row } = await findApplicableRow(page);
  await row.getByRole('button', { name: 'EVIDENCE' }).click();
  const chart = page.getByRole('figure', { name: /evidence for/ }).first();
  await expect(chart.locator('canvas')).toBeVisible();
  await expect(chart.getByText('Threshold')).toBeVisible();
  await expect(page.getByText(/, last 14 days$/)).toBeVisible();
});

test('APPLY AT MAINTENANCE WINDOW plans the change, which /pending shows', async ({ page }) => {
  const { row, name } = await findApplicableRow(page);
  const applyNow = row.getByRole('button', { name: 'APPLY NOW', exact: true });
  await row.getByRole('button', { name: 'APPLY AT MAINTENANCE WINDOW', exact: true }).click();
  await expect(row.getByRole('button', { name: 'APPLIED AT MAINTENANCE WINDOW' })).toBeDisabled();
  await expect(applyNow).toBeDisabled();

  await page.goto('/pending');
  await expect(page.getByRole('heading', { name: 'Pending Automation' })).toBeVisible();
  await expect(page.getByRole('columnheader')).toHaveText(['RESOURCE', 'SCHEDULED TIME', 'NEW SIZE']);
  const pendingRow = page.getByRole('row').filter({ has: page.getByRole('button', { name, exact: true }) });
  await expect(pendingRow).toBeVisible();
  await expect(pendingRow.getByRole('cell').nth(1)).toHaveText(/UTC$/);
  await expect(pendingRow.getByRole('cell').nth(2)).toHaveText(/^Standard_/);

  await pendingRow.getByRole('button', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name: `Schedule for ${name}` })).toBeVisible();
  await expect(page).toHaveURL(/\/pending\?resourceId=/);
  await expect(page.getByRole('columnheader')).toHaveText(['SCHEDULED TIME', 'NEW SIZE', 'VERSION']);
  await expect(page.getByRole('row').nth(1).getByRole('cell').nth(2)).toHaveText(/^(\d+|N\/A)$/);

  // The detail opens directly from its address too.
  await page.reload();
  await expect(page.getByRole('heading', { name: `Schedule for ${name}` })).toBeVisible();
  await page.getByRole('button', { name: '← Back to Pending Automation' }).click();
  await expect(page.getByRole('heading', { name: 'Pending Automation' })).toBeVisible();
  await expect(page).toHaveURL(/\/pending$/);
});

test('APPLY NOW starts the change at once and the automation log records it', async ({ page }) => {
  const { row, name } = await findApplicableRow(page);
  await row.getByRole('button', { name: 'APPLY NOW', exact: true }).click();
  await expect(row.getByRole('button', { name: 'APPLIED', exact: true })).toBeDisabled();
  await expect(row.getByRole('button', { name: 'APPLY AT MAINTENANCE WINDOW', exact: true })).toBeDisabled();

  await expect(async () => {
    await page.reload();
    await page.getByRole('tab', { name: 'Automation Logs' }).click();
    await expect(page.getByRole('cell', { name, exact: true }).first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 120_000, intervals: [3_000] });
});
