// The texts a pipeline leaves: its name in Recent Activity, the alerts (top bar, Recent Activity, mail)
// that tell the team an action waits for approval or a run failed, and a notify pipeline's mail.
import { formatDollars, roundCents } from '@cloudtrim/contracts/money';
import type { PipelineAction, PipelineActionType } from '@cloudtrim/contracts/pipelines';
import { pipelineActionLabels } from '@cloudtrim/contracts/pipelines';
import type { Transaction } from '../../db/transaction';
import type { AlertsService, NewAlert } from '../alerts/alerts.service';
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

// A resource waiting for approval, as the alert names it.
export interface WaitingResource {
  name: string;
  // Its ARM type, `Microsoft.Compute/disks`.
  type: string;
  annualSaving: number;
}

export interface ApprovalAlertInput {
  teamId: string;
  approvalId: string;
  notice: ApprovalNotice;
  resources: WaitingResource[];
  // Every member but the proposer: a colleague must decide.
  recipients: string[];
  proposedAt: Date;
}

// What a pipeline does to a resource, as the alert's sentence says it: 'waits for approval to stop …'.
const actionVerbs: Readonly<Record<PipelineActionType, string>> = {
  notify: 'notify about',
  tag: 'tag',
  stop: 'stop',
  deallocate: 'deallocate',
  start: 'start',
  applyRecommendation: 'apply the recommendation of',
  delete: 'delete',
};

const resourceNouns: Readonly<Record<string, [string, string]>> = {
  'microsoft.compute/virtualmachines': ['VM', 'VMs'],
  'microsoft.compute/disks': ['disk', 'disks'],
  'microsoft.network/publicipaddresses': ['public IP', 'public IPs'],
  'microsoft.web/serverfarms': ['App Service plan', 'App Service plans'],
  'microsoft.sql/servers/databases': ['database', 'databases'],
};
const shownResourceCount = 3;

// 'Pipeline Disk clean-up waits for approval to delete disk data-7', or '… to stop 4 VMs (web-1, web-2,
// web-3 and 1 more)'.
export function describeApprovalTitle(
  pipelineName: string,
  action: PipelineAction,
  resources: readonly WaitingResource[],
): string {
  return toSingleLine(
    `Pipeline ${pipelineName} waits for approval to ${actionVerbs[action.type]} ${describeResources(resources)}`,
  );
}

// 'Pipeline Night stop failed to stop VM web-1', or '… failed to stop 3 VMs (web-1, web-2 and web-3)'.
export function describeFailedRunTitle(
  pipelineName: string,
  action: PipelineAction,
  resources: readonly Pick<WaitingResource, 'name' | 'type'>[],
): string {
  return toSingleLine(
    `Pipeline ${pipelineName} failed to ${actionVerbs[action.type]} ${describeResources(resources)}`,
  );
}

// 'VM web-1', or '4 VMs (web-1, web-2, web-3 and 1 more)'; 'resources' when their types differ.
function describeResources(resources: readonly Pick<WaitingResource, 'name' | 'type'>[]): string {
  const types = new Set(resources.map((resource) => resource.type.toLowerCase()));
  const [singular, plural] =
    types.size === 1
      ? (resourceNouns[[...types][0]!] ?? ['resource', 'resources'])
      : ['resource', 'resources'];
  const names = resources.map((resource) => resource.name);
  return names.length === 1
    ? `${singular} ${names[0]}`
    : `${names.length} ${plural} (${describeNames(names)})`;
}

function describeNames(names: readonly string[]): string {
  if (names.length <= shownResourceCount) {
    return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  }
  return `${names.slice(0, shownResourceCount).join(', ')} and ${names.length - shownResourceCount} more`;
}

// The approval's alert, raised in the transaction that records the proposal: in the top bar until a
// colleague decides (settleApprovalAlert), in Recent Activity under the pipeline's name, and mailed to
// every member but the proposer, once, with the approval.
export async function raiseApprovalAlert(
  alerts: Pick<AlertsService, 'raise'>,
  transaction: Transaction,
  input: ApprovalAlertInput,
): Promise<void> {
  await alerts.raise(createApprovalAlert(input), { db: transaction });
}

export function createApprovalAlert(input: ApprovalAlertInput): NewAlert {
  const { notice } = input;
  const saving = input.resources.reduce((total, resource) => total + resource.annualSaving, 0);
  return {
    teamId: input.teamId,
    kind: 'approval',
    key: approvalAlertKey(input.approvalId),
    title: describeApprovalTitle(notice.pipelineName, notice.action, input.resources),
    scope: `Proposed by ${notice.proposedBy}; runs no earlier than ${notice.runsAfter.toISOString()}`,
    filter: {},
    day: input.proposedAt.toISOString().slice(0, 10),
    amount: roundCents(saving),
    expected: null,
    currency: 'USD',
    drivers: [],
    mailKind: 'approval',
    recipients: input.recipients,
    mail: renderApprovalMail(notice),
    activity: {
      serviceName: describePipelineService(notice.pipelineName),
      text: describeApprovalNotice(notice),
    },
  };
}

// An approval decided (approved or rejected) settles its alert, in the decision's transaction.
export async function settleApprovalAlert(
  alerts: Pick<AlertsService, 'acknowledgeByKey'>,
  transaction: Transaction,
  approval: { teamId: string; id: string },
  decidedBy: string,
): Promise<void> {
  await alerts.acknowledgeByKey(approval.teamId, approvalAlertKey(approval.id), decidedBy, {
    db: transaction,
  });
}

function approvalAlertKey(approvalId: string): string {
  return `approval:${approvalId}`;
}

// A resource a run failed on: its item's name, ARM id and saving, and why (the executor's reason, or
// the sentence automation refused the apply with).
export interface FailedResource {
  name: string;
  armId: string;
  annualSaving: number;
  detail: string;
}

export interface FailedRunAlertInput {
  teamId: string;
  runId: string;
  pipelineName: string;
  action: PipelineAction;
  // The run's items that failed, in their order.
  failures: FailedResource[];
  startedAt: Date;
  link: string;
}

// The failures the top bar's line names; Recent Activity and the mail name more.
const shownFailureCount = 3;
const listedFailureCount = 10;

// A failed run's alert, raised in the transaction that marks the run failed: in the top bar until
// acknowledged, in Recent Activity under the pipeline's name, mailed to every member (whatever their
// cost-mail preferences: a change the team counts on was not made). Once per run: a later failure of
// the same run (a change its executor fails afterwards) brings the alert up to date without a second
// mail or entry.
export async function raiseFailedRunAlert(
  alerts: Pick<AlertsService, 'raise' | 'reviseByKey'>,
  transaction: Transaction,
  input: FailedRunAlertInput,
): Promise<void> {
  const alert = createFailedRunAlert(input);
  if (await alerts.raise(alert, { db: transaction })) return;
  await alerts.reviseByKey(alert.teamId, alert.key, alert, { db: transaction });
}

export function createFailedRunAlert(input: FailedRunAlertInput): NewAlert {
  const saving = input.failures.reduce((total, failure) => total + failure.annualSaving, 0);
  const amount = roundCents(saving);
  const resources = input.failures.map((failure) => ({
    name: failure.name,
    type: readArmType(failure.armId),
  }));
  const title = describeFailedRunTitle(input.pipelineName, input.action, resources);
  const text = describeFailedRunNotice(input, listedFailureCount);
  return {
    teamId: input.teamId,
    kind: 'pipeline',
    key: `pipeline-failed:${input.runId}`,
    title,
    scope: describeFailures(input.failures, shownFailureCount),
    filter: {},
    day: input.startedAt.toISOString().slice(0, 10),
    amount,
    expected: null,
    currency: 'USD',
    drivers: [],
    mailKind: 'pipeline',
    mail: renderMail(
      `Pipeline failed: ${toSingleLine(input.pipelineName)}`,
      [
        `${title}.`,
        text,
        `Not saving ${formatDollars(amount)} a year until it is done. Each resource's automation log says what happened.`,
      ],
      input.link,
    ),
    activity: { serviceName: describePipelineService(input.pipelineName), text },
  };
}

// 'The run of 2026-11-26T03:00:00.000Z failed on 1 resource: web-1 (the reason).'
function describeFailedRunNotice(input: FailedRunAlertInput, shown: number): string {
  const count = input.failures.length;
  return `The run of ${input.startedAt.toISOString()} failed on ${count} resource${count === 1 ? '' : 's'}: ${input.failures
    .slice(0, shown)
    .map((failure) => `${failure.name} (${toSingleLine(failure.detail)})`)
    .join('; ')}${count > shown ? `; and ${count - shown} more` : ''}.`;
}

// 'web-1: the reason', or 'web-1: …; web-2: …; web-3: … and 2 more'.
function describeFailures(failures: readonly FailedResource[], shown: number): string {
  const listed = failures
    .slice(0, shown)
    .map((failure) => `${failure.name}: ${failure.detail}`)
    .join('; ');
  return toSingleLine(failures.length > shown ? `${listed} and ${failures.length - shown} more` : listed);
}

// `Microsoft.Compute/virtualMachines` of a resource's ARM id (a child's type names its parents':
// `Microsoft.Sql/servers/databases`).
function readArmType(armId: string): string {
  const [, provider = ''] = armId.split(/\/providers\//i);
  const [namespace, ...rest] = provider.split('/');
  const types = rest.filter((_, index) => index % 2 === 0);
  return [namespace, ...types].join('/');
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
