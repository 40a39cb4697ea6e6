import { z } from 'zod';
import type { Container } from '../container';
import type { JobDefinition } from './queue';

export const purgeExpiredJob = { name: 'purge-expired', payload: z.object({}) };

// Hourly housekeeping: old rate-limit windows, long-expired sessions, captchas and links.
export function createPurgeExpiredJob(container: Container): JobDefinition<typeof purgeExpiredJob.payload> {
  return {
    ...purgeExpiredJob,
    retryLimit: 2,
    handle: async () => {
      await container.throttle.purgeExpired();
      await container.auth.purgeExpiredSessions();
      await container.captcha.purgeExpired();
      await container.signup.purgeExpired();
      await container.password.purgeExpired();
    },
  };
}
