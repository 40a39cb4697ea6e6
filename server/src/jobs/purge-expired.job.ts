import { z } from 'zod';
import type { Container } from '../container';
import type { JobDefinition } from '../queue/queue';

export const purgeExpiredJob = { name: 'purge-expired', payload: z.object({}) };

// Hourly housekeeping: old rate-limit windows, long-expired sessions, captchas and links.
export function createPurgeExpiredJob({
  throttle,
  auth,
  captcha,
  signup,
  password,
}: Pick<Container, 'throttle' | 'auth' | 'captcha' | 'signup' | 'password'>): JobDefinition<
  typeof purgeExpiredJob.payload
> {
  return {
    ...purgeExpiredJob,
    retryLimit: 2,
    handle: async () => {
      await throttle.purgeExpired();
      await auth.purgeExpiredSessions();
      await captcha.purgeExpired();
      await signup.purgeExpired();
      await password.purgeExpired();
    },
  };
}
