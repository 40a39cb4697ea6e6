import { z } from 'zod';

// GET /api/v1/captcha/config: which captcha the sign-up form shows. Not in SPEC §7: SPEC only says a
// captcha service is used on sign-up; its answer travels in `ReCaptchaResponse` (signup.ts).
export const captchaProviders = ['altcha', 'recaptcha'] as const;
export const captchaProviderSchema = z.enum(captchaProviders);
export type CaptchaProvider = z.infer<typeof captchaProviderSchema>;

export const captchaConfigResponseSchema = z.object({
  provider: captchaProviderSchema,
  // reCAPTCHA's public site key; absent for ALTCHA.
  siteKey: z.string().optional(),
});
export type CaptchaConfigResponse = z.infer<typeof captchaConfigResponseSchema>;

// GET /api/v1/captcha/challenge: a fresh ALTCHA challenge (the widget's `challengeurl`). The widget's
// solution, a base64 JSON string, is what goes in `ReCaptchaResponse`.
export const altchaChallengeResponseSchema = z.object({
  algorithm: z.enum(['SHA-1', 'SHA-256', 'SHA-512']),
  challenge: z.string(),
  maxnumber: z.number().int().optional(),
  salt: z.string(),
  signature: z.string(),
});
export type AltchaChallengeResponse = z.infer<typeof altchaChallengeResponseSchema>;
