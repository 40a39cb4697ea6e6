import { readFile } from 'node:fs/promises';
import type { Locator, Page } from '@playwright/test';
import { focusColumns } from '@cloudtrim/contracts/costs';
import { demo, expect, logInThroughForm, test } from '../support/fixtures';
import { expectCanvasDrawsColour, readLegendColour } from '../support/chart-pixels';

// /analysis against the real server: the demo account's bill, read from the emulator's Cost
// Management into PostgreSQL after the first sync, shows as summary cards, a chart, a table whose rows
// add up to its total, the top 10 resources; grouping by resource group changes the table; narrow
// screens get cards; the FOCUS download is a CSV with FOCUS 1.0's columns.

const moneyFormat = /^-?\$\d{1,3}(,\d{3})*\.\d{2}$/;

function readMoney(text: string | null): number {
  const trimmed = (text ?? '').trim();
  expect(trimmed).toMatch(moneyFormat);
  return Number(trimmed.replace(/[$,]/g, ''));
}

function getCostTable(page: Page, name: string): Locator {
  return page.getByRole('table', { name });
}

async function logInAsDemo(page: Page): Promise<void> {
  await page.goto('/login');
  await logInThroughForm(page, demo);
  await expect(page).toHaveURL(/\/home$/);
}

/**
 * Waits until the first cost sync has brought the bill in, reloading as a user would, then opens
 * `path`. The wait reads the last 30 days, which hold a bill at any hour: in the first hours of a
 * month this month has none yet (Cost Management has not billed its first day), honestly.
 */
async function openAnalysis(page: Page, path = '/analysis'): Promise<void> {
  await page.goto('/analysis?period=last-30-days');
  await expect(async () => {
    await page.reload();
    await expect(getCostTable(page, 'Cost by service').locator('tbody tr').first()).toBeVisible({
      timeout: 5_000,
    });
  }).toPass({ timeout: 240_000, intervals: [5_000] });
  if (path !== '/analysis?period=last-30-days') await page.goto(path);
}

/** Every row's cost on every page of a grouped table, and the TOTAL row's. */
async function readTableCosts(
  page: Page,
  name: string,
): Promise<{ groups: string[]; costs: number[]; total: number }> {
  const table = getCostTable(page, name);
  const section = page.getByRole('region', { name });
  const groups: string[] = [];
  const costs: number[] = [];
  for (;;) {
    for (const row of await table.locator('tbody tr').all()) {
      groups.push((await row.locator('th').textContent())!.trim());
      costs.push(readMoney(await row.locator('td').first().textContent()));
    }
    const next = section.getByRole('button', { name: 'Next' });
    if (await next.isDisabled()) break;
    await next.click();
  }
  const total = readMoney(await table.locator('tfoot tr td').first().textContent());
  return { groups, costs, total };
}

test.beforeEach(async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await logInAsDemo(page);
});

test('the side menu opens the bill: summary cards, the chart and the top 10 resources', async ({ page }) => {
  await page.getByRole('link', { name: 'Cost Analysis & Budget' }).first().click();
  await expect(page).toHaveURL(/\/analysis$/);
  await expect(page.getByRole('heading', { name: 'Cost Analysis & Budget', level: 1 })).toBeVisible();
  await openAnalysis(page);

  const cards = page.getByRole('region', { name: 'Cost summary' });
  for (const label of ['Month to date', 'Forecast month end', 'Realized savings this year']) {
    const card = cards.locator('.cost-summary-card').filter({ hasText: label });
    // The cards stand while their amounts load: wait for the amount itself.
    await expect(card.locator('.cost-summary-amount')).toHaveText(moneyFormat);
  }
  // Nothing yet in the first hours of a month, before Cost Management bills its first day.
  expect(
    readMoney(
      await cards.locator('.cost-summary-card').first().locator('.cost-summary-amount').textContent(),
    ),
  ).toBeGreaterThanOrEqual(0);
  // (followed, while the bill is still being read, by a line saying the figures are partial)
  await expect(cards.getByText(/the same days last month/)).toBeVisible();

  // The chart and the top resources of a period that holds a bill at any hour.
  await page.getByLabel('Period').selectOption('last-30-days');
  const chart = page.getByRole('figure', { name: /^Daily cost by service, / });
  await expect(chart.locator('canvas')).toBeVisible();
  await expect(chart.getByRole('listitem').first()).toBeVisible();
  // The bars themselves: the first service's colour, from its legend swatch, painted on the canvas.
  const firstSwatch = chart.getByRole('listitem').first().locator('.bar-chart-swatch');
  await expectCanvasDrawsColour(chart, await readLegendColour(firstSwatch, 'backgroundColor'));

  const topRows = getCostTable(page, 'Top 10 resources by cost').locator('tbody tr');
  await expect(topRows.first()).toBeVisible();
  expect(await topRows.count()).toBeLessThanOrEqual(10);
  const firstResource = topRows.first().locator('th span');
  expect(await firstResource.getAttribute('title')).toMatch(/^\/subscriptions\/.+\/providers\/.+\//i);
  expect(
    (await firstResource.getAttribute('title'))!.endsWith(`/${(await firstResource.textContent())!.trim()}`),
  ).toBe(true);
});

test('this month’s chart runs to the month’s end with the forecast after the bars, and the budgets under it', async ({
  page,
}) => {
  await openAnalysis(page);
  const chart = page.getByRole('figure', { name: /^Daily cost by service, / });
  await expect(
    chart
      .getByRole('listitem')
      .filter({ hasText: 'Forecast to month end (shaded: the range it falls in 8 times out of 10)' }),
  ).toBeVisible();
  // The section order: the chart, then the budgets, then the table.
  const headings = await page.getByRole('heading', { level: 2 }).allTextContents();
  expect(headings.slice(0, 3)).toEqual(['Daily cost by service', 'Budgets', 'Cost by service']);
  // The demo tenants' own budgets in Azure are listed beside the team's, read-only.
  const azureRow = page
    .getByRole('table', { name: 'Budgets' })
    .getByRole('row')
    .filter({ hasText: 'In Azure' });
  await expect(azureRow.first()).toBeVisible();
  await expect(azureRow.first().getByText('Read-only')).toBeVisible();
  await expect(azureRow.first().getByRole('button')).toHaveCount(0);

  // A period the forecast does not answer has no band.
  await page.getByLabel('Period').selectOption('last-30-days');
  await expect(
    page.getByRole('figure', { name: /^Daily cost by service, / }).locator('canvas'),
  ).toBeVisible();
  await expect(page.getByText(/^Forecast to month end/)).toHaveCount(0);
});

test('the table’s rows add up to its total, and grouping by resource group changes it', async ({ page }) => {
  await openAnalysis(page, '/analysis?period=last-30-days');
  const byService = await readTableCosts(page, 'Cost by service');
  expect(byService.total).toBeGreaterThan(0);
  const sum = byService.costs.reduce((total, cost) => total + cost, 0);
  // Each row is rounded to the cent, the total once: they may differ by half a cent a row.
  expect(Math.abs(sum - byService.total)).toBeLessThanOrEqual(0.005 * byService.costs.length + 0.001);

  await page.getByLabel('Group by').selectOption('resourceGroup');
  await expect(page).toHaveURL(/\/analysis\?period=last-30-days&groupBy=resourceGroup$/);
  await expect(page.getByRole('columnheader', { name: 'RESOURCE GROUP' })).toBeVisible();
  await expect(getCostTable(page, 'Cost by resource group').locator('tbody tr').first()).toBeVisible();
  const byResourceGroup = await readTableCosts(page, 'Cost by resource group');
  expect(byResourceGroup.groups).not.toEqual(byService.groups);
  expect(Math.abs(byResourceGroup.total - byService.total)).toBeLessThanOrEqual(0.01);
  await expect(
    page.getByRole('figure', { name: /^Daily cost by resource group, / }).locator('canvas'),
  ).toBeVisible();
});

test('narrow screens show the groups as cards, with a TOTAL card', async ({ page }) => {
  await openAnalysis(page, '/analysis?period=last-30-days');
  await page.setViewportSize({ width: 866, height: 900 });
  await expect(getCostTable(page, 'Cost by service')).toBeVisible();
  await page.setViewportSize({ width: 865, height: 900 });
  await expect(getCostTable(page, 'Cost by service')).toHaveCount(0);
  const cards = page.getByRole('list', { name: 'Cost by service' }).getByRole('listitem');
  await expect(cards.first().getByText('PREVIOUS PERIOD')).toBeVisible();
  await expect(cards.last().getByRole('heading', { name: 'TOTAL' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Budgets' })).toHaveCount(0);
  const budgetCards = page.getByRole('list', { name: 'Budgets' }).getByRole('listitem');
  await expect(budgetCards.first().getByText('SPENT', { exact: true })).toBeVisible();
  await expect(
    page.getByRole('figure', { name: /^Daily cost by service, / }).locator('canvas'),
  ).toBeVisible();
});

test('DOWNLOAD FOCUS CSV saves the period’s bill with FOCUS 1.0’s columns', async ({ page }) => {
  await openAnalysis(page, '/analysis?period=last-30-days');
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'DOWNLOAD FOCUS CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^cloudtrim-focus-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const lines = (await readFile((await download.path())!, 'utf8')).split(/\r?\n/).filter(Boolean);
  expect(lines[0]).toBe(focusColumns.join(','));
  expect(lines.length).toBeGreaterThan(1);
});
