// The tests' view of the run: the server's address, its mailbox and database (to create accounts
// directly, so a test that logs out every device never disturbs another test's user).
import { test as base, expect, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { hashPassword } from '../../server/src/lib/password-hasher';
import { stateFile, type E2eState } from './environment';
import type { CapturedMail } from './mail-capture';

export const demo = { email: 'demo@cloudtrim.dev', password: 'Cloudtrim-Demo-2026', firstName: 'Demo' };

export function readState(): E2eState {
  return JSON.parse(readFileSync(stateFile, 'utf8')) as E2eState;
}

export interface Account {
  email: string;
  password: string;
  firstName: string;
}

export async function createAccount(firstName = 'Tess'): Promise<Account> {
  const email = `${firstName.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
  const password = 'E2e-Password-2026';
  const client = new pg.Client({ connectionString: readState().databaseUrl });
  await client.connect();
  try {
    const team = await client.query<{ id: string }>('insert into team (name) values ($1) returning id', [
      `${firstName}'s team`,
    ]);
    await client.query(
      // The team's creator is its Owner.
      "insert into app_user (team_id, email, password_hash, first_name, last_name, role) values ($1, $2, $3, $4, $5, 'Owner')",
      [team.rows[0]!.id, email, await hashPassword(password), firstName, 'Tester'],
    );
  } finally {
    await client.end();
  }
  return { email, password, firstName };
}

export async function logInThroughForm(
  page: Page,
  account: Pick<Account, 'email' | 'password'>,
): Promise<void> {
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'LOG IN' }).click();
}

// A fresh address nobody has used, for flows that create an account through the product itself.
export function createEmailAddress(name: string): string {
  return `${name.toLowerCase()}-${randomUUID().slice(0, 8)}@example.com`;
}

// Makes every confirmation link of `email` a day old and expired, as if it had been mailed yesterday.
export async function expireSignupLinks(email: string): Promise<void> {
  const client = new pg.Client({ connectionString: readState().databaseUrl });
  await client.connect();
  try {
    await client.query(
      `update one_time_token set created_at = created_at - interval '1 day', expires_at = now() - interval '1 minute'
       where purpose = 'verify' and email = $1`,
      [email],
    );
  } finally {
    await client.end();
  }
}

// Fills the account completion form a /verify (or invitation) link opens, and sends it.
export async function completeAccountForm(
  page: Page,
  person: { firstName: string; lastName: string; password: string },
): Promise<void> {
  await page.getByLabel('Password', { exact: true }).fill(person.password);
  await page.getByLabel('Confirm Password', { exact: true }).fill(person.password);
  await page.getByLabel('First Name').fill(person.firstName);
  await page.getByLabel('Last Name').fill(person.lastName);
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
}

// Waits for the next mail to `to` whose subject matches, received after `since`.
export async function waitForMail(
  to: string,
  subject: RegExp,
  since: Date,
  timeoutMs = 20_000,
): Promise<CapturedMail> {
  const { mailboxDir } = readState();
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const file of (await readdir(mailboxDir)).sort()) {
      const mail = JSON.parse(await readFile(path.join(mailboxDir, file), 'utf8')) as CapturedMail;
      if (
        mail.to.includes(to.toLowerCase()) &&
        subject.test(mail.subject) &&
        new Date(mail.receivedAt) >= since
      ) {
        return mail;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No mail to ${to} matching ${subject} arrived`);
}

export function findLink(mail: CapturedMail, pathPrefix: string): string {
  const match = new RegExp(`https?://[^\\s"'<>]+${pathPrefix.replace(/[?]/g, '\\?')}[^\\s"'<>]*`).exec(
    mail.text,
  );
  if (!match) throw new Error(`No ${pathPrefix} link in mail "${mail.subject}"`);
  return match[0].replaceAll('&amp;', '&');
}

export const test = base.extend({
  // Playwright reads a fixture's dependencies from its first parameter's pattern, so it must be {}.
  // eslint-disable-next-line no-empty-pattern
  baseURL: async ({}, use) => use(readState().baseUrl),
});

export { expect };
