import { describe, expect, it } from 'vitest';
import { createMailTransport, LogMailTransport, SmtpMailTransport } from './mail.transport';

const mail = {
  to: 'ada@example.com',
  subject: 'Reset your Cloudtrim password',
  text: 'text',
  html: '<p>html</p>',
  link: 'http://localhost:8080/ResetPassword?email=ada%40example.com&code=abc',
};

describe('createMailTransport', () => {
  it('sends through SMTP when SMTP_URL is set, otherwise to the log', () => {
    const log = { info: () => {} };
    expect(createMailTransport({ smtpUrl: 'smtp://127.0.0.1:2525', mailFrom: 'a@b.c' }, log)).toBeInstanceOf(
      SmtpMailTransport,
    );
    expect(createMailTransport({ smtpUrl: undefined, mailFrom: 'a@b.c' }, log)).toBeInstanceOf(
      LogMailTransport,
    );
  });
});

describe('LogMailTransport', () => {
  it('writes the recipient, subject and link at info level, not the bodies', async () => {
    const entries: Array<{ object: object; message: string }> = [];
    await new LogMailTransport({ info: (object, message) => entries.push({ object, message }) }).send(mail);
    expect(entries).toEqual([
      {
        object: { mail: { to: mail.to, subject: mail.subject, link: mail.link } },
        message: expect.stringContaining('SMTP_URL'),
      },
    ]);
  });
});
