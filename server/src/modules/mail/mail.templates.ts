// The mails Cloudtrim sends, as plain text and HTML. Pure functions: the services pass the link and
// whatever the mail names; nothing here is sent.

export interface MailContent {
  subject: string;
  text: string;
  html: string;
  link: string;
}

export interface InvitationMailInput {
  link: string;
  validFor: string;
  inviterName: string;
  inviterEmail: string;
  teamName: string;
}

export function renderVerifyEmail(link: string, validFor: string): MailContent {
  return renderMail({
    subject: 'Confirm your email address for Cloudtrim',
    heading: 'Welcome to Cloudtrim',
    paragraphs: ['Please confirm your email address to finish creating your Cloudtrim account.'],
    buttonText: 'Confirm my email address',
    link,
    footer: `This link works once and expires in ${validFor}. If you did not sign up for Cloudtrim, you can ignore this email.`,
  });
}

export function renderInvitationEmail(input: InvitationMailInput): MailContent {
  const inviter = `${toSingleLine(input.inviterName)} (${input.inviterEmail})`;
  return renderMail({
    subject: 'You have been invited to join a team on Cloudtrim',
    heading: 'Join your team on Cloudtrim',
    paragraphs: [
      `${inviter} invited you to join the team "${toSingleLine(input.teamName)}" on Cloudtrim, where the team watches its Azure resources and cuts their cost.`,
      'Follow the link to create your account; you will join the team at once.',
    ],
    buttonText: 'Accept the invitation',
    link: input.link,
    footer: `This invitation works once and expires in ${input.validFor}. If you did not expect it, you can ignore this email.`,
  });
}

export function renderPasswordResetEmail(link: string, validFor: string): MailContent {
  return renderMail({
    subject: 'Reset your Cloudtrim password',
    heading: 'Reset your password',
    paragraphs: ['We received a request to reset the password of your Cloudtrim account.'],
    buttonText: 'Choose a new password',
    link,
    footer: `This link works once and expires in ${validFor}. If you did not ask for it, you can ignore this email: your password stays as it is.`,
  });
}

export interface AlertMailInput {
  kind: 'budget' | 'anomaly';
  title: string;
  scope: string;
  // What happened, in a sentence: the amounts, the day.
  summary: string;
  link: string;
}

// A budget threshold crossed or a cost anomaly found: what, where, and a link to /analysis filtered to it.
export function renderAlertEmail(input: AlertMailInput): MailContent {
  const isBudget = input.kind === 'budget';
  return renderMail({
    subject: `${isBudget ? 'Budget alert' : 'Cost anomaly'}: ${toSingleLine(input.title)}`,
    heading: toSingleLine(input.title),
    paragraphs: [toSingleLine(input.summary), `Scope: ${toSingleLine(input.scope)}.`],
    buttonText: 'See the costs',
    link: input.link,
    footer: `You receive this mail as a member of your Cloudtrim team. You can turn ${isBudget ? 'budget' : 'anomaly'} mails off on your profile.`,
  });
}

// '30 minutes', '24 hours', '7 days': how the mails word a link's lifetime. Days only from two on.
export function describeDuration(seconds: number): string {
  const units: Array<[string, number]> = [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, unitSeconds] of units) {
    if (seconds >= (unit === 'day' ? 2 : 1) * unitSeconds && seconds % unitSeconds === 0) {
      const count = seconds / unitSeconds;
      return `${count} ${unit}${count === 1 ? '' : 's'}`;
    }
  }
  return `${seconds} seconds`;
}

interface MailLayout {
  subject: string;
  heading: string;
  paragraphs: string[];
  buttonText: string;
  link: string;
  footer: string;
}

function renderMail(layout: MailLayout): MailContent {
  const text = [
    layout.heading,
    '',
    ...layout.paragraphs.flatMap((paragraph) => [paragraph, '']),
    `${layout.buttonText}: ${layout.link}`,
    '',
    layout.footer,
    '',
    '— Cloudtrim · Unify. Automate. Optimize.',
  ].join('\n');
  const link = escapeHtml(layout.link);
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(layout.subject)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6fa;font-family:Segoe UI,Helvetica,Arial,sans-serif;color:#1f2937">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px">
<tr><td style="padding:20px 32px;background:#0b3d91;border-radius:8px 8px 0 0;color:#ffffff;font-size:22px;font-weight:600">Cloudtrim</td></tr>
<tr><td style="padding:32px">
<h1 style="margin:0 0 16px;font-size:20px">${escapeHtml(layout.heading)}</h1>
${layout.paragraphs.map((paragraph) => `<p style="margin:0 0 16px;line-height:1.5">${escapeHtml(paragraph)}</p>`).join('\n')}
<p style="margin:24px 0"><a href="${link}" style="display:inline-block;padding:12px 20px;background:#0b3d91;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">${escapeHtml(layout.buttonText)}</a></p>
<p style="margin:0 0 16px;line-height:1.5;font-size:13px;color:#4b5563">If the button does not work, copy this address into your browser:<br><a href="${link}" style="color:#0b3d91;word-break:break-all">${link}</a></p>
<p style="margin:0;line-height:1.5;font-size:13px;color:#4b5563">${escapeHtml(layout.footer)}</p>
</td></tr>
<tr><td style="padding:16px 32px;font-size:12px;color:#6b7280">Cloudtrim · Unify. Automate. Optimize.</td></tr>
</table>
</body>
</html>`;
  return { subject: layout.subject, text, html, link: layout.link };
}

// Names and team names are typed by users: they must not bring markup or extra lines into a mail.
export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

function toSingleLine(value: string): string {
  return value.replace(/\s+/g, ' ').trim();
}

// The web's /verify screen takes the whole query string as the token (SPEC §2).
export function buildVerifyLink(publicUrl: string, token: string): string {
  return `${publicUrl}/verify?${token}`;
}

export function buildPasswordResetLink(publicUrl: string, email: string, code: string): string {
  const query = new URLSearchParams({ email, code });
  return `${publicUrl}/ResetPassword?${query.toString()}`;
}
