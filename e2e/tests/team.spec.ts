import type { Page } from '@playwright/test';
import {
  completeAccountForm,
  createAccount,
  createEmailAddress,
  expect,
  findLink,
  logInThroughForm,
  test,
  waitForMail,
} from '../support/fixtures';

const inviteSuccess = 'Thank you, your colleague will be invited to sign up for the product.';

function findMemberRow(page: Page, email: string) {
  return page.getByRole('row').filter({ has: page.getByRole('cell', { name: email, exact: true }) });
}

async function logIn(page: Page, account: { email: string; password: string }): Promise<void> {
  await page.goto('/login');
  await logInThroughForm(page, account);
  await expect(page).toHaveURL(/\/home$/);
}

test.describe('manage team', () => {
  test('an invited colleague signs up from the mail, both see one team, and the colleague is removed', async ({
    page,
    browser,
  }) => {
    const owner = await createAccount('Olga');
    const colleagueEmail = createEmailAddress('Cole');
    await logIn(page, owner);
    await page.goto('/team');
    await expect(page.getByRole('heading', { name: 'Invite Colleagues' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Your Team' })).toBeVisible();
    for (const header of ['EMAIL', 'NAME', 'STATUS', 'ROLE', 'REMOVE FROM TEAM']) {
      await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
    }
    await expect(findMemberRow(page, owner.email).getByRole('cell').nth(1)).toHaveText('Olga Tester');

    const emailField = page.getByLabel('Colleague Email');
    await expect(emailField).toHaveAttribute('type', 'email');
    await expect(emailField).toHaveAttribute('autocomplete', 'off');
    await emailField.fill(colleagueEmail);
    const since = new Date();
    await page.getByRole('button', { name: 'INVITE' }).click();
    await expect(page.getByText(inviteSuccess)).toBeVisible();
    await expect(findMemberRow(page, colleagueEmail).getByRole('cell').nth(2)).toHaveText('Invited');

    // A second invitation to the same address is refused; editing the field clears the banner.
    await emailField.fill(colleagueEmail);
    await expect(page.getByText(inviteSuccess)).toBeHidden();
    await page.getByRole('button', { name: 'INVITE' }).click();
    const conflict = `${colleagueEmail} either already has an account of the product or has already been invited.`;
    await expect(page.getByText(conflict)).toBeVisible();
    await emailField.fill('someone-else@example.com');
    await expect(page.getByText(conflict)).toBeHidden();

    const mail = await waitForMail(colleagueEmail, /invited to join a team/, since);
    const colleagueContext = await browser.newContext();
    try {
      const colleaguePage = await colleagueContext.newPage();
      await colleaguePage.goto(findLink(mail, '/verify?'));
      await expect(colleaguePage.getByLabel('Email')).toHaveValue(colleagueEmail);
      const colleague = { email: colleagueEmail, password: 'Colleague-Password-2026' };
      await completeAccountForm(colleaguePage, { firstName: 'Cole', lastName: 'Porter', ...colleague });
      await expect(colleaguePage).toHaveURL(/\/login\?sucomplete$/);
      await logInThroughForm(colleaguePage, colleague);
      await expect(colleaguePage).toHaveURL(/\/home$/);

      await colleaguePage.goto('/team');
      await page.reload();
      for (const teamPage of [page, colleaguePage]) {
        await expect(findMemberRow(teamPage, owner.email).getByRole('cell').nth(2)).toHaveText('Active');
        const colleagueRow = findMemberRow(teamPage, colleagueEmail);
        await expect(colleagueRow.getByRole('cell').nth(1)).toHaveText('Cole Porter');
        await expect(colleagueRow.getByRole('cell').nth(2)).toHaveText('Active');
      }

      // The Owner grants roles from a menu; the colleague (a Member) sees them as words.
      await expect(findMemberRow(colleaguePage, owner.email).getByRole('cell').nth(3)).toHaveText('Owner');
      await expect(colleaguePage.getByRole('combobox')).toHaveCount(0);
      const roleMenu = page.getByRole('combobox', { name: `Role of ${colleagueEmail}` });
      await expect(roleMenu).toHaveValue('Member');
      await roleMenu.selectOption('Approver');
      // The menu follows the list, read again once the server has the new role.
      await expect(roleMenu).toHaveValue('Approver');
      await colleaguePage.reload();
      await expect(findMemberRow(colleaguePage, colleagueEmail).getByRole('cell').nth(3)).toHaveText(
        'Approver',
      );

      await findMemberRow(page, colleagueEmail)
        .getByRole('button', { name: /REMOVE/ })
        .click();
      await expect(findMemberRow(page, colleagueEmail)).toHaveCount(0);
      await expect(findMemberRow(page, owner.email)).toHaveCount(1);

      // The removed colleague keeps the account but is logged out everywhere.
      await colleaguePage.reload();
      await expect(colleaguePage).toHaveURL(/\/login\?expired$/);
      // Logging in again returns to /team, where the colleague now has a team of their own.
      await logInThroughForm(colleaguePage, colleague);
      await expect(colleaguePage).toHaveURL(/\/team$/);
      await expect(findMemberRow(colleaguePage, colleagueEmail)).toHaveCount(1);
      await expect(findMemberRow(colleaguePage, owner.email)).toHaveCount(0);
    } finally {
      await colleagueContext.close();
    }
  });

  test('a pending invitation can be withdrawn', async ({ page }) => {
    const owner = await createAccount('Wanda');
    const invitedEmail = createEmailAddress('Pending');
    await logIn(page, owner);
    await page.goto('/team');
    await page.getByLabel('Colleague Email').fill(invitedEmail);
    await page.getByRole('button', { name: 'INVITE' }).click();
    await expect(findMemberRow(page, invitedEmail)).toHaveCount(1);
    await findMemberRow(page, invitedEmail)
      .getByRole('button', { name: /REMOVE/ })
      .click();
    await expect(findMemberRow(page, invitedEmail)).toHaveCount(0);
  });

  test('a refused removal shows the server’s reason in a banner that can be dismissed', async ({ page }) => {
    const owner = await createAccount('Solo');
    await logIn(page, owner);
    await page.goto('/team');
    await findMemberRow(page, owner.email)
      .getByRole('button', { name: /REMOVE/ })
      .click();
    const banner = page.getByRole('alert').filter({ hasText: 'The last member of a team cannot be removed' });
    await expect(banner).toBeVisible();
    await banner.getByRole('button', { name: 'Close alert' }).click();
    await expect(banner).toBeHidden();
    await expect(findMemberRow(page, owner.email)).toHaveCount(1);
  });
});
