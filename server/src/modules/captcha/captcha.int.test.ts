import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { solveCaptcha } from '../../../test/captcha';
import { createTestContext, type TestContext } from '../../../test/helper';
import { Mailbox, waitForMailJobs } from '../../../test/mailbox';
import { altchaChallengeLifetimeSeconds } from './altcha.provider';
import { captchaInvalidText, captchaReusedText } from './captcha.service';

let mailbox: Mailbox;
let emailCounter = 0;

beforeAll(async () => {
  mailbox = await Mailbox.start();
});
afterAll(() => mailbox.close());

function newEmail(): string {
  emailCounter += 1;
  return `captcha${emailCounter}-${Date.now()}@example.com`;
}

function startSignup(context: TestContext, emailaddress: string, ReCaptchaResponse?: string) {
  return context.app.inject({
    method: 'POST',
    url: '/api/v1/emailaddress',
    payload: ReCaptchaResponse === undefined ? { emailaddress } : { emailaddress, ReCaptchaResponse },
  });
}

function encodeSolution(solution: object): string {
  return Buffer.from(JSON.stringify(solution)).toString('base64');
}

function decodeSolution(answer: string) {
  return JSON.parse(Buffer.from(answer, 'base64').toString('utf8'));
}

describe('ALTCHA (the default)', () => {
  let context: TestContext;
  let clockOffsetMs = 0;

  beforeAll(async () => {
    context = await createTestContext({
      hasWorkers: true,
      environment: { SMTP_URL: mailbox.url, ALTCHA_MAX_NUMBER: '1000' },
      now: () => new Date(Date.now() + clockOffsetMs),
    });
  });
  afterAll(() => context.close());

  // Each answer is refused with 400 naming ReCaptchaResponse, and no mail leaves.
  async function expectRefusedWithoutMail(answer: string | undefined, message?: string) {
    const email = newEmail();
    const response = await startSignup(context, email, answer);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe('ReCaptchaResponse');
    if (message) expect(response.json().message).toBe(message);
    await waitForMailJobs(context);
    expect(mailbox.mailsTo(email)).toEqual([]);
  }

  it('GET /api/v1/captcha/config names ALTCHA, with no site key', async () => {
    const response = await context.app.inject({ method: 'GET', url: '/api/v1/captcha/config' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ provider: 'altcha' });
    expect(response.headers['content-security-policy']).toContain("script-src 'self';");
  });

  it('GET /api/v1/captcha/challenge serves a fresh signed challenge, never cached', async () => {
    const first = await context.app.inject({ method: 'GET', url: '/api/v1/captcha/challenge' });
    const second = await context.app.inject({ method: 'GET', url: '/api/v1/captcha/challenge' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.json()).toMatchObject({
      algorithm: 'SHA-256',
      maxnumber: 1000,
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      salt: expect.stringMatching(/\?expires=\d+$/),
    });
    expect(second.json().challenge).not.toBe(first.json().challenge);
  });

  it('accepts a solved challenge once; replaying it is refused', async () => {
    const answer = await solveCaptcha(context);
    const email = newEmail();
    expect((await startSignup(context, email, answer)).statusCode).toBe(200);
    await mailbox.nextMailTo(email);
    await expectRefusedWithoutMail(answer, captchaReusedText);
  });

  it('refuses a missing or blank answer', async () => {
    await expectRefusedWithoutMail(undefined);
    await expectRefusedWithoutMail('   ');
  });

  it('refuses garbage, a wrong number, a forged signature and a self-made challenge', async () => {
    await expectRefusedWithoutMail('bm90IGpzb24=', captchaInvalidText);
    const solution = decodeSolution(await solveCaptcha(context));
    await expectRefusedWithoutMail(
      encodeSolution({ ...solution, number: solution.number + 1 }),
      captchaInvalidText,
    );
    await expectRefusedWithoutMail(
      encodeSolution({ ...solution, signature: 'f'.repeat(64) }),
      captchaInvalidText,
    );
    // Someone who builds a challenge with another key cannot sign it with ours.
    const { createChallenge } = await import('altcha-lib');
    const forged = await createChallenge({
      hmacKey: 'not-our-key',
      number: 7,
      maxNumber: 10,
      expires: new Date(Date.now() + 60_000),
    });
    await expectRefusedWithoutMail(encodeSolution({ ...forged, number: 7 }), captchaInvalidText);
  });

  it(`refuses a solution whose challenge is older than ${altchaChallengeLifetimeSeconds / 60} minutes`, async () => {
    const answer = await solveCaptcha(context);
    clockOffsetMs = altchaChallengeLifetimeSeconds * 1000 + 1000;
    try {
      await expectRefusedWithoutMail(answer, captchaInvalidText);
    } finally {
      clockOffsetMs = 0;
    }
  });
});

describe('reCAPTCHA (CAPTCHA=recaptcha)', () => {
  let context: TestContext;
  let siteVerify: Server;
  const checks: URLSearchParams[] = [];

  beforeAll(async () => {
    // Google's siteverify, as far as the server can tell: one answer is good, and only once.
    const usedAnswers = new Set<string>();
    siteVerify = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        const form = new URLSearchParams(body);
        checks.push(form);
        const answer = form.get('response') ?? '';
        const isSolved =
          form.get('secret') === 'test-secret' && answer.startsWith('good') && !usedAnswers.has(answer);
        usedAnswers.add(answer);
        response.setHeader('content-type', 'application/json');
        response.end(
          JSON.stringify(isSolved ? { success: true } : { success: false, 'error-codes': ['invalid'] }),
        );
      });
    });
    await new Promise<void>((resolve) => siteVerify.listen(0, '127.0.0.1', resolve));
    const { port } = siteVerify.address() as AddressInfo;
    context = await createTestContext({
      hasWorkers: true,
      environment: {
        SMTP_URL: mailbox.url,
        CAPTCHA: 'recaptcha',
        RECAPTCHA_SITE_KEY: 'test-site-key',
        RECAPTCHA_SECRET: 'test-secret',
        RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${port}/recaptcha/api/siteverify`,
      },
    });
  });
  afterAll(async () => {
    await context.close();
    await new Promise((resolve) => siteVerify.close(resolve));
  });

  it('GET /api/v1/captcha/config names reCAPTCHA and its site key; there is no ALTCHA challenge', async () => {
    const config = await context.app.inject({ method: 'GET', url: '/api/v1/captcha/config' });
    expect(config.json()).toEqual({ provider: 'recaptcha', siteKey: 'test-site-key' });
    // The browser may load Google's widget script and its challenge frame.
    expect(config.headers['content-security-policy']).toContain(
      "script-src 'self' https://www.google.com/recaptcha/ https://www.gstatic.com/recaptcha/;",
    );
    expect(config.headers['content-security-policy']).toContain('frame-src');
    const challenge = await context.app.inject({ method: 'GET', url: '/api/v1/captcha/challenge' });
    expect(challenge.statusCode).toBe(404);
  });

  it('checks the answer with siteverify (secret, answer, client address) before sending', async () => {
    const email = newEmail();
    const response = await context.app.inject({
      method: 'POST',
      url: '/api/v1/emailaddress',
      payload: { emailaddress: email, ReCaptchaResponse: 'good-answer-1' },
      remoteAddress: '10.50.0.1',
    });
    expect(response.statusCode).toBe(200);
    expect(Object.fromEntries(checks.at(-1)!)).toEqual({
      secret: 'test-secret',
      response: 'good-answer-1',
      remoteip: '10.50.0.1',
    });
    await mailbox.nextMailTo(email);
  });

  it('refuses an answer siteverify rejects, and one used before, with 400 and no mail', async () => {
    for (const answer of ['forged-answer', 'good-answer-1']) {
      const email = newEmail();
      const response = await startSignup(context, email, answer);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ field: 'ReCaptchaResponse', message: captchaInvalidText });
      await waitForMailJobs(context);
      expect(mailbox.mailsTo(email)).toEqual([]);
    }
  });
});
