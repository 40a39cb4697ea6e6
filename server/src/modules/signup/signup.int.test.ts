import {
  signupEmailInUseText,
  signupSuccessText,
  signupTooManyRequestsText,
  signupTooSoonText,
  verifyLinkExpiredText,
} from '@cloudtrim/contracts/messages';
import { passwordRequirementsText } from '@cloudtrim/contracts/password-rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../lib/secret-box';
import { solveCaptcha } from '../../../test/captcha';
import { bearer, createUser, logIn } from '../../../test/helper';
import { createMailTestContext, waitForMailJobs, type MailTestContext } from '../../../test/mailbox';
import { signupRules } from './signup.service';

let context: MailTestContext;
let clientCounter = 0;

beforeAll(async () => {
  context = await createMailTestContext({ ALTCHA_MAX_NUMBER: '1000' });
});
afterAll(() => context.close());

// Each test signs up from its own client address, so the per-client bound only counts its own calls.
function nextClientAddress(): string {
  clientCounter += 1;
  return `10.40.0.${clientCounter}`;
}

let emailCounter = 0;
function newEmail(): string {
  emailCounter += 1;
  return `signup${emailCounter}-${Date.now()}@example.com`;
}

async function startSignup(emailaddress: string, remoteAddress = nextClientAddress()) {
  return context.app.inject({
    method: 'POST',
    url: '/api/v1/emailaddress',
    payload: { emailaddress, ReCaptchaResponse: await solveCaptcha(context) },
    remoteAddress,
  });
}

const describeLink = (guid: string) =>
  context.app.inject({ method: 'GET', url: `/api/v1/emailaddress?guid=${encodeURIComponent(guid)}` });

const completeSignup = (payload: Record<string, unknown>) =>
  context.app.inject({ method: 'PUT', url: '/api/v1/emailaddress', payload });

function completion(guid: string, emailAddress: string, overrides: Record<string, unknown> = {}) {
  return {
    guid,
    emailAddress,
    password: 'Brand-New-Pass-7',
    firstName: 'Marie',
    lastName: 'Curie',
    company: 'Radium Labs',
    address1: null,
    city: 'Paris',
    ...overrides,
  };
}

// The token is the whole query string of the /verify link.
async function receiveVerifyToken(email: string): Promise<string> {
  const mail = await context.mailbox.nextMailTo(email);
  const match = /^http:\/\/cloudtrim\.test\/verify\?([A-Za-z0-9_-]+)$/.exec(mail.link);
  if (!match) throw new Error(`unexpected link ${mail.link}`);
  return match[1]!;
}

function moveClock(milliseconds: number): void {
  context.clock.offsetMs += milliseconds;
}

describe('POST /api/v1/emailaddress', () => {
  it('mails a branded confirmation link to {PUBLIC_URL}/verify?{token}', async () => {
    const email = newEmail();
    const response = await startSignup(email);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: signupSuccessText });
    const mail = await context.mailbox.nextMailTo(email);
    expect(mail.subject).toBe('Confirm your email address for Cloudtrim');
    expect(mail.from).toContain('no-reply@cloudtrim.dev');
    expect(mail.link).toMatch(/^http:\/\/cloudtrim\.test\/verify\?[A-Za-z0-9_-]{43}$/);
    expect(mail.text).toContain('expires in 24 hours');
    expect(mail.html).toContain(`href="${mail.link}"`);
    expect(mail.html).toContain('Cloudtrim');
  });

  it('keeps only a hash of the token, which carries at least 128 random bits', async () => {
    const email = newEmail();
    await startSignup(email);
    const token = await receiveVerifyToken(email);
    expect(Buffer.from(token, 'base64url').length).toBeGreaterThanOrEqual(16);
    const { rows } = await context.container.database.pool.query(
      'select token_hash from one_time_token where email = $1',
      [email],
    );
    expect(rows).toEqual([{ token_hash: hashToken(token) }]);
  });

  it('answers 409 when the address already has an account, and sends nothing', async () => {
    const user = await createUser(context);
    const response = await startSignup(user.email.toUpperCase());
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(signupEmailInUseText);
    await waitForMailJobs(context);
    expect(context.mailbox.mailsTo(user.email)).toEqual([]);
  });

  it('answers 425 within 5 minutes of the last confirmation, and sends again after', async () => {
    const email = newEmail();
    expect((await startSignup(email)).statusCode).toBe(200);
    await context.mailbox.nextMailTo(email);
    moveClock(4 * 60_000);
    const tooSoon = await startSignup(email);
    expect(tooSoon.statusCode).toBe(425);
    expect(tooSoon.json().message).toBe(signupTooSoonText);
    moveClock(61_000);
    expect((await startSignup(email)).statusCode).toBe(200);
    await context.mailbox.nextMailTo(email);
  });

  it(`answers 403 past ${signupRules.mailsPerAddressPerDay} confirmations to one address in 24 hours`, async () => {
    const email = newEmail();
    for (let sent = 0; sent < signupRules.mailsPerAddressPerDay; sent += 1) {
      expect((await startSignup(email)).statusCode).toBe(200);
      moveClock(signupRules.resendGapSeconds * 1000);
    }
    const refused = await startSignup(email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(signupTooManyRequestsText);
    moveClock(24 * 3_600_000);
    expect((await startSignup(email)).statusCode).toBe(200);
    await waitForMailJobs(context);
    expect(context.mailbox.mailsTo(email)).toHaveLength(signupRules.mailsPerAddressPerDay + 1);
  });

  it(`answers 429 past ${signupRules.perClient.limit} sign-ups from one client in an hour`, async () => {
    const client = nextClientAddress();
    // Every call with a solved captcha counts, whatever its answer; these send no mail.
    const user = await createUser(context);
    for (let attempt = 0; attempt < signupRules.perClient.limit; attempt += 1) {
      expect((await startSignup(user.email, client)).statusCode).toBe(409);
    }
    const email = newEmail();
    const refused = await startSignup(email, client);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/Too many/);
    expect((await startSignup(email)).statusCode).toBe(200);
    await context.mailbox.nextMailTo(email);
  });

  it('refuses a malformed address with 400 naming the field', async () => {
    const response = await startSignup('not-an-address');
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('emailaddress');
  });
});

describe('GET /api/v1/emailaddress?guid=', () => {
  it('answers the address the link was sent to', async () => {
    const email = newEmail();
    await startSignup(email);
    const token = await receiveVerifyToken(email);
    const response = await describeLink(token);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ EmailAddress: email });
  });

  it('answers 401 for an unknown link', async () => {
    expect((await describeLink('no-such-token-AAAAAAAAAAAAAAAAAAAAAAAAAAAA')).statusCode).toBe(401);
  });

  it('answers 409 for an expired link and mails a fresh one; the old link stays dead', async () => {
    const email = newEmail();
    await startSignup(email);
    const expiredToken = await receiveVerifyToken(email);
    moveClock(signupRules.linkLifetimeSeconds * 1000 + 1000);
    const response = await describeLink(expiredToken);
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(verifyLinkExpiredText);
    const freshToken = await receiveVerifyToken(email);
    expect(freshToken).not.toBe(expiredToken);
    expect((await describeLink(freshToken)).json()).toEqual({ EmailAddress: email });
    expect((await completeSignup(completion(expiredToken, email))).statusCode).toBe(401);
    // A second click within 5 minutes does not mail again: the fresh link is on its way.
    expect((await describeLink(expiredToken)).statusCode).toBe(409);
    await waitForMailJobs(context);
    expect(context.mailbox.mailsTo(email)).toHaveLength(2);
  });
});

describe('PUT /api/v1/emailaddress', () => {
  it('creates the account in a team named after the company, consuming the link', async () => {
    const email = newEmail();
    await startSignup(email);
    const token = await receiveVerifyToken(email);
    const response = await completeSignup(completion(token, email));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Your account has been created.' });

    const sessionToken = await logIn(context, { email, password: 'Brand-New-Pass-7' });
    const details = await context.app.inject({
      method: 'GET',
      url: '/api/v1/account/details',
      headers: bearer(sessionToken),
    });
    expect(details.json()).toMatchObject({
      FirstName: 'Marie',
      LastName: 'Curie',
      City: 'Paris',
      Address1: '',
    });
    const user = await context.container.repositories.account.findByEmail(email);
    const { rows } = await context.container.database.pool.query('select name from team where id = $1', [
      user!.teamId,
    ]);
    expect(rows).toEqual([{ name: 'Radium Labs' }]);

    expect((await completeSignup(completion(token, email))).statusCode).toBe(401);
    expect((await describeLink(token)).statusCode).toBe(401);
  });

  it('answers 422 for a password that breaks the rules and 400 for a missing name, keeping the link', async () => {
    const email = newEmail();
    await startSignup(email);
    const token = await receiveVerifyToken(email);
    const weak = await completeSignup(completion(token, email, { password: 'short' }));
    expect(weak.statusCode).toBe(422);
    expect(weak.json()).toMatchObject({ message: passwordRequirementsText, field: 'password' });
    const noName = await completeSignup(completion(token, email, { firstName: '' }));
    expect(noName.statusCode).toBe(400);
    expect(noName.json().field).toBe('firstName');
    const otherAddress = await completeSignup(completion(token, 'someone-else@example.com'));
    expect(otherAddress.statusCode).toBe(400);
    expect(otherAddress.json().field).toBe('emailAddress');
    expect((await completeSignup(completion(token, email))).statusCode).toBe(200);
  });

  it('answers 401 for an expired link', async () => {
    const email = newEmail();
    await startSignup(email);
    const token = await receiveVerifyToken(email);
    moveClock(signupRules.linkLifetimeSeconds * 1000 + 1000);
    expect((await completeSignup(completion(token, email))).statusCode).toBe(401);
  });

  it('answers 409 when the address got an account through another link', async () => {
    const email = newEmail();
    await startSignup(email);
    const firstToken = await receiveVerifyToken(email);
    moveClock(signupRules.resendGapSeconds * 1000);
    await startSignup(email);
    const secondToken = await receiveVerifyToken(email);
    expect((await completeSignup(completion(firstToken, email))).statusCode).toBe(200);
    const response = await completeSignup(completion(secondToken, email));
    expect(response.statusCode).toBe(409);
    expect(response.json().message).toBe(signupEmailInUseText);
    expect((await describeLink(secondToken)).statusCode).toBe(401);
  });

  it('creates one account when the same link is sent twice at once', async () => {
    const email = newEmail();
    await startSignup(email);
    const token = await receiveVerifyToken(email);
    const responses = await Promise.all([
      completeSignup(completion(token, email)),
      completeSignup(completion(token, email)),
    ]);
    const statusCodes = responses.map((response) => response.statusCode);
    expect(statusCodes.filter((statusCode) => statusCode === 200)).toHaveLength(1);
    // The loser finds the link consumed (401) or the account created (409).
    expect([401, 409]).toContain(statusCodes.find((statusCode) => statusCode !== 200));
  });
});
