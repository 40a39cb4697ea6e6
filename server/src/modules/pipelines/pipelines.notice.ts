// The texts a pipeline leaves: its name in Recent Activity, the mail that tells the team an action waits
// for approval, and a notify pipeline's mail.
import type { PipelineAction } from '@cloudtrim/contracts/pipelines';
import { pipelineActionLabels } from '@cloudtrim/contracts/pipelines';
import { escapeHtml, type MailContent } from '../mail/mail.templates';

// Recent Activity's SERVICE NAME column for everything a pipeline does.
export function describePipelineService(pipelineName: string): string {
  return `Pipeline: ${pipelineName}`;
}

export interface ApprovalNotice {
  pipelineName: string;
  action: PipelineAction;
  resourceNames: string[];
  proposedBy: string;
  runsAfter: Date;
  link: string;
}

export function describeApprovalNotice(notice: ApprovalNotice): string {
  const count = notice.resourceNames.length;
  return `${pipelineActionLabels[notice.action.type]} of ${count} resource${count === 1 ? '' : 's'} (${notice.resourceNames.join(', ')}) waits for a colleague's approval; it runs no earlier than ${notice.runsAfter.toISOString()}.`;
}

export function renderApprovalMail(notice: ApprovalNotice): MailContent {
  return renderMail(
    `Approval needed: pipeline ${toSingleLine(notice.pipelineName)}`,
    [
      describeApprovalNotice(notice),
      `Proposed by ${notice.proposedBy}. Any other member of the team can approve or reject it.`,
    ],
    notice.link,
  );
}

// A notify pipeline's run: the resources it matched, to every member.
export function renderNotifyMail(pipelineName: string, resourceNames: string[], link: string): MailContent {
  const count = resourceNames.length;
  return renderMail(
    `Pipeline ${toSingleLine(pipelineName)}: ${count} resource${count === 1 ? '' : 's'} matched`,
    [`The pipeline matched ${resourceNames.join(', ')}.`],
    link,
  );
}

function renderMail(subject: string, lines: string[], link: string): MailContent {
  const paragraphs = lines.map(toSingleLine);
  const text = [
    subject,
    '',
    ...paragraphs.flatMap((paragraph) => [paragraph, '']),
    `Review it: ${link}`,
  ].join('\n');
  const href = escapeHtml(link);
  const html = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;font-family:Segoe UI,Helvetica,Arial,sans-serif;color:#1f2937">
<h1 style="font-size:20px">${escapeHtml(subject)}</h1>
${paragraphs.map((paragraph) => `<p style="line-height:1.5">${escapeHtml(paragraph)}</p>`).join('\n')}
<p><a href="${href}" style="display:inline-block;padding:12px 20px;background:#0b3d91;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:600">Review it</a></p>
</body>
</html>`;
  return { subject, text, html, link };
}

// Names are typed by users: they must not bring extra lines into a mail.
function toSingleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
