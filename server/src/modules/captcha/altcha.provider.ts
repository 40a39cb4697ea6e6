// ALTCHA: a proof of work served and checked here, with no third party. The one module that imports
// altcha-lib.
import type { AltchaChallengeResponse } from '@cloudtrim/contracts/captcha';
import { createChallenge, extractParams, verifySolution } from 'altcha-lib';
import { createHmac } from 'node:crypto';
import { z } from 'zod';
import type { CaptchaContentSources, CaptchaProvider, CaptchaVerdict } from './captcha.provider';

// Long enough to tick the box, then fill in and send the form.
export const altchaChallengeLifetimeSeconds = 20 * 60;

const payloadSchema = z.object({
  algorithm: z.literal('SHA-256'),
  challenge: z.string().regex(/^[0-9a-f]{64}$/),
  number: z.number().int().nonnegative(),
  salt: z.string().min(1).max(200),
  signature: z.string().regex(/^[0-9a-f]{64}$/),
});

// Every process shares JWT_SECRET already, so the challenge key derived from it needs no secret of its own.
export function deriveAltchaKey(jwtSecret: string): string {
  return createHmac('sha256', jwtSecret).update('cloudtrim altcha hmac key').digest('hex');
}

export class AltchaProvider implements CaptchaProvider {
  readonly name = 'altcha';
  readonly siteKey = undefined;
  // The widget is bundled with the web app and fetches its challenge from this server.
  readonly contentSources: CaptchaContentSources = { scriptSrc: [], frameSrc: [] };

  constructor(
    private readonly hmacKey: string,
    private readonly maxNumber: number,
  ) {}

  createChallenge(now: Date): Promise<AltchaChallengeResponse> {
    return createChallenge({
      hmacKey: this.hmacKey,
      maxNumber: this.maxNumber,
      algorithm: 'SHA-256',
      expires: new Date(now.getTime() + altchaChallengeLifetimeSeconds * 1000),
    });
  }

  // The widget sends its solution as base64 of a JSON object.
  async verify(answer: string, _clientAddress: string, now: Date): Promise<CaptchaVerdict> {
    const payload = parsePayload(answer);
    if (!payload) return { isSolved: false };
    // Our challenges always carry an expiry (bound into the signed challenge through the salt); it
    // is checked against the service's clock rather than altcha-lib's.
    const expiresAt = new Date(Number(extractParams(payload).expires) * 1000);
    if (Number.isNaN(expiresAt.getTime()) || expiresAt <= now) return { isSolved: false };
    if (!(await verifySolution(payload, this.hmacKey, false))) return { isSolved: false };
    return { isSolved: true, replayKey: payload.challenge, expiresAt };
  }
}

function parsePayload(answer: string) {
  try {
    return payloadSchema.safeParse(JSON.parse(Buffer.from(answer, 'base64').toString('utf8'))).data;
  } catch {
    return undefined;
  }
}
