// Google reCAPTCHA v2 (CAPTCHA=recaptcha): the browser shows Google's widget; its answer is checked
// with Google's siteverify, which also refuses an answer used before.
import { z } from 'zod';
import type { CaptchaContentSources, CaptchaProvider, CaptchaVerdict } from './captcha.provider';

const siteVerifyResponseSchema = z.object({ success: z.boolean() });

export class RecaptchaProvider implements CaptchaProvider {
  readonly name = 'recaptcha';
  // Google's published CSP for reCAPTCHA: its script, and its challenge in a frame.
  readonly contentSources: CaptchaContentSources = {
    scriptSrc: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
    frameSrc: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
  };

  constructor(
    readonly siteKey: string,
    private readonly secret: string,
    private readonly verifyUrl: string,
  ) {}

  async createChallenge(): Promise<undefined> {
    return undefined;
  }

  async verify(answer: string, clientAddress: string): Promise<CaptchaVerdict> {
    const response = await fetch(this.verifyUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ secret: this.secret, response: answer, remoteip: clientAddress }),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`reCAPTCHA siteverify answered ${response.status}`);
    const result = siteVerifyResponseSchema.safeParse(await response.json());
    return { isSolved: result.success && result.data.success };
  }
}
