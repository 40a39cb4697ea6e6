import { z } from 'zod';
import type { Container } from '../container';
import type { JobDefinition } from './queue';

const payload = z.object({});

// Hourly housekeeping: old rate-limit windows, long-expired sessions, captchas and links.
export function purgeExpiredJob(container: Container): JobDefinition<typeof payload> {
  return {
    name: 'purge-expired',
    payload,
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
