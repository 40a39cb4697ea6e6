import { createAccount, demo, expect, logInThroughForm, test } from '../support/fixtures';

test.describe('public sign-in area', () => {
  test('the start card carries the tagline and leads to log in and sign up', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText('Unify. Automate. Optimize.')).toBeVisible();
    await page.getByRole('link', { name: 'GET STARTED' }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await page.goto('/');
    await page.getByRole('link', { name: 'LOG IN' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });

  const headers: Array<[string, string]> = [
    ['/login', 'Enter your email and password to login.'],
    ['/login?sucomplete', 'Your account has been created, please login to continue.'],
    ['/login?expired', 'Your session has expired, please login to continue.'],
    ['/login?pucomplete', 'Your password has been updated, please login to continue.'],
  ];
  for (const [path, header] of headers) {
    test(`${path} says '${header}'`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByText(header)).toBeVisible();
    });
  }

  test('the password can be shown and hidden; the links lead to recover and sign up', async ({ page }) => {
    await page.goto('/login');
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('Secret-Value-1');
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('button', { name: 'Show' }).click();
    await expect(password).toHaveAttribute('type', 'text');
    await page.getByRole('button', { name: 'Hide' }).click();
    await expect(password).toHaveAttribute('type', 'password');
    await page.getByRole('link', { name: 'Forgot Password?' }).click();
    await expect(page).toHaveURL(/\/recover$/);
    await page.goto('/login');
    await page.getByRole('link', { name: 'Sign Up' }).click();
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('a wrong password shows SPEC’s error and stays on /login', async ({ page }) => {
    await page.goto('/login');
    await logInThroughForm(page, { email: demo.email, password: 'Not-The-Password-1' });
    await expect(
      page.getByText(
        'The email address and password you entered did not match our records. Please try again.',
      ),
    ).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);
  });

  test('an unknown path says the url is not valid, with a link home', async ({ page }) => {
    await page.goto('/no/such/page');
    await expect(page.getByText('This url is not valid.')).toBeVisible();
    await page.getByRole('link', { name: /home/i }).click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe('logging in and out', () => {
  test('the demo account lands on /home greeted by name', async ({ page }) => {
    await page.goto('/login');
    await logInThroughForm(page, demo);
    await expect(page).toHaveURL(/\/home$/);
    await expect(page.getByText('Hi, Demo')).toBeVisible();
  });

  test('a signed-in route asked for while signed out is reached after logging in', async ({ page }) => {
    const account = await createAccount('Rita');
    await page.goto('/team');
    await expect(page).toHaveURL(/\/login$/);
    await logInThroughForm(page, account);
    await expect(page).toHaveURL(/\/team$/);
    await expect(page.getByText('Hi, Rita')).toBeVisible();
  });

  test('a visitor with a valid token is sent from the sign-in area to /home', async ({ page }) => {
    const account = await createAccount('Vera');
    await page.goto('/login');
    await logInThroughForm(page, account);
    await expect(page).toHaveURL(/\/home$/);
    await page.goto('/login');
    await expect(page).toHaveURL(/\/home$/);
  });

  test('Log Out ends the session and returns to /login', async ({ page }) => {
    const account = await createAccount('Lou');
    await page.goto('/login');
    await logInThroughForm(page, account);
    await expect(page.getByText('Hi, Lou')).toBeVisible();
    const token = await page.evaluate(() => localStorage.getItem('token'));
    await page.getByText('Hi, Lou').click();
    await page
      .getByRole('button', { name: 'Log Out', exact: true })
      .or(page.getByRole('menuitem', { name: 'Log Out', exact: true }))
      .first()
      .click();
    await expect(page).toHaveURL(/\/login/);
    expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
    const response = await page.request.get('/api/v1/account/details', {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status()).toBe(401);
  });

  test('Log Out All Devices in a second browser sends the first to /login?expired on its next call', async ({
    browser,
  }) => {
    const account = await createAccount('Max');
    const first = await browser.newContext();
    const second = await browser.newContext();
    try {
      const firstPage = await first.newPage();
      const secondPage = await second.newPage();
      for (const page of [firstPage, secondPage]) {
        await page.goto('/login');
        await logInThroughForm(page, account);
        await expect(page.getByText('Hi, Max')).toBeVisible();
      }
      await secondPage.getByText('Hi, Max').click();
      await secondPage.getByText('Log Out All Devices').click();
      await expect(secondPage).toHaveURL(/\/login/);

      await firstPage.reload();
      await expect(firstPage).toHaveURL(/\/login\?expired$/);
      await expect(firstPage.getByText('Your session has expired, please login to continue.')).toBeVisible();
    } finally {
      await first.close();
      await second.close();
    }
  });

  test('an expired stored token is cleared and the visitor stays in the sign-in area', async ({ page }) => {
    await page.goto('/');
    await page.evaluate(() => {
      const payload = btoa(
        JSON.stringify({ email: 'old@example.com', given_name: 'Old', exp: 1_000_000, sid: 'x' }),
      );
      localStorage.setItem('token', `eyJhbGciOiJIUzI1NiJ9.${payload}.signature`);
      localStorage.setItem('email', 'old@example.com');
      localStorage.setItem('name', 'Old');
      localStorage.setItem('exp', '1000000');
    });
    await page.goto('/login');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Enter your email and password to login.')).toBeVisible();
    const stored = await page.evaluate(() =>
      ['token', 'email', 'name', 'exp'].map((key) => localStorage.getItem(key)),
    );
    expect(stored).toEqual([null, null, null, null]);
    await page.goto('/home');
    await expect(page).toHaveURL(/\/login$/);
  });
});

test.describe('signed-in shell', () => {
  test.beforeEach(async ({ page }) => {
    const account = await createAccount('Shell');
    await page.goto('/login');
    await logInThroughForm(page, account);
    await expect(page).toHaveURL(/\/home$/);
  });

  test('the side menu lists MAIN PAGES and every route resolves', async ({ page }) => {
    await expect(page.getByText('MAIN PAGES').filter({ visible: true })).toBeVisible();
    for (const name of [
      'Home',
      'Cloud Management',
      'Recommendations',
      'Automation Logs',
      'Sizing Schedule',
      'Security',
      'Automation Pipelines',
      'Cost Analysis & Budget',
      'Manage Team',
      'Manage Tenants',
    ]) {
      await expect(page.getByRole('link', { name, exact: true }).first()).toBeVisible();
    }
    // Security, the last of SPEC's coming-soon pages, is a page of its own now.
    await page.goto('/security');
    await expect(page.getByRole('heading', { name: 'Security', level: 1 })).toBeVisible();
    await expect(page.getByText('COMING SOON')).toHaveCount(0);
    await page.goto('/resources');
    await expect(page.getByRole('heading', { name: 'Cloud Resources' })).toBeVisible();
  });

  test('removing the stored name logs out within the 500 ms poll', async ({ page }) => {
    await page.evaluate(() => localStorage.removeItem('name'));
    await expect(page).toHaveURL(/\/login/, { timeout: 3000 });
  });
});
