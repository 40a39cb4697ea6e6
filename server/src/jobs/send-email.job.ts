import type { Container } from '../container';
import type { sendEmailPayloadSchema } from './mail-work';
import { sendEmailQueue } from './mail-work';
import type { JobDefinition } from './queue';

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
