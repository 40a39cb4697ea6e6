import type { Locator, Page } from '@playwright/test';
import { demo, expect, logInThroughForm, readState, test } from '../support/fixtures';
import { expectCanvasDrawsColour, readLegendColour } from '../support/chart-pixels';
import type { EmulatorPrincipal } from '../support/emulator-banner';

// Connect Azure end to end: the demo account's emulated fleet in Cloud Resources, active hours, a
// second tenant connected from the emulator's printed credentials and removed again, Recent Activity,
// the search with its metrics charts, and the public demo chart.

async function logInAsDemo(page: Page): Promise<void> {
  await page.goto('/login');
  await logInThroughForm(page, demo);
  await expect(page).toHaveURL(/\/home$/);
}

function findSecondTenantPrincipal(): EmulatorPrincipal {
  const principals = readState().emulatorPrincipals;
  const demoTenantIds = new Set(principals.filter((p) => p.isConnectedToDemo).map((p) => p.tenantId));
  const principal = principals.find(
    (candidate) =>
      candidate.canRead &&
      !demoTenantIds.has(candidate.tenantId) &&
      candidate.principalName.startsWith('cloudtrim'),
  );
  if (!principal) throw new Error('The server printed no second emulated tenant with read rights');
  return principal;
}

function findDemoPrincipal(): EmulatorPrincipal {
  const principal = readState().emulatorPrincipals.find((candidate) => candidate.isConnectedToDemo);
  if (!principal) throw new Error('The server printed no principal connected to the demo account');
  return principal;
}

function getResourceTable(page: Page): Locator {
  return page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'HOURS START' }) });
}

function getResourceRow(page: Page, name: string): Locator {
  return getResourceTable(page)
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name, exact: true }) });
}

/** The Cloud Resources page holding the list's last entries. */
async function openLastResourcePage(page: Page): Promise<void> {
  const pager = page.getByRole('navigation', { name: 'Cloud resource pages' });
  await pager.getByRole('button', { name: /^\d+$/ }).last().click();
}

/** Waits until the demo fleet's first sync has landed, reloading as a user would. */
async function openSyncedResources(page: Page): Promise<void> {
  await page.goto('/resources');
  await expect(async () => {
    await page.reload();
    await expect(getResourceTable(page)).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
}

async function fillTenantForm(
  page: Page,
  name: string,
  principal: Pick<EmulatorPrincipal, 'tenantId' | 'applicationId' | 'secret'>,
) {
  await page.getByLabel('Name/Alias').fill(name);
  await page.getByLabel('Tenant ID').fill(principal.tenantId);
  await page.getByLabel('Application ID').fill(principal.applicationId);
  await page.getByLabel('Secret', { exact: true }).fill(principal.secret);
  await page.getByRole('button', { name: 'ADD TENANT' }).click();
}

test.describe('demo chart', () => {
  test('/sandbox draws the example of disk read and write operations per second, signed out', async ({
    page,
  }) => {
    await page.goto('/sandbox');
    const chart = page.getByRole('figure', { name: 'Example: disk read and write operations per second' });
    await expect(chart).toBeVisible();
    await expect(chart.locator('canvas')).toBeVisible();
    await expect(chart.getByText('Disk Read Operations/Sec')).toBeVisible();
    await expect(chart.getByText('Disk Write Operations/Sec')).toBeVisible();
  });
});

test.describe('Cloud Resources', () => {
  test('lists the demo fleet by tenant and resource group, 30 to a page', async ({ page }) => {
    await logInAsDemo(page);
    await openSyncedResources(page);
    const table = getResourceTable(page);
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers.map((header) => header.trim())).toEqual([
      'RESOURCE NAME',
      'TYPE',
      'SUBSCRIPTION',
      'RESOURCE GROUP',
      'LAST READ',
      'AUTOMATED',
      'HOURS START',
      'HOURS END',
      'ACTION',
    ]);
    const demoTenant = findDemoPrincipal().tenantName;
    // The first row of a page is always a divider naming the tenant and the resource group.
    await expect(table.getByRole('row').nth(1)).toHaveText(new RegExp(`^${demoTenant} › rg-`));
    await expect(table.getByRole('row').filter({ has: page.locator('select') })).toHaveCount(30);
    await expect(page.getByText(/^Showing 1 to 30 of \d+ entries • Page 1 of \d+$/)).toBeVisible();

    // Dividers appear in sorted order: each resource group once per page.
    const dividers = (await table.locator('tr:has(th[scope="rowgroup"])').allTextContents()).map((text) =>
      text.replace(/\s+/g, ' ').trim(),
    );
    expect(dividers.length).toBeGreaterThan(1);
    expect(new Set(dividers).size).toBe(dividers.length);
    expect(
      [...dividers].sort((left, right) =>
        left.localeCompare(right, 'en', { sensitivity: 'base', numeric: true }),
      ),
    ).toEqual(dividers);
  });

  test('saves a row’s edited active hours, which persist after a reload', async ({ page }) => {
    await logInAsDemo(page);
    await openSyncedResources(page);
    const table = getResourceTable(page);
    const name = (await table.getByRole('row').nth(2).getByRole('button').first().textContent())!.trim();
    const row = getResourceRow(page, name);
    await expect(page.getByRole('button', { name: /^Save / })).toHaveCount(0);

    await row.getByLabel(`Automated for ${name}`).selectOption({ label: 'True' });
    await row.getByLabel(`Hours start for ${name}`).fill('7');
    await row.getByLabel(`Hours end for ${name}`).fill('19');
    // Only the edited row offers Save; an hour outside 0-23 cannot be saved.
    await expect(page.getByRole('button', { name: /^Save / })).toHaveCount(1);
    await row.getByLabel(`Hours end for ${name}`).fill('24');
    await expect(row.getByRole('button', { name: `Save ${name}` })).toBeDisabled();
    await row.getByLabel(`Hours end for ${name}`).fill('19');
    await row.getByRole('button', { name: `Save ${name}` }).click();

    await expect(row.getByText('Values Updated')).toBeVisible();
    await expect(row.getByRole('button', { name: `Save ${name}` })).toHaveCount(0);
    await expect(row.getByText('Values Updated')).toBeHidden({ timeout: 5_000 });

    await page.reload();
    const reloadedRow = getResourceRow(page, name);
    await expect(reloadedRow.getByLabel(`Hours start for ${name}`)).toHaveValue('7');
    await expect(reloadedRow.getByLabel(`Hours end for ${name}`)).toHaveValue('19');
    await expect(reloadedRow.getByLabel(`Automated for ${name}`)).toHaveValue('1');
  });

  test('a resource name opens its activity logs, and the back button returns to the list', async ({
    page,
  }) => {
    await logInAsDemo(page);
    await openSyncedResources(page);
    const name = (await getResourceTable(page)
      .getByRole('row')
      .nth(2)
      .getByRole('button')
      .first()
      .textContent())!.trim();
    await getResourceTable(page).getByRole('button', { name, exact: true }).click();
    await expect(page.getByRole('heading', { name: `Activity Logs for ${name}` })).toBeVisible();
    await expect(
      page
        .getByRole('columnheader', { name: 'ACTIVITY DETAILS' })
        .or(page.getByText('No recent activity right now, check back later.')),
    ).toBeVisible();
    await page.getByRole('button', { name: '← Back to Cloud Resources' }).click();
    await expect(page.getByRole('heading', { name: 'Cloud Resources' })).toBeVisible();
    await expect(getResourceTable(page)).toBeVisible();
  });
});

test.describe('tenants', () => {
  test('refuses a wrong secret and a tenant already connected; renaming is not supported', async ({
    page,
  }) => {
    await logInAsDemo(page);
    await page.goto('/tenants');
    await expect(page.getByRole('heading', { name: 'Manage Your Tenants' })).toBeVisible();
    const demoPrincipal = findDemoPrincipal();
    const demoRow = page.getByRole('row').filter({ hasText: demoPrincipal.tenantId });
    await expect(demoRow.getByRole('cell', { name: 'Set', exact: true })).toBeVisible();
    await expect(demoRow.getByText('OK', { exact: true })).toBeVisible();

    await demoRow.getByRole('button', { name: /^Rename / }).click();
    await expect(page.getByText('Tenant renaming is not currently supported by the API.')).toBeVisible();

    // Every field is required.
    await page.getByRole('button', { name: 'ADD TENANT' }).click();
    await expect(page.getByText('Name/Alias is required.')).toBeVisible();
    await expect(page.getByText('Secret is required.')).toBeVisible();

    const second = findSecondTenantPrincipal();
    await fillTenantForm(page, 'Wrong secret', { ...second, secret: `${second.secret}x` });
    await expect(
      page.getByText('The tenant cannot be authenticated, please check your IDs and secret and try again.'),
    ).toBeVisible();

    await fillTenantForm(page, 'Again', demoPrincipal);
    await expect(page.getByText('This tenant already exists for your account.')).toBeVisible();
  });

  test('a second tenant connected from the emulator’s credentials brings its resources and activity, and goes after confirming its deletion', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const second = findSecondTenantPrincipal();
    const alias = `${second.tenantName} E2E`;
    await logInAsDemo(page);

    await test.step('add it on /tenants', async () => {
      await page.goto('/tenants');
      await page.getByRole('button', { name: 'Setup Guide' }).click();
      await expect(page.getByText(/az ad sp create-for-rbac --name cloudtrim --role Reader/)).toBeVisible();
      await expect(page.getByRole('link', { name: 'download create-service-principal.sh' })).toBeVisible();
      await fillTenantForm(page, alias, second);
      await expect(
        page.getByText(`Tenant "${alias}" has been successfully added and configured.`),
      ).toBeVisible({
        timeout: 20_000,
      });
      await expect(
        page.getByRole('row').filter({ hasText: second.tenantId }).getByRole('rowheader'),
      ).toHaveText(alias);
      // The form is emptied for the next tenant.
      await expect(page.getByLabel('Name/Alias')).toHaveValue('');
    });

    await test.step('its resources appear in Cloud Resources once the inventory sync has run', async () => {
      await page.goto('/resources');
      await expect(async () => {
        await page.reload();
        await openLastResourcePage(page);
        await expect(page.getByRole('row', { name: new RegExp(`^${alias} rg-`) }).first()).toBeVisible({
          timeout: 2_000,
        });
      }).toPass({ timeout: 90_000 });
    });

    await test.step('Recent Activity shows the connection and the sync', async () => {
      await page.goto('/logs');
      await expect(page.getByRole('heading', { name: 'Recent Activity' })).toBeVisible();
      for (const header of ['SERVICE NAME', 'RESOURCE', 'ACTIVITY DETAILS', 'CREATED']) {
        await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
      }
      await expect(page.getByRole('cell', { name: new RegExp(`Tenant "${alias}" added`) })).toBeVisible();
      await expect(page.getByRole('cell', { name: /Discovered \d+ resources/ }).first()).toBeVisible();
      await expect(page.getByRole('cell', { name: / UTC$/ }).first()).toBeVisible();
    });

    await test.step('deleting asks for confirmation first', async () => {
      await page.goto('/tenants');
      await page.getByRole('button', { name: `Delete ${alias}` }).click();
      const dialog = page.getByRole('dialog', { name: 'Delete tenant' });
      await expect(dialog).toContainText(alias);
      await dialog.getByRole('button', { name: 'CANCEL' }).click();
      await expect(dialog).toBeHidden();
      await expect(page.getByRole('row').filter({ hasText: second.tenantId })).toBeVisible();

      await page.getByRole('button', { name: `Delete ${alias}` }).click();
      await page
        .getByRole('dialog', { name: 'Delete tenant' })
        .getByRole('button', { name: 'DELETE TENANT' })
        .click();
      await expect(page.getByText(`Tenant "${alias}" has been deleted.`)).toBeVisible();
      await expect(page.getByRole('row').filter({ hasText: second.tenantId })).toHaveCount(0);
    });

    await test.step('its resources leave Cloud Resources', async () => {
      await page.goto('/resources');
      await openLastResourcePage(page);
      await expect(getResourceTable(page)).toBeVisible();
      await expect(page.getByRole('row', { name: new RegExp(`^${alias} rg-`) })).toHaveCount(0);
    });
  });
});

test.describe('narrow tenants', () => {
  test('below 860px each tenant is a card', async ({ page }) => {
    await page.setViewportSize({ width: 820, height: 900 });
    await logInAsDemo(page);
    await page.goto('/tenants');
    const demoPrincipal = findDemoPrincipal();
    await expect(
      page.getByRole('heading', { level: 3 }).filter({ hasText: demoPrincipal.tenantName }),
    ).toBeVisible();
    await expect(page.getByText(demoPrincipal.applicationId)).toBeVisible();
    await expect(page.getByRole('columnheader', { name: 'TENANT ID' })).toHaveCount(0);
  });
});

test.describe('search', () => {
  async function findVirtualMachineName(page: Page): Promise<string> {
    await openSyncedResources(page);
    // A production machine runs around the clock, so it always has recent metrics.
    const row = getResourceTable(page)
      .getByRole('row')
      .filter({ hasText: 'virtualMachines' })
      .filter({ hasText: 'Production' })
      .first();
    return (await row.getByRole('button').first().textContent())!.trim();
  }

  async function searchFor(page: Page, text: string): Promise<Locator> {
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Search' });
    await dialog.getByLabel('Search resources').fill(text);
    return dialog;
  }

  test('finds a virtual machine by part of its name and charts its metrics', async ({ page }) => {
    // A new tenant's first minute metrics are collected right after its first sync.
    test.setTimeout(150_000);
    await page.setViewportSize({ width: 1280, height: 900 });
    await logInAsDemo(page);
    const name = await findVirtualMachineName(page);
    const partOfName = name.slice(0, -2);

    let dialog = await searchFor(page, `zz-no-such-${partOfName}`);
    await expect(dialog.getByText(`No search results found for "zz-no-such-${partOfName}".`)).toBeVisible();
    await dialog.getByLabel('Search resources').fill('');
    await expect(dialog.getByText(/No search results found/)).toBeHidden();
    await page.keyboard.press('Escape');

    // Until that first collection lands the panel says the resource has no metrics; reload and look again.
    await expect(async () => {
      await page.reload();
      dialog = await searchFor(page, partOfName);
      for (const header of [
        'AUTOMATION',
        'RESOURCE NAME',
        'PREDICTION METHOD',
        'RESOURCE CATEGORY',
        'SUBCATEGORY',
        'LOGS',
      ]) {
        await expect(dialog.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
      }
      await dialog.getByRole('button', { name, exact: true }).click();
      const panel = dialog.getByRole('region', { name: `Metrics of ${name}` });
      await expect(panel.getByRole('figure').first()).toBeVisible({ timeout: 10_000 });
    }).toPass({ timeout: 90_000, intervals: [2_000] });

    const panel = dialog.getByRole('region', { name: `Metrics of ${name}` });
    await expect(panel.getByRole('heading', { name: 'Percentage CPU' })).toBeVisible();
    const cpuChart = panel.getByRole('figure', { name: 'Percentage CPU, last 60 minutes' });
    await expect(cpuChart.locator('canvas')).toBeVisible();
    // The line itself: its colour, from uPlot's own legend marker of the series, painted on the canvas.
    const marker = cpuChart.locator('.u-legend .u-series').nth(1).locator('.u-marker');
    await expectCanvasDrawsColour(cpuChart, await readLegendColour(marker, 'borderColor'));
    const panelHeight = await panel.evaluate((element) => element.getBoundingClientRect().height);
    expect(panelHeight).toBeLessThanOrEqual(550);
    await panel.getByRole('button', { name: 'CLOSE' }).click();
    await expect(panel).toBeHidden();
  });

  test('below 868px the results are cards with a METRICS button', async ({ page }) => {
    await page.setViewportSize({ width: 820, height: 900 });
    await logInAsDemo(page);
    const name = await findVirtualMachineName(page);
    const dialog = await searchFor(page, name);
    const card = dialog.getByRole('heading', { name, exact: true });
    await expect(card).toBeVisible();
    await expect(dialog.getByRole('columnheader')).toHaveCount(0);
    await dialog.getByRole('button', { name: 'METRICS' }).first().click();
    await expect(dialog.getByRole('region', { name: `Metrics of ${name}` })).toBeVisible();
  });
});
