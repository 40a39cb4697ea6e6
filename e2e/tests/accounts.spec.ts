import type { Page } from '@playwright/test';
import {
  completeAccountForm,
  createAccount,
  createEmailAddress,
  expect,
  expireSignupLinks,
  findLink,
  logInThroughForm,
  test,
  waitForMail,
} from '../support/fixtures';

const newPassword = 'Fresh-Password-2026';

// Ticks the real ALTCHA box and waits for its proof of work to be accepted.
async function solveCaptcha(page: Page): Promise<void> {
  await page.getByRole('checkbox', { name: "I'm not a robot" }).click();
  await expect(page.getByText('Verified', { exact: true })).toBeVisible({ timeout: 30_000 });
}

// The value beside a label of the read-only profile table.
function readProfileDetail(page: Page, label: string) {
  return page
    .getByRole('table', { name: 'Profile details' })
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name: label, exact: true }) })
    .getByRole('cell');
}

async function logIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/login');
  await logInThroughForm(page, { email, password });
  await expect(page).toHaveURL(/\/home$/);
}

test.describe('signing up', () => {
  test('asks for the captcha, mails a link, completes the account on /verify, then logs in', async ({
    page,
  }) => {
    const email = createEmailAddress('Sage');
    await page.goto('/signup');
    await expect(page.getByText(/Terms of Service and Privacy Policy/)).toBeVisible();
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'SIGN UP' }).click();
    await expect(page.getByText('Please check this box before you submit the form.')).toBeVisible();

    await solveCaptcha(page);
    await expect(page.getByText('Please check this box before you submit the form.')).toBeHidden();
    const since = new Date();
    await page.getByRole('button', { name: 'SIGN UP' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expect(page.getByText(/confirmation email will arrive/)).toBeVisible();

    const mail = await waitForMail(email, /Confirm your email address/, since);
    const link = findLink(mail, '/verify?');
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Complete Your Account' })).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);

    // The live checklist and the mismatch message of SPEC §5.
    const createButton = page.getByRole('button', { name: 'CREATE ACCOUNT' });
    const rules = page.getByRole('list', { name: 'Password rules' });
    await page.getByLabel('Password', { exact: true }).fill('short');
    await expect(rules.getByText('Not met: Between 10 and 36 characters')).toBeVisible();
    await expect(createButton).toBeDisabled();
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await expect(rules.getByText('Met: Between 10 and 36 characters')).toBeVisible();
    await expect(rules.getByText(/Met: At least 3 of/)).toBeVisible();
    await page.getByLabel('Confirm Password', { exact: true }).fill('Fresh-Password-2025');
    await expect(page.getByText('Passwords do not match.')).toBeVisible();
    await expect(createButton).toBeDisabled();

    await page.getByLabel('Country').selectOption({ label: 'Canada' });
    await page.getByLabel('State').selectOption({ label: 'Ontario' });
    await page.getByLabel('Company', { exact: true }).fill('Maple Compute');
    await page.getByLabel('City').fill('Toronto');
    await page.getByLabel('Company Size').selectOption('11-25');
    await page.getByLabel('Annual Revenue').selectOption('$1,000,000 to $4,999,999');
    await page.getByLabel('Industry').selectOption({
      label: 'Computing Infrastructure Providers, Data Processing, Web Hosting, and Related Services',
    });
    await completeAccountForm(page, { firstName: 'Sage', lastName: 'Maple', password: newPassword });

    await expect(page).toHaveURL(/\/login\?sucomplete$/);
    await expect(page.getByText('Your account has been created, please login to continue.')).toBeVisible();
    await logInThroughForm(page, { email, password: newPassword });
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByText('Hi, Sage')).toBeVisible();

    await page.goto('/profile');
    const expectedDetails: Array<[string, string]> = [
      ['First Name', 'Sage'],
      ['Last Name', 'Maple'],
      ['E-mail', email],
      ['City', 'Toronto'],
      ['State', 'ON'],
      ['Country', 'Canada'],
      ['CompanySize', '11-25'],
      ['Annual Revenue', '$1,000,000 to $4,999,999'],
      ['Industry', 'Computing Infrastructure Providers, Data Processing, Web Hosting, and Related Services'],
    ];
    for (const [label, value] of expectedDetails) {
      await expect(readProfileDetail(page, label)).toHaveText(value);
    }
  });

  test('asking again within five minutes is refused; an expired link mails a new one that works', async ({
    page,
  }) => {
    const email = createEmailAddress('Tilda');
    for (const attempt of [1, 2]) {
      await page.goto('/signup');
      await page.getByLabel('Email').fill(email);
      await solveCaptcha(page);
      await page.getByRole('button', { name: 'SIGN UP' }).click();
      if (attempt === 1) await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    }
    await expect(page.getByRole('alert')).toHaveText(
      "We sent a confirmation email to that address a few minutes ago. If you don't receive an email in the next five minutes, please try again.",
    );

    const firstMail = await waitForMail(email, /Confirm your email address/, new Date(0));
    await expireSignupLinks(email);
    const since = new Date();
    await page.goto(findLink(firstMail, '/verify?'));
    await expect(
      page.getByText('This email verification link has expired. A new email has been sent...'),
    ).toBeVisible();

    const secondMail = await waitForMail(email, /Confirm your email address/, since);
    await page.goto(findLink(secondMail, '/verify?'));
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await completeAccountForm(page, { firstName: 'Tilda', lastName: 'Swan', password: newPassword });
    await expect(page).toHaveURL(/\/login\?sucomplete$/);

    // A used link is spent.
    await page.goto(findLink(secondMail, '/verify?'));
    await expect(page.getByText('There was an error with your verification email.')).toBeVisible();
  });

  test('a used, unknown or missing verify link says so and leads back to sign-up', async ({ page }) => {
    await page.goto('/verify');
    await expect(page.getByRole('heading', { name: 'Nothing to See Here.' })).toBeVisible();

    await page.goto('/verify?not-a-real-link-token');
    await expect(page.getByText('There was an error with your verification email.')).toBeVisible();
    await page.getByRole('link', { name: /Sign Up/ }).click();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('an address that has an account is told so, with links to log in and recover', async ({ page }) => {
    const account = await createAccount('Ines');
    await page.goto('/signup');
    await page.getByLabel('Email').fill(account.email);
    await solveCaptcha(page);
    await page.getByRole('button', { name: 'SIGN UP' }).click();
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('That email is already in use.');
    await expect(alert.getByRole('link', { name: 'Log In' })).toBeVisible();
    await alert.getByRole('link', { name: /recover/ }).click();
    await expect(page).toHaveURL(/\/recover$/);
  });
});

test.describe('recovering a password', () => {
  test('mails a reset link whose form sets a new password that logs in', async ({ page }) => {
    const account = await createAccount('Remy');
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    // /login has an Email field too: fill the one of /recover once its route has rendered.
    await expect(page.getByRole('heading', { name: 'Recover Password' })).toBeVisible();
    await page.getByLabel('Email').fill(account.email);
    const since = new Date();
    await page.getByRole('button', { name: 'SEND RESET LINK' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
    await expect(page.getByText(/associated with an account/)).toBeVisible();

    const mail = await waitForMail(account.email, /Reset your Cloudtrim password/, since);
    const link = findLink(mail, '/ResetPassword?');
    await page.goto(link);
    const resetButton = page.getByRole('button', { name: 'RESET PASSWORD' });
    await expect(resetButton).toBeDisabled();
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(`${newPassword}!`);
    await expect(page.getByText('Passwords do not match.')).toBeVisible();
    await page.getByLabel('Confirm New Password').fill(newPassword);
    await resetButton.click();

    await expect(page).toHaveURL(/\/login\?pucomplete$/);
    await expect(page.getByText('Your password has been updated, please login to continue.')).toBeVisible();
    await logInThroughForm(page, { email: account.email, password: account.password });
    await expect(
      page.getByText(
        'The email address and password you entered did not match our records. Please try again.',
      ),
    ).toBeVisible();
    await logInThroughForm(page, { email: account.email, password: newPassword });
    await expect(page).toHaveURL(/\/home$/);

    // The link works once.
    await page.evaluate(() => localStorage.clear());
    await page.goto(link);
    await expect(page.getByText('This password reset link has expired or is invalid.')).toBeVisible();
    await page.getByRole('link', { name: /new password reset link/ }).click();
    await expect(page).toHaveURL(/\/recover$/);
  });

  test('a reset page without its query has nothing to show', async ({ page }) => {
    await page.goto('/ResetPassword');
    await expect(page.getByRole('heading', { name: 'Nothing to See Here.' })).toBeVisible();
  });

  test('an address without an account gets the same thank-you', async ({ page }) => {
    await page.goto('/recover');
    await page.getByLabel('Email').fill(createEmailAddress('Nobody'));
    await page.getByRole('button', { name: 'SEND RESET LINK' }).click();
    await expect(page.getByRole('heading', { name: 'Thank you!' })).toBeVisible();
  });
});

test.describe('profile', () => {
  test('edits the profile; the greeting follows the new first name', async ({ page }) => {
    const account = await createAccount('Edna');
    await logIn(page, account.email, account.password);
    await page.goto('/profile');
    await expect(readProfileDetail(page, 'First Name')).toHaveText('Edna');

    await page.getByRole('button', { name: 'Edit Profile' }).click();
    await page.getByLabel('First Name').fill(' ');
    await page.getByRole('button', { name: 'SAVE PROFILE' }).click();
    await expect(page.getByText('First name is required.')).toBeVisible();

    await page.getByLabel('First Name').fill('Edwina');
    await page.getByLabel('Country').selectOption({ label: 'United States of America' });
    await page.getByLabel('State').selectOption({ label: 'Texas' });
    await page.getByLabel('Zip Code').fill('73301');
    await page.getByRole('button', { name: 'SAVE PROFILE' }).click();

    await expect(page.getByText('Your profile has been updated.')).toBeVisible();
    await expect(readProfileDetail(page, 'First Name')).toHaveText('Edwina');
    await expect(readProfileDetail(page, 'State')).toHaveText('TX');
    await expect(readProfileDetail(page, 'Zip Code')).toHaveText('73301');
    await expect(page.getByText('Hi, Edwina')).toBeVisible();
    await page.reload();
    await expect(readProfileDetail(page, 'First Name')).toHaveText('Edwina');
  });

  test('a wrong current password is refused and the user stays signed in', async ({ page }) => {
    const account = await createAccount('Wren');
    await logIn(page, account.email, account.password);
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Change Password', exact: true }).click();
    await page.getByLabel('Current Password').fill('Not-The-Password-1');
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(newPassword);
    await page.getByRole('button', { name: 'UPDATE PASSWORD' }).click();
    await expect(
      page.getByText('There was an error submitting your form. Please try again later.'),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/profile$/);
  });

  test('a change of password sent from an ended session logs out to /login?expired', async ({ page }) => {
    const account = await createAccount('Ezra');
    await logIn(page, account.email, account.password);
    await page.goto('/profile?changePassword=true');
    await page.getByLabel('Current Password').fill(account.password);
    await page.getByLabel('New Password', { exact: true }).fill(newPassword);
    await page.getByLabel('Confirm New Password').fill(newPassword);
    const token = await page.evaluate(() => localStorage.getItem('token'));
    const logOut = await page.request.delete('/api/v1/token', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logOut.ok()).toBe(true);

    await page.getByRole('button', { name: 'UPDATE PASSWORD' }).click();
    await expect(page).toHaveURL(/\/login\?expired$/);
    await logInThroughForm(page, account);
    await expect(page).toHaveURL(/\/profile/);
  });

  test('changing the password with "Log out of all devices" ends the other browser’s session', async ({
    browser,
  }) => {
    const account = await createAccount('Cass');
    const first = await browser.newContext();
    const second = await browser.newContext();
    try {
      const firstPage = await first.newPage();
      const secondPage = await second.newPage();
      await logIn(firstPage, account.email, account.password);
      await logIn(secondPage, account.email, account.password);

      // The user menu's Change Password opens the form by itself.
      await firstPage.getByText('Hi, Cass').click();
      await firstPage
        .getByRole('link', { name: 'Change Password' })
        .or(firstPage.getByRole('menuitem', { name: 'Change Password' }))
        .first()
        .click();
      await expect(firstPage).toHaveURL(/\/profile\?changePassword=true$/);
      const updateButton = firstPage.getByRole('button', { name: 'UPDATE PASSWORD' });
      await firstPage.getByLabel('Current Password').fill(account.password);
      await firstPage.getByLabel('New Password', { exact: true }).fill(newPassword);
      await expect(updateButton).toBeDisabled();
      await firstPage.getByLabel('Confirm New Password').fill(newPassword);
      await firstPage.getByLabel('Log out of all devices').check();
      await updateButton.click();

      await expect(firstPage).toHaveURL(/\/login\?pucomplete$/);
      await expect(
        firstPage.getByText('Your password has been updated, please login to continue.'),
      ).toBeVisible();
      expect(await firstPage.evaluate(() => localStorage.getItem('token'))).toBeNull();

      await secondPage.goto('/team');
      await expect(secondPage).toHaveURL(/\/login\?expired$/);

      await logInThroughForm(firstPage, { email: account.email, password: newPassword });
      await expect(firstPage).toHaveURL(/\/home$/);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
