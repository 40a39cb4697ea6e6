import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { demo, expect, logInThroughForm, readState, test } from '../support/fixtures';

// Security against the real server and the demo's emulator: an SSH port open to the internet is
// found on /security, muted with a reason, fixed in Azure (its NSG rule deleted through Resource
// Manager), and resolved by the next scan.

function callAzure(method: string, url: string, ca: string, headers: Record<string, string>, body?: string) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    const outgoing = request(url, { method, ca, headers }, (response) => {
      let text = '';
      response.on('data', (chunk: Buffer) => (text += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    outgoing.on('error', reject);
    if (body) outgoing.write(body);
    outgoing.end();
  });
}

async function deleteRule(resourceGroupPath: string, groupName: string, ruleName: string, tenantId: string) {
  const state = readState();
  if (!state.emulator) throw new Error('The server printed no emulator address');
  const ca = readFileSync(state.emulator.caPath, 'utf8');
  const principal = state.emulatorPrincipals.find(
    (candidate) => candidate.tenantId === tenantId && candidate.isConnectedToDemo,
  );
  if (!principal) throw new Error('The demo has a principal in the tenant');
  const token = await callAzure(
    'POST',
    `${state.emulator.url}/${tenantId}/oauth2/v2.0/token`,
    ca,
    { 'content-type': 'application/x-www-form-urlencoded' },
    new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: principal.applicationId,
      client_secret: principal.secret,
      scope: 'https://management.azure.com/.default',
    }).toString(),
  );
  const accessToken = (JSON.parse(token.text) as { access_token: string }).access_token;
  const deleted = await callAzure(
    'DELETE',
    `${state.emulator.url}${resourceGroupPath}/providers/Microsoft.Network/networkSecurityGroups/${groupName}/securityRules/${ruleName}?api-version=2024-05-01`,
    ca,
    { authorization: `Bearer ${accessToken}` },
  );
  expect(deleted.status).toBe(200);
}

test('an open SSH port is found, muted with a reason, fixed in Azure and resolved by the next scan', async ({
  page,
}) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/login');
  await logInThroughForm(page, demo);
  await page.getByRole('link', { name: 'Security' }).first().click();
  await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();

  // The demo's sync scans; SCAN NOW makes sure of it.
  await page.getByRole('button', { name: 'SCAN NOW' }).click();
  await page.getByLabel('Check').selectOption({ label: 'SSH (TCP 22) is open to the internet' });
  const finding = page.getByRole('button', { name: 'SSH (TCP 22) is open to the internet' }).first();
  await expect(async () => {
    await page.getByLabel('Check').selectOption({ label: 'SSH (TCP 22) is open to the internet' });
    await expect(finding).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 120_000, intervals: [5_000] });

  await finding.click();
  const dialog = page.getByRole('dialog');
  const evidence =
    (await dialog
      .getByRole('definition')
      .filter({ hasText: /allowed by/ })
      .textContent()) ?? '';
  const [, ruleName = '', groupName = ''] =
    /rule '([^']+)' \(priority \d+\) of NSG '([^']+)'/.exec(evidence) ?? [];
  const resourceId = (await dialog.locator('code').first().textContent()) ?? '';
  const resourceGroupPath = /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+/i.exec(resourceId)?.[0] ?? '';
  expect(ruleName).not.toBe('');

  await dialog.getByLabel('Reason').fill('Jump host kept open until the VPN is in place');
  await dialog.getByRole('button', { name: 'MUTE' }).click();
  await expect(dialog.getByText(/^Muted until .* by demo@cloudtrim\.dev: Jump host kept open/)).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();

  // The finding's tenant is the one whose principal Resource Manager lets in.
  let isDeleted = false;
  for (const principal of readState().emulatorPrincipals.filter((candidate) => candidate.isConnectedToDemo)) {
    try {
      await deleteRule(resourceGroupPath, groupName, ruleName, principal.tenantId);
      isDeleted = true;
      break;
    } catch {
      // Another tenant's subscription: its token is refused.
    }
  }
  expect(isDeleted).toBe(true);

  // The next scan may be asked for a minute after the last.
  await page.getByLabel('Status').selectOption({ label: 'Resolved' });
  const resolved = page
    .getByRole('row')
    .filter({ hasText: resourceId.split('/').pop()! })
    .filter({ hasText: 'SSH' });
  await expect(async () => {
    await page.getByRole('button', { name: 'SCAN NOW' }).click();
    await expect(resolved).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 150_000, intervals: [10_000] });
});
