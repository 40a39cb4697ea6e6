import type { Container } from '../container';
import type { sendPasswordResetPayloadSchema } from '../queue/mail-work';
import { sendPasswordResetQueue } from '../queue/mail-work';
import type { JobDefinition } from '../queue/queue';

// A reset request answers at once whatever the address; this job, off the request path, looks the
// account up and mails the link only if there is one, so neither the answer nor its timing tells.
export function createSendPasswordResetJob({
  password,
}: Pick<Container, 'password'>): JobDefinition<typeof sendPasswordResetPayloadSchema> {
  return {
    ...sendPasswordResetQueue,
    retryLimit: 3,
    pollingIntervalSeconds: 0.5,
    handle: ({ email }) => password.sendResetLink(email),
  };
}
