// The SMTP server is down for an hour: the calls that send mail still answer at once, the mail they
// queue waits (no retry budget runs out, nothing is lost), and every mail leaves once, within the
// back-off's cap of the server's return. Time is scaled down thirty-fold: MAIL_RETRY_DELAY_SECONDS=1
// stands for the default 30 s, so the two-minute outage here is the default's hour and the 10 s
// cap its five minutes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createUser, logIn } from '../helper';
import { createMailTestContext, waitForMailJobs, type MailTestContext } from '../mailbox';

const retryDelaySeconds = 1;
const scale = 30;
const outageMs = (3_600 / scale) * 1_000;
const retryCapMs = 10 * retryDelaySeconds * 1_000;

let context: MailTestContext;

beforeAll(async () => {
  context = await createMailTestContext({ MAIL_RETRY_DELAY_SECONDS: String(retryDelaySeconds) });
});
afterAll(() => context.close());

async function countMailJobs(): Promise<{ state: string; count: number; retries: number }[]> {
  const { rows } = await context.container.database.pool.query<{
    state: string;
    count: number;
    retries: number;
  }>(
    `select state, count(*)::int as count, max(retry_count)::int as retries from pgboss.job
     where name = 'send-email' group by state`,
  );
  return rows;
}

describe('SMTP down for an hour', () => {
  it(
    'loses no mail: it waits, then leaves once, soon after the server is back',
    async () => {
      const inviter = await createUser(context);
      const token = await logIn(context, inviter);
      const forgetful = await createUser(context);
      const colleague = `colleague-${Date.now()}@example.com`;

      await context.mailbox.goDown();
      const invitation = await context.app.inject({
        method: 'POST',
        url: `/api/v1/colleague?emailAddress=${encodeURIComponent(colleague)}`,
        headers: { ...bearer(token), 'content-type': 'application/json' },
      });
      const reset = await context.app.inject({
        method: 'POST',
        url: '/api/v1/customerprofile/password/reset',
        payload: { EmailAddress: forgetful.email },
        remoteAddress: '10.70.0.1',
      });
      // The callers are answered at once: the mail is the job thread's to deliver.
      expect(invitation.statusCode).toBe(200);
      expect(reset.statusCode).toBe(200);

      await new Promise((resolve) => setTimeout(resolve, outageMs));
      const duringOutage = await countMailJobs();
      expect(duringOutage.find((row) => row.state === 'failed')).toBeUndefined();
      const waiting = duringOutage.find((row) => row.state === 'retry');
      expect(waiting?.count).toBe(2);
      // Far more attempts than the eight an uncapped back-off allowed over its whole span.
      expect(waiting?.retries).toBeGreaterThan(8);

      const backAt = Date.now();
      await context.mailbox.comeBack();
      const [invitationMail, resetMail] = await Promise.all([
        context.mailbox.nextMailTo(colleague, retryCapMs + 10_000),
        context.mailbox.nextMailTo(forgetful.email, retryCapMs + 10_000),
      ]);
      expect(Date.now() - backAt).toBeLessThan(retryCapMs + 5_000);
      expect(invitationMail.link).toMatch(/^http:\/\/cloudtrim\.test\/verify\?/);
      expect(resetMail.link).toMatch(/^http:\/\/cloudtrim\.test\/ResetPassword\?/);

      await waitForMailJobs(context);
      expect(context.mailbox.mailsTo(colleague)).toHaveLength(1);
      expect(context.mailbox.mailsTo(forgetful.email)).toHaveLength(1);
      expect((await countMailJobs()).find((row) => row.state === 'failed')).toBeUndefined();
    },
    outageMs + 60_000,
  );
});
