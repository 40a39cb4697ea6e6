import type {
  AltchaChallengeResponse,
  CaptchaProvider as CaptchaProviderName,
} from '@cloudtrim/contracts/captcha';

export interface CaptchaVerdict {
  isSolved: boolean;
  // Set when the provider cannot tell a replayed answer itself: the answer is then remembered under
  // this key until it expires.
  replayKey?: string;
  expiresAt?: Date;
}

// Origins the browser must be allowed to load the widget from (Content-Security-Policy).
export interface CaptchaContentSources {
  scriptSrc: string[];
  frameSrc: string[];
}

export interface CaptchaProvider {
  readonly name: CaptchaProviderName;
  readonly siteKey: string | undefined;
  readonly contentSources: CaptchaContentSources;
  // Undefined when the provider serves its own challenges (reCAPTCHA).
  createChallenge(now: Date): Promise<AltchaChallengeResponse | undefined>;
  verify(answer: string, clientAddress: string, now: Date): Promise<CaptchaVerdict>;
}
