import type { Locator, Page } from '@playwright/test';
import { demo, expect, logInThroughForm, test } from '../support/fixtures';

// The automation view (the search's results) against the real server: each resource's automation
// modal (SPEC §4, §5) and its LOGS modal with the Recommendations and Automation Logs tabs.

async function logInAsDemo(page: Page): Promise<void> {
  await page.goto('/login');
  await logInThroughForm(page, demo);
  await expect(page).toHaveURL(/\/home$/);
}

async function searchFor(page: Page, text: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Search' });
  await dialog.getByLabel('Search resources').fill(text);
  return dialog;
}

function getRecommendationRows(page: Page, scope: Page | Locator = page): Locator {
  return scope
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'ANNUAL COST SAVINGS' }) })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
}

/** A resource the engine has recommended something for, once it has analysed the demo fleet. */
async function findRecommendedResourceName(page: Page): Promise<string> {
  await page.goto('/recommendations');
  await expect(async () => {
    await page.reload();
    await expect(getRecommendationRows(page).first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 150_000, intervals: [3_000] });
  return (await getRecommendationRows(page).last().getByRole('cell').nth(1).textContent())!.trim();
}

function getResultRow(page: Page, dialog: Locator, name: string): Locator {
  return dialog.getByRole('row').filter({ has: page.getByRole('button', { name, exact: true }) });
}

test.beforeEach(async ({ page }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await logInAsDemo(page);
});

test('the automation modal saves the state and window, closes after about 2.5 s, and Cancel restores', async ({
  page,
}) => {
  const name = await findRecommendedResourceName(page);
  const search = await searchFor(page, name);
  const row = getResultRow(page, search, name);
  const automationButton = row.getByRole('button', { name: /^Automation: / });
  await expect(automationButton).toBeVisible();
  const originalState = (await automationButton.textContent())!.trim();

  // Cancel puts back what was there.
  await automationButton.click();
  let modal = page.getByRole('dialog', { name: `Automation for ${name}` });
  const originalWindow = await modal.getByLabel('Maintenance window').inputValue();
  await modal.getByLabel('No Change').check();
  await modal.getByLabel('Maintenance window').selectOption('');
  await expect(modal.getByRole('button', { name: 'Update' })).toBeDisabled();
  await modal.getByRole('button', { name: 'Cancel' }).click();
  await expect(modal).toBeHidden();
  await automationButton.click();
  modal = page.getByRole('dialog', { name: `Automation for ${name}` });
  await expect(modal.getByLabel('Maintenance window')).toHaveValue(originalWindow);
  await expect(modal.getByRole('radio', { checked: true })).toHaveCount(1);

  // Recommend Only at 02:00 - 03:00 UTC, then back to what it was.
  await modal.getByLabel('Recommend Only').check();
  await modal.getByLabel('Maintenance window').selectOption({ label: '02:00 - 03:00 UTC' });
  await modal.getByRole('button', { name: 'Update' }).click();
  await expect(modal.getByText('Automation settings have been updated')).toBeVisible();
  const shownAt = Date.now();
  await expect(modal).toBeHidden({ timeout: 5_000 });
  // It stays up to be read (two seconds), less what a loaded machine takes to see it appear.
  expect(Date.now() - shownAt).toBeGreaterThan(1_000);
  await expect(automationButton).toHaveText('Recommend');

  await automationButton.click();
  modal = page.getByRole('dialog', { name: `Automation for ${name}` });
  await expect(modal.getByLabel('Maintenance window')).toHaveValue('2');
  await expect(modal.getByLabel('Recommend Only')).toBeChecked();
  const originalOption = { Recommend: 'Recommend Only', Automated: 'Automate', 'No Change': 'No Change' }[
    originalState
  ];
  await modal.getByLabel(originalOption ?? 'Recommend Only').check();
  if (originalWindow !== '') await modal.getByLabel('Maintenance window').selectOption(originalWindow);
  await modal.getByRole('button', { name: 'Update' }).click();
  await expect(modal).toBeHidden({ timeout: 5_000 });
  await expect(automationButton).toHaveText(originalState);
});

test('LOGS opens the resource’s recommendations and automation logs in two tabs', async ({ page }) => {
  const name = await findRecommendedResourceName(page);
  const search = await searchFor(page, name);
  await getResultRow(page, search, name)
    .getByRole('button', { name: `LOGS for ${name}` })
    .click();

  const logs = page.getByRole('dialog', { name: `Logs for ${name}` });
  await expect(logs.getByRole('tab', { name: 'Recommendations' })).toHaveAttribute('aria-selected', 'true');
  const recommendationRow = getRecommendationRows(page, logs).first();
  await expect(recommendationRow.getByRole('cell').nth(1)).toHaveText(name);
  await expect(recommendationRow.getByRole('cell').nth(5)).toHaveText(/^\$\d{1,3}(,\d{3})*\.\d{2}$/);
  await expect(recommendationRow.getByRole('button', { name: 'APPLY NOW', exact: true })).toBeVisible();

  await logs.getByRole('tab', { name: 'Automation Logs' }).click();
  const panel = logs.getByRole('tabpanel');
  await expect(
    panel
      .getByText('No automation logs right now, check back later.')
      .or(panel.getByRole('columnheader', { name: 'ACTION' })),
  ).toBeVisible();
});
