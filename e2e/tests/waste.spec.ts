import type { Locator, Page } from '@playwright/test';
import { demo, expect, logInThroughForm, test } from '../support/fixtures';

// Waste beyond VMs against the real server: the engine finds the demo fleet's unattached disks, a
// user deletes one from /recommendations with APPLY NOW, and the automation log names the snapshot
// taken before the deletion.

function getRecommendationRows(page: Page): Locator {
  return page
    .getByRole('table')
    .filter({ has: page.getByRole('columnheader', { name: 'ANNUAL COST SAVINGS' }) })
    .getByRole('row')
    .filter({ has: page.getByRole('cell') });
}

const diskDeletionText = /^Delete the unattached disk /;

test('APPLY NOW deletes an unattached disk after a snapshot, which the automation log names', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/login');
  await logInThroughForm(page, demo);
  await expect(page).toHaveURL(/\/home$/);

  // The engine judges the fleet's disks once its inventory and prices are read.
  await page.goto('/recommendations');
  const deletions = getRecommendationRows(page).filter({
    has: page.getByRole('cell', { name: diskDeletionText }),
  });
  await expect(async () => {
    await page.reload();
    await expect(deletions.first()).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 180_000, intervals: [3_000] });

  const first = deletions
    .filter({ has: page.getByRole('button', { name: 'APPLY NOW', exact: true }) })
    .first();
  const id = (await first.getByRole('cell').nth(0).textContent())!.trim();
  const diskName = (await first.getByRole('cell').nth(1).textContent())!.trim();
  const row = getRecommendationRows(page).filter({ has: page.getByRole('cell', { name: id, exact: true }) });
  await expect(row.getByRole('cell').nth(4)).toContainText(diskName);

  await row.getByRole('button', { name: 'APPLY NOW', exact: true }).click();
  await expect(row.getByRole('button', { name: 'APPLIED', exact: true })).toBeDisabled();
  await expect(row.getByRole('button', { name: 'APPLY AT MAINTENANCE WINDOW', exact: true })).toBeDisabled();

  // The executor snapshots the disk, waits for the copy, deletes the disk and says so.
  const snapshotId = new RegExp(
    `^Deleted \\(.+\\) after snapshot /subscriptions/[^/]+/resourceGroups/[^/]+/providers/Microsoft\\.Compute/snapshots/${escapeRegExp(diskName.slice(0, 20))}.*-before-delete-\\d+$`,
  );
  await expect(async () => {
    await page.reload();
    await page.getByRole('tab', { name: 'Automation Logs' }).click();
    const entries = page
      .getByRole('row')
      .filter({ has: page.getByRole('cell', { name: diskName, exact: true }) });
    await expect(entries.filter({ has: page.getByRole('cell', { name: snapshotId }) })).toHaveCount(1, {
      timeout: 3_000,
    });
    await expect(
      entries.filter({ has: page.getByRole('cell', { name: /^Snapshot .+ taken$/ }) }),
    ).toHaveCount(1);
  }).toPass({ timeout: 120_000, intervals: [3_000] });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
