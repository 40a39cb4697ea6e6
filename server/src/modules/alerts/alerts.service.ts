// Budget, anomaly, approval and failed pipeline run alerts: raised once per team and key, each with its Recent Activity entry
// and a mail to every member who wants that kind of mail, all in one transaction (the mails through the
// queue's outbox), so a crash or a second worker can neither lose nor double them.
import { formatMoney } from '@cloudtrim/contracts/money';
import {
  alertListQuerySchema,
  alertPreferencesSchema,
  type Alert,
  type AlertDriver,
  type AlertFilter,
  type AlertKind,
  type AlertListResponse,
  type AlertPreferences,
} from '@cloudtrim/contracts/alerts';
import { pageSize } from '@cloudtrim/contracts/paging';
import type { z } from 'zod';
import type { Transaction, TransactionRunner } from '../../db/transaction';
import { badRequest, notFound } from '../../lib/http-errors';
import { ActivityRepository } from '../activity/activity.repository';
import { activityServiceNames } from '../activity/activity.service';
import type { MailService } from '../mail/mail.service';
import { renderAlertEmail, type MailContent } from '../mail/mail.templates';
import { AlertsRepository, type AlertRow } from './alerts.repository';

interface NewAlertBase {
  teamId: string;
  kind: AlertKind;
  // Unique per team: raising an alert whose key the team already has does nothing.
  key: string;
  title: string;
  // Human text: 'Subscription Production · resource group web-rg · Virtual Machines'.
  scope: string;
  filter: AlertFilter;
  // The day concerned, YYYY-MM-DD.
  day: string;
  amount: number;
  expected: number | null;
  currency: string;
  drivers: AlertDriver[];
  // The members to mail (emails); absent: every member of the team. Either way less those who
  // turned this kind of mail off.
  recipients?: readonly string[];
  // The tenant the alert is about, for Recent Activity.
  tenantId?: string | null;
  // The mail's sentence on what happened; by default the amount against the expected, on the day.
  summary?: string;
}

// A budget or anomaly alert is mailed as an alert linking to /analysis and noted under its kind's name
// in Recent Activity; a pipeline's (an approval, a failed run: pipelines.notice.ts) brings its own mail
// and entry, and is mailed whatever the preferences (AlertsRepository.listMailRecipients).
export type NewAlert = NewAlertBase &
  (
    | { mailKind: 'budget' | 'anomaly' }
    | {
        mailKind: 'approval' | 'pipeline' | 'security';
        mail: MailContent;
        activity: { serviceName: string; text: string };
      }
  );

// The /analysis query names of an alert's filter.
const filterQueryNames: Record<keyof AlertFilter, string> = {
  TenantId: 'tenantId',
  SubscriptionId: 'subscriptionId',
  ResourceGroup: 'resourceGroup',
  Service: 'service',
  Tag: 'tag',
};

export class AlertsService {
  constructor(
    private readonly alerts: AlertsRepository,
    private readonly runTransaction: TransactionRunner,
    private readonly mail: Pick<MailService, 'enqueueMany'>,
    private readonly publicUrl: string,
    private readonly now: () => Date = () => new Date(),
  ) {}

  // True when the alert is new: it, its Recent Activity entry and its mails commit together, in
  // `options.db`'s transaction when given (a budget's crossing row goes with them), else in one of
  // its own. False, and nothing else, when the team already has the key.
  async raise(alert: NewAlert, options: { db?: Transaction } = {}): Promise<boolean> {
    if (options.db) return this.raiseIn(options.db, alert);
    return this.runTransaction((transaction) => this.raiseIn(transaction, alert));
  }

  // The alert of that key, settled by what it reported (an approval decided), acknowledged in the
  // caller's transaction; nothing when it is acknowledged already or was never raised.
  async acknowledgeByKey(
    teamId: string,
    key: string,
    userId: string | null,
    options: { db: Transaction },
  ): Promise<void> {
    await new AlertsRepository(options.db.db).acknowledgeByKey(teamId, key, userId, this.now());
  }

  // The alert of that key brought up to date with what it reports (a failed run with one more failure
  // since it was raised), in the caller's transaction; its mails and Recent Activity entry are not sent
  // again. Nothing when it was never raised.
  async reviseByKey(
    teamId: string,
    key: string,
    revision: Pick<NewAlert, 'title' | 'scope' | 'amount'>,
    options: { db: Transaction },
  ): Promise<void> {
    await new AlertsRepository(options.db.db).reviseByKey(teamId, key, revision);
  }

  async listAlerts(teamId: string, query: unknown): Promise<AlertListResponse> {
    const { offset } = parse(alertListQuerySchema, query);
    const [rows, counts] = await Promise.all([
      this.alerts.listForTeam(teamId, { offset, limit: pageSize }),
      this.alerts.countForTeam(teamId),
    ]);
    return { Alerts: rows.map(toAlert), Total: counts.total, Unacknowledged: counts.unacknowledged };
  }

  async acknowledge(teamId: string, userId: string, id: string): Promise<Alert> {
    const row = await this.alerts.acknowledge(teamId, id, userId, this.now());
    if (!row) throw notFound('Alert not found.');
    return toAlert(row);
  }

  async readPreferences(userId: string): Promise<AlertPreferences> {
    const preferences = await this.alerts.readPreferences(userId);
    if (!preferences) throw notFound('User not found.');
    return {
      BudgetMails: preferences.budgetMails,
      AnomalyMails: preferences.anomalyMails,
      SecurityMails: preferences.securityMails ?? false,
    };
  }

  async writePreferences(userId: string, input: unknown): Promise<AlertPreferences> {
    const preferences = parse(alertPreferencesSchema, input);
    await this.alerts.writePreferences(userId, {
      budgetMails: preferences.BudgetMails,
      anomalyMails: preferences.AnomalyMails,
      ...(preferences.SecurityMails === undefined ? {} : { securityMails: preferences.SecurityMails }),
    });
    return preferences;
  }

  // Which of `emails` are not members of the team (a budget's recipients must be).
  async findStrangers(teamId: string, emails: readonly string[]): Promise<string[]> {
    const members = new Set(await this.alerts.listMemberEmails(teamId, emails));
    return emails.filter((email) => !members.has(email));
  }

  private async raiseIn(transaction: Transaction, alert: NewAlert): Promise<boolean> {
    const alerts = new AlertsRepository(transaction.db);
    const id = await alerts.insertIfNew({
      teamId: alert.teamId,
      kind: alert.kind,
      dedupeKey: alert.key,
      title: alert.title,
      scope: alert.scope,
      filter: alert.filter as Record<string, string>,
      day: alert.day,
      raisedAt: this.now(),
      amount: alert.amount,
      expected: alert.expected,
      currency: alert.currency,
      drivers: alert.drivers,
    });
    if (id === undefined) return false;
    await new ActivityRepository(transaction.db).insertManyInTransaction([
      {
        teamId: alert.teamId,
        tenantId: alert.tenantId ?? null,
        ...describeActivity(alert),
        resourceArmId: null,
      },
    ]);
    const recipients = await alerts.listMailRecipients(alert.teamId, alert.mailKind, alert.recipients);
    const content =
      alert.mailKind === 'approval' || alert.mailKind === 'pipeline' || alert.mailKind === 'security'
        ? alert.mail
        : renderAlertEmail({
            kind: alert.mailKind,
            title: alert.title,
            scope: alert.scope,
            summary: alert.summary ?? describeAmounts(alert),
            link: this.buildAnalysisLink(alert.filter),
          });
    await this.mail.enqueueMany(
      recipients.map((recipient) => ({ to: recipient.email, content })),
      { db: transaction },
    );
    return true;
  }

  private buildAnalysisLink(filter: AlertFilter): string {
    const query = new URLSearchParams();
    for (const [name, queryName] of Object.entries(filterQueryNames)) {
      const value = filter[name as keyof AlertFilter];
      if (value) query.set(queryName, value);
    }
    const text = query.toString();
    return `${this.publicUrl}/analysis${text ? `?${text}` : ''}`;
  }
}

function toAlert(row: AlertRow): Alert {
  return {
    Id: row.id,
    Kind: row.kind,
    Title: row.title,
    Scope: row.scope,
    Filter: row.filter,
    Date: row.day,
    RaisedAt: row.raisedAt.toISOString(),
    Amount: row.amount,
    Expected: row.expected,
    Currency: row.currency,
    Drivers: row.drivers,
    AcknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
  };
}

function describeActivity(alert: NewAlert): { serviceName: string; logText: string } {
  if (alert.mailKind === 'approval' || alert.mailKind === 'pipeline' || alert.mailKind === 'security') {
    return { serviceName: alert.activity.serviceName, logText: alert.activity.text };
  }
  return {
    serviceName: alert.mailKind === 'budget' ? activityServiceNames.budgets : activityServiceNames.anomalies,
    logText: `${alert.title} (${alert.scope})`,
  };
}

function describeAmounts(alert: NewAlert): string {
  const amount = formatMoney(alert.amount, alert.currency);
  if (alert.expected === null) return `${amount} on ${alert.day}.`;
  return `${amount} against ${formatMoney(alert.expected, alert.currency)} expected, on ${alert.day}.`;
}

// The routes have validated already; a service called otherwise answers the same 400.
function parse<Schema extends z.ZodType>(schema: Schema, input: unknown): z.infer<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  throw badRequest(issue.message, issue.path.map(String).join('.') || undefined);
}
