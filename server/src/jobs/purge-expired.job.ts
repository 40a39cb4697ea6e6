import { z } from 'zod';
import type { Container } from '../container';
import type { JobDefinition } from './queue';

const payload = z.object({});

// Hourly housekeeping: old rate-limit windows and long-expired sessions.
export function purgeExpiredJob(container: Container): JobDefinition<typeof payload> {
  return {
    name: 'purge-expired',
    payload,
    retryLimit: 2,
    handle: async () => {
      await container.throttle.purgeExpired();
      await container.auth.purgeExpiredSessions();
    },
  };
}
