import type { AltchaChallengeResponse, CaptchaConfigResponse } from '@cloudtrim/contracts/captcha';
import { badRequest, notFound } from '../../lib/http-errors';
import type { CaptchaContentSources, CaptchaProvider } from './captcha.provider';
import type { CaptchaRepository } from './captcha.repository';

export const captchaInvalidText = 'The captcha was not solved. Please check the box and try again.';
export const captchaReusedText = 'This captcha has already been used. Please check the box again.';

export class CaptchaService {
  constructor(
    private readonly provider: CaptchaProvider,
    private readonly repository: CaptchaRepository,
    private readonly now: () => Date = () => new Date(),
  ) {}

  getConfig(): CaptchaConfigResponse {
    return this.provider.siteKey
      ? { provider: this.provider.name, siteKey: this.provider.siteKey }
      : { provider: this.provider.name };
  }

  getContentSources(): CaptchaContentSources {
    return this.provider.contentSources;
  }

  async createChallenge(): Promise<AltchaChallengeResponse> {
    const challenge = await this.provider.createChallenge(this.now());
    if (!challenge) throw notFound(`The ${this.provider.name} captcha serves its own challenges.`);
    return challenge;
  }

  // Throws 400 naming `ReCaptchaResponse` unless the answer is a fresh, valid solution.
  async assertSolved(answer: string, clientAddress: string): Promise<void> {
    const now = this.now();
    const verdict = await this.provider.verify(answer, clientAddress, now);
    if (!verdict.isSolved) throw badRequest(captchaInvalidText, 'ReCaptchaResponse');
    if (verdict.replayKey && !(await this.repository.claim(verdict.replayKey, verdict.expiresAt ?? now))) {
      throw badRequest(captchaReusedText, 'ReCaptchaResponse');
    }
  }

  purgeExpired(): Promise<void> {
    return this.repository.deleteExpired(this.now());
  }
}
