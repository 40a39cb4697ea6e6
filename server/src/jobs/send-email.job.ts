import type { Container } from '../container';
import type { sendEmailPayloadSchema } from './mail-work';
import { sendEmailQueue } from './mail-work';
import type { JobDefinition } from './queue';

// A failed delivery is retried with exponential back-off (MAIL_RETRY_DELAY_SECONDS, then about twice
// as long each time): at the default 30 s, eight retries span two to four hours.
export function sendEmailJob({
  config,
  mail,
}: Pick<Container, 'config' | 'mail'>): JobDefinition<typeof sendEmailPayloadSchema> {
  return {
    ...sendEmailQueue,
    retryLimit: 8,
    retryDelaySeconds: config.mailRetryDelaySeconds,
    expireInSeconds: 120,
    // Someone is waiting for this mail to follow its link.
    pollingIntervalSeconds: 0.5,
    handle: (payload) => mail.deliver(payload),
  };
}
