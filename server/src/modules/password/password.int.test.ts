import {
  recoverSuccessText,
  recoverTooManyRequestsText,
  resetAlreadyCompletedText,
  resetInvalidCodeText,
  resetTooManyAttemptsText,
} from '@cloudtrim/contracts/messages';
import { passwordRequirementsText } from '@cloudtrim/contracts/password-rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';
import { createMailTestContext, waitForMailJobs, type MailTestContext } from '../../../test/mailbox';
import { passwordRules, passwordUpdatedText, wrongCurrentPasswordText } from './password.service';

let context: MailTestContext;
let clientCounter = 0;

beforeAll(async () => {
  context = await createMailTestContext();
});
afterAll(() => context.close());

function nextClientAddress(): string {
  clientCounter += 1;
  return `10.60.0.${clientCounter}`;
}

const requestReset = (EmailAddress: string, remoteAddress = nextClientAddress()) =>
  context.app.inject({
    method: 'POST',
    url: '/api/v1/customerprofile/password/reset',
    payload: { EmailAddress },
    remoteAddress,
  });

const validateCode = (email: string, code: string) =>
  context.app.inject({
    method: 'GET',
    url: `/api/v1/Account/ValidateCode?${new URLSearchParams({ email, code }).toString()}`,
  });

const resetWithCode = (EmailAddress: string, Code: string, NewPassword = 'Fresh-Start-2026') =>
  context.app.inject({
    method: 'POST',
    url: '/api/v1/customerprofile/password/resetwithcode',
    payload: { Code, EmailAddress, NewPassword },
  });

const getDetails = (token: string) =>
  context.app.inject({ method: 'GET', url: '/api/v1/account/details', headers: bearer(token) });

const changePassword = (token: string, payload: Record<string, unknown>) =>
  context.app.inject({
    method: 'PUT',
    url: '/api/v1/customerprofile/password',
    headers: bearer(token),
    payload,
  });

const postToken = (emailAddress: string, password: string) =>
  context.app.inject({ method: 'POST', url: '/api/v1/token', payload: { emailAddress, password } });

// The reset link is {PUBLIC_URL}/ResetPassword?email=..&code=..
async function receiveResetCode(email: string): Promise<string> {
  const mail = await context.mailbox.nextMailTo(email);
  const url = new URL(mail.link);
  expect(`${url.origin}${url.pathname}`).toBe('http://cloudtrim.test/ResetPassword');
  expect(url.searchParams.get('email')).toBe(email);
  return url.searchParams.get('code')!;
}

async function requestCode(user: TestUser): Promise<string> {
  expect((await requestReset(user.email)).statusCode).toBe(200);
  return receiveResetCode(user.email);
}

describe('POST /api/v1/customerprofile/password/reset', () => {
  it('answers the same for a known and an unknown address; only the known one gets a mail', async () => {
    const user = await createUser(context);
    const unknown = `nobody-${Date.now()}@example.com`;
    const forUnknown = await requestReset(unknown);
    const forKnown = await requestReset(user.email);
    expect(forUnknown.statusCode).toBe(200);
    expect(forKnown.statusCode).toBe(200);
    expect(forUnknown.body).toBe(forKnown.body);
    expect(forKnown.json()).toEqual({ message: recoverSuccessText });

    const mail = await context.mailbox.nextMailTo(user.email);
    expect(mail.subject).toBe('Reset your Cloudtrim password');
    expect(mail.text).toContain('expires in 30 minutes');
    expect(mail.html).toContain(`href="${mail.link.replaceAll('&', '&amp;')}"`);
    expect(
      Buffer.from(new URL(mail.link).searchParams.get('code')!, 'base64url').length,
    ).toBeGreaterThanOrEqual(16);
    await waitForMailJobs(context);
    expect(context.mailbox.mailsTo(unknown)).toEqual([]);
  });

  it('refuses a malformed address with 400', async () => {
    const response = await requestReset('not-an-address');
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('EmailAddress');
  });
});

describe('GET /api/v1/Account/ValidateCode', () => {
  it('validates a fresh code for its own address only', async () => {
    const user = await createUser(context);
    const code = await requestCode(user);
    expect((await validateCode(user.email, code)).json()).toEqual({ Validated: true });
    expect((await validateCode(user.email, `${code}x`)).json()).toEqual({ Validated: false });
    expect((await validateCode('someone-else@example.com', code)).json()).toEqual({ Validated: false });
  });

  it('stops validating a code after 30 minutes', async () => {
    const user = await createUser(context);
    const code = await requestCode(user);
    context.clock.offsetMs = passwordRules.resetLinkLifetimeSeconds * 1000 + 1000;
    try {
      expect((await validateCode(user.email, code)).json()).toEqual({ Validated: false });
      const response = await resetWithCode(user.email, code);
      expect(response.statusCode).toBe(401);
      expect(response.json().message).toBe(resetInvalidCodeText);
    } finally {
      context.clock.offsetMs = 0;
    }
  });
});

describe('POST /api/v1/customerprofile/password/resetwithcode', () => {
  it('sets the new password once, ends every session, and spends the code', async () => {
    const user = await createUser(context);
    const sessions = [await logIn(context, user), await logIn(context, user)];
    const code = await requestCode(user);

    const response = await resetWithCode(user.email, code, 'Fresh-Start-2026');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: passwordUpdatedText });
    for (const session of sessions) expect((await getDetails(session)).statusCode).toBe(401);
    expect((await postToken(user.email, user.password)).statusCode).toBe(401);
    expect((await postToken(user.email, 'Fresh-Start-2026')).statusCode).toBe(200);

    const again = await resetWithCode(user.email, code, 'Another-Pass-2027');
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(resetAlreadyCompletedText);
    expect((await validateCode(user.email, code)).json()).toEqual({ Validated: false });
  });

  it('spends every other open code of the address with it', async () => {
    const user = await createUser(context);
    const first = await requestCode(user);
    const second = await requestCode(user);
    expect((await resetWithCode(user.email, second)).statusCode).toBe(200);
    expect((await resetWithCode(user.email, first)).statusCode).toBe(409);
  });

  it('answers 422 for a password that breaks the rules, keeping the code', async () => {
    const user = await createUser(context);
    const code = await requestCode(user);
    const weak = await resetWithCode(user.email, code, 'alllowercase');
    expect(weak.statusCode).toBe(422);
    expect(weak.json()).toMatchObject({ message: passwordRequirementsText, field: 'NewPassword' });
    expect((await resetWithCode(user.email, code)).statusCode).toBe(200);
  });

  it('answers 401 for an unknown code or another address, and 400 for a malformed body', async () => {
    const user = await createUser(context);
    const code = await requestCode(user);
    expect((await resetWithCode(user.email, 'made-up-code')).statusCode).toBe(401);
    expect((await resetWithCode('someone-else@example.com', code)).statusCode).toBe(401);
    const malformed = await context.app.inject({
      method: 'POST',
      url: '/api/v1/customerprofile/password/resetwithcode',
      payload: { EmailAddress: user.email, NewPassword: 'Fresh-Start-2026' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().field).toBe('Code');
  });

  it(`answers 429 after ${passwordRules.resetAttemptsPerAddress.limit} wrong codes for an address, even for the right one`, async () => {
    const user = await createUser(context);
    const code = await requestCode(user);
    for (let attempt = 0; attempt < passwordRules.resetAttemptsPerAddress.limit; attempt += 1) {
      expect((await resetWithCode(user.email, `wrong-${attempt}`)).statusCode).toBe(401);
    }
    const blocked = await resetWithCode(user.email, code);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().message).toBe(resetTooManyAttemptsText);
    expect((await validateCode(user.email, code)).statusCode).toBe(429);
  });
});

describe('PUT /api/v1/customerprofile/password', () => {
  it('refuses a wrong current password with 400, without logging the user out', async () => {
    const user = await createUser(context);
    const token = await logIn(context, user);
    const response = await changePassword(token, {
      OldPassword: 'Not-My-Password-1',
      NewPassword: 'Changed-Pass-99',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message: wrongCurrentPasswordText, field: 'OldPassword' });
    expect((await getDetails(token)).statusCode).toBe(200);
    expect((await postToken(user.email, user.password)).statusCode).toBe(200);
  });

  it('answers 422 for a new password that breaks the rules', async () => {
    const user = await createUser(context);
    const token = await logIn(context, user);
    const response = await changePassword(token, {
      OldPassword: user.password,
      NewPassword: ' Leading-space-1',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().field).toBe('NewPassword');
    expect((await postToken(user.email, user.password)).statusCode).toBe(200);
  });

  it('changes the password and keeps other sessions without the option', async () => {
    const user = await createUser(context);
    const [current, other] = [await logIn(context, user), await logIn(context, user)];
    const response = await changePassword(current, {
      OldPassword: user.password,
      NewPassword: 'Changed-Pass-99',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: passwordUpdatedText });
    expect((await getDetails(other)).statusCode).toBe(200);
    expect((await postToken(user.email, user.password)).statusCode).toBe(401);
    expect((await postToken(user.email, 'Changed-Pass-99')).statusCode).toBe(200);
  });

  it('with LogOutAllDevices ends every other session and keeps the current one', async () => {
    const user = await createUser(context);
    const [current, other] = [await logIn(context, user), await logIn(context, user)];
    const response = await changePassword(current, {
      OldPassword: user.password,
      NewPassword: 'Changed-Pass-99',
      LogOutAllDevices: true,
    });
    expect(response.statusCode).toBe(200);
    expect((await getDetails(other)).statusCode).toBe(401);
    expect((await getDetails(current)).statusCode).toBe(200);
  });

  it(`answers 429 after ${passwordRules.changeAttemptsPerAccount.limit} wrong current passwords`, async () => {
    const user = await createUser(context);
    const token = await logIn(context, user);
    for (let attempt = 0; attempt < passwordRules.changeAttemptsPerAccount.limit; attempt += 1) {
      await changePassword(token, {
        OldPassword: `Wrong-${attempt}-Password`,
        NewPassword: 'Changed-Pass-99',
      });
    }
    const blocked = await changePassword(token, {
      OldPassword: user.password,
      NewPassword: 'Changed-Pass-99',
    });
    expect(blocked.statusCode).toBe(429);
    expect((await getDetails(token)).statusCode).toBe(200);
  });

  it('answers 401 without a session', async () => {
    const response = await context.app.inject({
      method: 'PUT',
      url: '/api/v1/customerprofile/password',
      payload: { OldPassword: 'x', NewPassword: 'short' },
    });
    expect(response.statusCode).toBe(401);
  });
});

// Last: the jobs these leave queued would delay the mails other tests wait for.
describe('POST /api/v1/customerprofile/password/reset bounds', () => {
  it(`answers 429 past ${passwordRules.resetRequestsPerAddress.limit} requests for one address, known or not`, async () => {
    const user = await createUser(context);
    for (const email of [user.email, `unknown-${Date.now()}@example.com`]) {
      for (let attempt = 0; attempt < passwordRules.resetRequestsPerAddress.limit; attempt += 1) {
        expect((await requestReset(email)).statusCode).toBe(200);
      }
      const refused = await requestReset(email);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().message).toBe(recoverTooManyRequestsText);
    }
    await waitForMailJobs(context);
    expect(context.mailbox.mailsTo(user.email)).toHaveLength(passwordRules.resetRequestsPerAddress.limit);
  });

  it(`answers 429 past ${passwordRules.resetRequestsPerClient.limit} requests from one client`, async () => {
    const client = nextClientAddress();
    const target = `spray-${Date.now()}@example.com`;
    // Refused requests count too, so one address fills the client's bound.
    for (let attempt = 0; attempt < passwordRules.resetRequestsPerClient.limit; attempt += 1) {
      await requestReset(target, client);
    }
    const other = `other-${Date.now()}@example.com`;
    expect((await requestReset(other, client)).statusCode).toBe(429);
    expect((await requestReset(other)).statusCode).toBe(200);
  });
});
