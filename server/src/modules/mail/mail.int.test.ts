import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../test/helper';
import { Mailbox, waitForMailJobs } from '../../../test/mailbox';
import { renderVerifyEmail } from './mail.templates';

let context: TestContext;
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await Mailbox.start();
  context = await createTestContext({
    hasWorkers: true,
    environment: {
      SMTP_URL: mailbox.url,
      MAIL_RETRY_DELAY_SECONDS: '1',
      MAIL_FROM: 'Cloudtrim <mail@cloudtrim.test>',
    },
  });
});
afterAll(async () => {
  await context.close();
  await mailbox.close();
});

describe('the send-email job', () => {
  it('delivers HTML and plain text from MAIL_FROM', async () => {
    const link = 'http://cloudtrim.test/verify?first-token';
    await context.container.mail.enqueue('first@example.com', renderVerifyEmail(link, '24 hours'));
    const mail = await mailbox.nextMailTo('first@example.com');
    expect(mail.from).toMatch(/Cloudtrim.*<mail@cloudtrim\.test>/);
    expect(mail.link).toBe(link);
    expect(mail.html).toContain(`href="${link}"`);
  });

  it('retries a delivery the SMTP server refused, without losing or doubling the mail', async () => {
    mailbox.refuseNext(1);
    const refusedBefore = mailbox.refusedCount;
    const started = Date.now();
    await context.container.mail.enqueue(
      'retry@example.com',
      renderVerifyEmail('http://cloudtrim.test/verify?retry-token', '24 hours'),
    );
    const mail = await mailbox.nextMailTo('retry@example.com');
    expect(mailbox.refusedCount).toBe(refusedBefore + 1);
    expect(mail.subject).toBe('Confirm your email address for Cloudtrim');
    // pg-boss waited MAIL_RETRY_DELAY_SECONDS (with back-off) before the second attempt.
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    await waitForMailJobs(context);
    expect(mailbox.mailsTo('retry@example.com')).toHaveLength(1);
  });

  it('keeps the one-time link out of the job table: the body is sealed', async () => {
    const link = 'http://cloudtrim.test/verify?sealed-secret-token';
    await context.container.mail.enqueue('sealed@example.com', renderVerifyEmail(link, '24 hours'));
    await mailbox.nextMailTo('sealed@example.com');
    const { rows } = await context.container.database.pool.query<{ data: object }>(
      "select data from pgboss.job where name = 'send-email'",
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(JSON.stringify(row.data)).not.toContain('token');
    expect(rows.map((row) => row.data)).toContainEqual(
      expect.objectContaining({ to: 'sealed@example.com', sealedBody: expect.any(String) }),
    );
  });
});
