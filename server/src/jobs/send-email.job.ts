import type { Container } from '../container';
import type { sendEmailPayloadSchema } from '../queue/mail-work';
import { sendEmailQueue } from '../queue/mail-work';
import type { JobDefinition } from '../queue/queue';

// A failed delivery is retried with back-off from MAIL_RETRY_DELAY_SECONDS, doubling up to ten times
// it: at the default 30 s, retries come at most five minutes apart for about four hours, so mail
// queued during an SMTP outage of an hour is lost by none and leaves within five minutes of the
// server's return (an uncapped back-off could leave it waiting another hour).
const retryDelayCap = 10;
export function createSendEmailJob({
  config,
  mail,
}: Pick<Container, 'config' | 'mail'>): JobDefinition<typeof sendEmailPayloadSchema> {
  return {
    ...sendEmailQueue,
    retryLimit: 50,
    retryDelaySeconds: config.mailRetryDelaySeconds,
    retryDelayMaxSeconds: retryDelayCap * config.mailRetryDelaySeconds,
    expireInSeconds: 120,
    // Someone is waiting for this mail to follow its link.
    pollingIntervalSeconds: 0.5,
    handle: (payload) => mail.deliver(payload),
  };
}
