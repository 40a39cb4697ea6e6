import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { altchaChallengeResponseSchema, captchaConfigResponseSchema } from '@cloudtrim/contracts/captcha';
import { errorResponseSchema } from '@cloudtrim/contracts/common';
import type { CaptchaService } from './captcha.service';

export function captchaRoutes(captcha: CaptchaService): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/v1/captcha/config',
      {
        config: { isPublic: true },
        schema: {
          tags: ['sign-up'],
          summary: 'Which captcha the sign-up form shows, and reCAPTCHA’s site key',
          response: { 200: captchaConfigResponseSchema },
        },
      },
      () => captcha.getConfig(),
    );

    app.get(
      '/api/v1/captcha/challenge',
      {
        config: { isPublic: true },
        schema: {
          tags: ['sign-up'],
          summary: 'A fresh ALTCHA challenge; its solution goes in ReCaptchaResponse',
          response: { 200: altchaChallengeResponseSchema, 404: errorResponseSchema },
        },
      },
      async (_request, reply) => {
        const challenge = await captcha.createChallenge();
        return reply.header('cache-control', 'no-store').send(challenge);
      },
    );
  };
}
