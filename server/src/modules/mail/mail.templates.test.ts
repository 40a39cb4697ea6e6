import { describe, expect, it } from 'vitest';
import {
  buildPasswordResetLink,
  buildVerifyLink,
  describeDuration,
  escapeHtml,
  renderInvitationEmail,
  renderPasswordResetEmail,
  renderVerifyEmail,
} from './mail.templates';

describe('links', () => {
  it('puts the whole token in the query string of /verify', () => {
    expect(buildVerifyLink('https://app.example.com', 'abc_DEF-123')).toBe(
      'https://app.example.com/verify?abc_DEF-123',
    );
  });

  it('encodes the address and code of /ResetPassword', () => {
    expect(buildPasswordResetLink('https://app.example.com', 'a+b@example.com', 'c0de_-')).toBe(
      'https://app.example.com/ResetPassword?email=a%2Bb%40example.com&code=c0de_-',
    );
  });
});

describe('describeDuration', () => {
  it.each([
    [30 * 60, '30 minutes'],
    [60, '1 minute'],
    [24 * 3600, '24 hours'],
    [3600, '1 hour'],
    [7 * 86_400, '7 days'],
    [90, '90 seconds'],
  ])('words %i seconds as %s', (seconds, text) => {
    expect(describeDuration(seconds)).toBe(text);
  });
});

describe('the mails', () => {
  const link = 'https://app.example.com/ResetPassword?email=a%40b.c&code=xyz';

  it('carry the link in the text and, escaped, in the HTML, with the product’s name', () => {
    for (const mail of [
      renderVerifyEmail(link, '24 hours'),
      renderPasswordResetEmail(link, '30 minutes'),
      renderInvitationEmail({
        link,
        validFor: '7 days',
        inviterName: 'Ada',
        inviterEmail: 'a@b.c',
        teamName: 'Ops',
      }),
    ]) {
      expect(mail.link).toBe(link);
      expect(mail.subject).toContain('Cloudtrim');
      expect(mail.text).toContain(link);
      expect(mail.html).toContain(`href="${link.replaceAll('&', '&amp;')}"`);
      expect(mail.html).toContain('Cloudtrim');
      expect(mail.html).not.toContain(`href="${link}"`);
    }
  });

  it('say how long the link lives', () => {
    expect(renderVerifyEmail(link, '24 hours').text).toContain('expires in 24 hours');
    expect(renderPasswordResetEmail(link, '30 minutes').text).toContain('expires in 30 minutes');
  });

  it('keep names typed by users from bringing markup or extra lines', () => {
    const mail = renderInvitationEmail({
      link,
      validFor: '7 days',
      inviterName: '<b>Eve</b>\nBcc: victim@example.com',
      inviterEmail: 'eve@example.com',
      teamName: '<script>alert(1)</script>',
    });
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>Eve</b>');
    expect(mail.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail.text).toContain('<b>Eve</b> Bcc: victim@example.com (eve@example.com)');
    expect(mail.subject).not.toContain('\n');
  });

  it('escapes the five HTML-special characters', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });
});
