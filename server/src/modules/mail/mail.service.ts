import { z } from 'zod';
import { sendEmailQueue, type SendEmailPayload } from '../../queue/mail-work';
import type { Transaction } from '../../db/transaction';
import type { JobQueue } from '../../queue/queue';
import type { SecretBox } from '../../lib/secret-box';
import type { MailContent } from './mail.templates';
import type { MailTransport } from './mail.transport';

const sealedBodySchema = z.object({ text: z.string(), html: z.string(), link: z.string() });

// Mail goes through the queue: a slow or failing SMTP server neither delays the request that asked
// for it nor loses it (pg-boss retries the delivery with back-off).
export class MailService {
  constructor(
    private readonly queue: JobQueue,
    private readonly box: SecretBox,
    private readonly transport: MailTransport,
  ) {}

  async enqueue(to: string, content: MailContent): Promise<void> {
    await this.queue.send(sendEmailQueue, this.seal(to, content));
  }

  // Many mails in one statement; with `db` they are sent only if the caller's transaction commits.
  async enqueueMany(
    mails: { to: string; content: MailContent }[],
    options: { db?: Transaction } = {},
  ): Promise<void> {
    await this.queue.sendMany(
      sendEmailQueue,
      mails.map((mail) => this.seal(mail.to, mail.content)),
      options,
    );
  }

  private seal(to: string, content: MailContent): SendEmailPayload {
    const body = { text: content.text, html: content.html, link: content.link };
    return { to, subject: content.subject, sealedBody: this.box.encrypt(JSON.stringify(body)) };
  }

  async deliver(payload: SendEmailPayload): Promise<void> {
    const body = sealedBodySchema.parse(JSON.parse(this.box.decrypt(payload.sealedBody)));
    await this.transport.send({ to: payload.to, subject: payload.subject, ...body });
  }
}
