import { z } from 'zod';
import type { Container } from '../container';
import type { JobDefinition } from './queue';

// The body is sealed (AES-256-GCM with ENCRYPTION_KEY): it carries a one-time link, and pg-boss keeps
// payloads in its tables for days.
export const sendEmailPayloadSchema = z.object({
  to: z.email(),
  subject: z.string().min(1),
  sealedBody: z.string().min(1),
});
export type SendEmailPayload = z.infer<typeof sendEmailPayloadSchema>;

export const sendEmailQueue = { name: 'send-email', payload: sendEmailPayloadSchema };

// A failed delivery is retried with exponential back-off (MAIL_RETRY_DELAY_SECONDS, then about twice
// as long each time): at the default 30 s, eight retries span two to four hours.
export function sendEmailJob(container: Container): JobDefinition<typeof sendEmailPayloadSchema> {
  return {
    ...sendEmailQueue,
    retryLimit: 8,
    retryDelaySeconds: container.config.mailRetryDelaySeconds,
    expireInSeconds: 120,
    // Someone is waiting for this mail to follow its link.
    pollingIntervalSeconds: 0.5,
    handle: (payload) => container.mail.deliver(payload),
  };
}
