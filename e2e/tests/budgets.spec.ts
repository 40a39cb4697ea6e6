import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { demo, expect, logInThroughForm, test, waitForMail } from '../support/fixtures';

// Budgets and alerts against the real server: a budget small enough that the demo bill has already
// crossed it is listed with its burn-down, and (a budget is evaluated when it is saved) its alert
// reaches the top bar and the team's mailbox at once; the alert is acknowledged; the budget is edited
// and deleted. Refusals show by their field.

async function logInAsDemo(page: Page): Promise<void> {
  await page.goto('/login');
  await logInThroughForm(page, demo);
  await expect(page).toHaveURL(/\/home$/);
}

/**
 * Waits until the first cost sync has brought the bill in, reloading as a user would: the last 30
 * days, which hold a bill at any hour (this month has none in its first hours).
 */
async function openAnalysis(page: Page): Promise<void> {
  await page.goto('/analysis?period=last-30-days');
  await expect(async () => {
    await page.reload();
    await expect(
      page.getByRole('table', { name: 'Cost by service' }).locator('tbody tr').first(),
    ).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 240_000, intervals: [5_000] });
}

/** Last month as the form's month field writes it (YYYY-MM, UTC as the bill's days are). */
function lastMonth(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)).toISOString().slice(0, 7);
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

function getBudgetRow(page: Page, name: string) {
  return page.getByRole('table', { name: 'Budgets' }).getByRole('row').filter({ hasText: name });
}

test.beforeEach(async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await logInAsDemo(page);
});

test('a budget the bill has crossed is listed with its burn-down, alerts at once, and is edited and deleted', async ({
  page,
}) => {
  const name = `Small budget ${Date.now()}`;
  await openAnalysis(page);
  const budgets = page.getByRole('region', { name: 'Budgets' });
  await expect(budgets).toBeVisible();
  const since = new Date();

  await budgets.getByRole('button', { name: 'ADD BUDGET' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add budget' });
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  await dialog.getByLabel('Amount').fill('0');
  await dialog.getByRole('button', { name: 'SAVE BUDGET' }).click();
  await expect(dialog.getByText('Amount must be more than 0.')).toBeVisible();

  // The server's own refusal shows by its field: no resource group of that name in the team's estate.
  await dialog.getByLabel('Amount').fill('1');
  // A quarter that began last month: it holds a whole month's bill at any hour, so it has crossed
  // $1 even in the first hours of a month.
  await dialog.getByLabel('Period').selectOption('quarterly');
  await dialog.getByLabel('Starts in').fill(lastMonth());
  await dialog.getByLabel('Resource group').fill('no-such-group-anywhere');
  await dialog.getByRole('button', { name: 'SAVE BUDGET' }).click();
  await expect(dialog.getByText('No resource group of that name in the scope.')).toBeVisible();
  expect(await findSeriousViolations(page)).toEqual([]);
  await dialog.getByLabel('Resource group').fill('');
  await expect(dialog.getByLabel('Percent of the budget')).toHaveValue('100');
  await dialog.getByRole('button', { name: 'SAVE BUDGET' }).click();
  await expect(dialog).toBeHidden();

  const row = getBudgetRow(page, name);
  await expect(row).toBeVisible();
  await expect(row.getByText('Crossed 100% (actual)')).toBeVisible();
  await expect(row.getByRole('cell').nth(0)).toHaveText('All of the team’s tenants');
  await expect(row.getByRole('cell').nth(2)).toHaveText('$1.00');
  const burnDown = row.getByRole('img', {
    name: new RegExp(`^Burn-down of ${name}: \\$[\\d,.]+ spent of \\$1\\.00`),
  });
  await expect(burnDown).toBeVisible();
  await expect(burnDown.locator('.budget-burn-down-actual')).toHaveAttribute('d', /^M/);
  await expect(burnDown.locator('.budget-burn-down-mark.is-crossed')).toHaveCount(1);
  expect(await findSeriousViolations(page)).toEqual([]);

  // The alert is in the top bar, and in the demo user's mailbox.
  const bell = page.getByRole('button', { name: /^Alerts, \d+ unacknowledged$/ });
  await expect(bell).toBeVisible();
  const mail = await waitForMail(
    demo.email,
    new RegExp(`^Budget alert: Budget "${name}" has reached 100%`),
    since,
    60_000,
  );
  expect(mail.text).toContain(name);
  await bell.click();
  const alert = page
    .getByRole('list', { name: 'Alerts' })
    .getByRole('listitem')
    .filter({ hasText: `Budget "${name}" has reached 100%` });
  await expect(alert).toBeVisible();
  expect(await findSeriousViolations(page)).toEqual([]);
  await expect(alert.getByText(/over the \$1\.00 threshold$/)).toBeVisible();
  await alert.getByRole('button', { name: /^Acknowledge / }).click();
  await expect(alert.getByText('Acknowledged')).toBeVisible();
  await expect(alert.getByRole('button', { name: /^Acknowledge / })).toHaveCount(0);

  // Its link opens /analysis on the alert's scope: here the whole team.
  await alert.getByRole('link', { name: 'Show in Cost Analysis' }).click();
  await expect(page).toHaveURL(/\/analysis$/);
  await expect(page.getByRole('list', { name: 'Alerts' })).toHaveCount(0);

  // Raised above what has been spent, the threshold is no longer crossed.
  await row.getByRole('button', { name: `Edit ${name}` }).click();
  const editing = page.getByRole('dialog', { name: `Edit budget ${name}` });
  await expect(editing.getByLabel('Amount')).toHaveValue('1');
  await editing.getByLabel('Amount').fill('100000000');
  await editing.getByRole('button', { name: 'SAVE BUDGET' }).click();
  await expect(editing).toBeHidden();
  await expect(row.getByRole('cell').nth(2)).toHaveText('$100,000,000.00');
  await expect(row.getByText('Crossed 100% (actual)')).toHaveCount(0);

  await row.getByRole('button', { name: `Delete ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete budget' });
  await expect(confirm.getByText(name)).toBeVisible();
  await confirm.getByRole('button', { name: 'DELETE BUDGET' }).click();
  await expect(confirm).toBeHidden();
  await expect(row).toHaveCount(0);
});

test('/profile switches the alert mails off and on', async ({ page }) => {
  await page.goto('/profile');
  const budgetMails = page.getByRole('checkbox', { name: 'A budget threshold is crossed' });
  const anomalyMails = page.getByRole('checkbox', { name: 'A cost anomaly is found' });
  await expect(budgetMails).toBeChecked();
  await expect(anomalyMails).toBeChecked();
  await anomalyMails.click();
  await expect(anomalyMails).not.toBeChecked();
  await expect(anomalyMails).toBeEnabled();
  await page.reload();
  await expect(page.getByRole('checkbox', { name: 'A cost anomaly is found' })).not.toBeChecked();
  await expect(page.getByRole('checkbox', { name: 'A budget threshold is crossed' })).toBeChecked();
  await page.getByRole('checkbox', { name: 'A cost anomaly is found' }).click();
  await expect(page.getByRole('checkbox', { name: 'A cost anomaly is found' })).toBeChecked();
});
