// A new critical or high finding as a `security` alert: one per finding (its id is the key), in the
// Alerts menu and Recent Activity, mailed to the members who asked for security mails.
import type { AlertsService } from '../alerts/alerts.service';
import { escapeHtml, type MailContent } from '../mail/mail.templates';
import type { SecurityAlertSink } from './security.service';

function renderFindingMail(subject: string, lines: readonly string[], link: string): MailContent {
  const text = [subject, '', ...lines.flatMap((line) => [line, '']), `Review it: ${link}`].join('\n');
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;font-family:Segoe UI,Helvetica,Arial,sans-serif;color:#1f2937">
<h1 style="font-size:20px">${escapeHtml(subject)}</h1>
${lines.map((line) => `<p style="line-height:1.5">${escapeHtml(line)}</p>`).join('\n')}
<p><a href="${escapeHtml(link)}" style="display:inline-block;padding:12px 20px;background:#0b3d91;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">Review it</a></p>
</body>
</html>`;
  return { subject, text, html, link };
}

export class SecurityAlerts implements SecurityAlertSink {
  constructor(
    private readonly alerts: Pick<AlertsService, 'raise'>,
    private readonly publicUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async raiseFinding(alert: Parameters<SecurityAlertSink['raiseFinding']>[0]): Promise<void> {
    const severity = alert.severity === 'critical' ? 'Critical' : 'High';
    const title = `${severity}: ${alert.title} on ${alert.resourceName}`.replace(/[\r\n]+/g, ' ');
    const link = `${this.publicUrl}/security?finding=${alert.findingId}`;
    await this.alerts.raise({
      teamId: alert.teamId,
      kind: 'security',
      key: `security:${alert.findingId}`,
      title,
      scope: alert.resourceName,
      filter: { TenantId: alert.tenantId },
      day: this.now().toISOString().slice(0, 10),
      amount: 0,
      expected: null,
      currency: 'USD',
      drivers: [],
      tenantId: alert.tenantId,
      mailKind: 'security',
      mail: renderFindingMail(`Security finding: ${title}`, [alert.evidence.replace(/[\r\n]+/g, ' ')], link),
      activity: { serviceName: 'Security', text: `New ${alert.severity} finding: ${title}` },
    });
  }
}
