// The one module that sends mail: SMTP through nodemailer when SMTP_URL is set, otherwise the log,
// so a newcomer can follow every link without a mail server.
import nodemailer from 'nodemailer';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  // The link the mail exists to deliver; the log transport writes it out.
  link: string;
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
}

export interface MailLogger {
  info(object: object, message: string): void;
}

export interface MailTransportOptions {
  smtpUrl: string | undefined;
  mailFrom: string;
}

export function createMailTransport(options: MailTransportOptions, log: MailLogger): MailTransport {
  return options.smtpUrl
    ? new SmtpMailTransport(options.smtpUrl, options.mailFrom)
    : new LogMailTransport(log);
}

export class SmtpMailTransport implements MailTransport {
  private readonly transporter: nodemailer.Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    // Short timeouts: a stuck server fails the job, which pg-boss retries later, instead of holding a worker.
    this.transporter = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    });
  }

  async send(mail: OutgoingMail): Promise<void> {
    await this.transporter.sendMail({
      from: this.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
    });
  }
}

export class LogMailTransport implements MailTransport {
  constructor(private readonly log: MailLogger) {}

  async send(mail: OutgoingMail): Promise<void> {
    this.log.info(
      { mail: { to: mail.to, subject: mail.subject, link: mail.link } },
      'mail written to the log (SMTP_URL is not set)',
    );
  }
}
