// A real SMTP server inside the test process: every mail it accepts is parsed (mailparser) and kept,
// and a test awaits the next mail to an address. It can refuse deliveries to exercise retries.
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { createTestContext, type TestContext } from './helper';

export interface ReceivedMail {
  to: string;
  from: string;
  subject: string;
  text: string;
  html: string;
  // The first link of the plain-text body.
  link: string;
}

interface Waiter {
  address: string;
  resolve(mail: ReceivedMail): void;
}

export class Mailbox {
  private readonly unread: ReceivedMail[] = [];
  private readonly received: ReceivedMail[] = [];
  private readonly waiters: Waiter[] = [];
  private refusalsLeft = 0;
  refusedCount = 0;

  private server = this.createServer();
  private port = 0;

  private constructor() {}

  static async start(): Promise<Mailbox> {
    const mailbox = new Mailbox();
    await mailbox.listen(0);
    return mailbox;
  }

  // The SMTP server goes away: connections are refused until comeBack().
  goDown(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  // A new server on the same port, as an SMTP host back from an outage.
  async comeBack(): Promise<void> {
    this.server = this.createServer();
    await this.listen(this.port);
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.port}`;
  }

  // The next `count` deliveries are refused with a temporary failure (451).
  refuseNext(count = 1): void {
    this.refusalsLeft += count;
  }

  // Resolves with the oldest unread mail to the address, waiting for it if none has arrived yet.
  nextMailTo(address: string, timeoutMs = 20_000): Promise<ReceivedMail> {
    const recipient = address.toLowerCase();
    const index = this.unread.findIndex((mail) => mail.to === recipient);
    if (index >= 0) return Promise.resolve(this.unread.splice(index, 1)[0]!);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        address: recipient,
        resolve: (mail) => {
          clearTimeout(timer);
          resolve(mail);
        },
      };
      const timer = setTimeout(() => {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        reject(new Error(`no mail to ${address} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  // Every mail delivered to the address so far, read or not.
  mailsTo(address: string): ReceivedMail[] {
    return this.received.filter((mail) => mail.to === address.toLowerCase());
  }

  close(): Promise<void> {
    return this.server.server.listening ? this.goDown() : Promise.resolve();
  }

  private createServer(): SMTPServer {
    return new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      closeTimeout: 1_000,
      onData: (stream, session, callback) => {
        simpleParser(stream)
          .then((parsed) => this.accept(parsed, session.envelope.rcptTo, callback))
          .catch(callback);
      },
    });
  }

  private async listen(port: number): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(port, '127.0.0.1', resolve));
    const address = this.server.server.address();
    this.port = typeof address === 'object' && address ? address.port : 0;
  }

  private accept(
    parsed: Awaited<ReturnType<typeof simpleParser>>,
    recipients: Array<{ address: string }>,
    callback: (error?: Error | null) => void,
  ): void {
    if (this.refusalsLeft > 0) {
      this.refusalsLeft -= 1;
      this.refusedCount += 1;
      callback(Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 }));
      return;
    }
    const text = parsed.text ?? '';
    for (const recipient of recipients) {
      const mail: ReceivedMail = {
        to: recipient.address.toLowerCase(),
        from: parsed.from?.text ?? '',
        subject: parsed.subject ?? '',
        text,
        html: typeof parsed.html === 'string' ? parsed.html : '',
        link: /https?:\/\/\S+/.exec(text)?.[0] ?? '',
      };
      this.received.push(mail);
      const waiter = this.waiters.find((candidate) => candidate.address === mail.to);
      if (waiter) {
        this.waiters.splice(this.waiters.indexOf(waiter), 1);
        waiter.resolve(mail);
      } else {
        this.unread.push(mail);
      }
    }
    callback();
  }
}

// Waits until no mail or password-reset job is queued, retrying or running, so that a test can
// assert that a mail was NOT sent.
export async function waitForMailJobs(context: TestContext, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const { rows } = await context.container.database.pool.query<{ count: string }>(
      `select count(*) from pgboss.job
        where name in ('send-email', 'send-password-reset') and state in ('created', 'retry', 'active')`,
    );
    if (rows[0]?.count === '0') return;
    if (Date.now() > deadline) throw new Error('mail jobs still pending');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface MailTestContext extends TestContext {
  mailbox: Mailbox;
  // How far the app's clock runs ahead of the real one; tests move it when time must pass.
  clock: { offsetMs: number };
}

// The app with its workers on, mailing to a Mailbox, on a clock the test can move forward.
export async function createMailTestContext(
  environment: Record<string, string> = {},
): Promise<MailTestContext> {
  const mailbox = await Mailbox.start();
  const clock = { offsetMs: 0 };
  const context = await createTestContext({
    hasWorkers: true,
    environment: { SMTP_URL: mailbox.url, ...environment },
    now: () => new Date(Date.now() + clock.offsetMs),
  });
  return {
    ...context,
    mailbox,
    clock,
    close: async () => {
      await context.close();
      await mailbox.close();
    },
  };
}
