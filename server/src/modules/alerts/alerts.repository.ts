import { and, count, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { alerts, users, type AlertDriverRow } from '../../db/schema';
import { setUserMailPreferences } from '../account/account.repository';

export type AlertRow = typeof alerts.$inferSelect;
export type NewAlertRow = Omit<typeof alerts.$inferInsert, 'id' | 'acknowledgedAt' | 'acknowledgedBy'>;

export interface MailRecipient {
  email: string;
  firstName: string;
}

export interface MailPreferences {
  budgetMails: boolean;
  anomalyMails: boolean;
  securityMails?: boolean;
}

export type { AlertDriverRow };

// Works on whichever Db it is given: the pool's, or a transaction's (db/transaction.ts), so an alert
// commits with its crossing, its Recent Activity entry and its mails.
export class AlertsRepository {
  constructor(private readonly db: Db) {}

  // The alert's id, or undefined when the team already has one with its key.
  async insertIfNew(alert: NewAlertRow): Promise<string | undefined> {
    const [row] = await this.db
      .insert(alerts)
      .values(alert)
      .onConflictDoNothing({ target: [alerts.teamId, alerts.dedupeKey] })
      .returning({ id: alerts.id });
    return row?.id;
  }

  // The team's members (all, or those of `emails`) who have not turned this kind of mail off. A
  // pipeline's mails (an approval, a failed run) cannot be turned off: an action nobody hears about
  // waits for ever, and a change the team counts on was not made.
  async listMailRecipients(
    teamId: string,
    kind: 'budget' | 'anomaly' | 'approval' | 'pipeline' | 'security',
    emails?: readonly string[],
  ): Promise<MailRecipient[]> {
    if (emails?.length === 0) return [];
    return this.db
      .select({ email: users.email, firstName: users.firstName })
      .from(users)
      .where(
        and(
          eq(users.teamId, teamId),
          kind === 'budget' ? eq(users.budgetMails, true) : undefined,
          kind === 'anomaly' ? eq(users.anomalyMails, true) : undefined,
          kind === 'security' ? eq(users.securityMails, true) : undefined,
          emails ? inArray(users.email, [...emails]) : undefined,
        ),
      )
      .orderBy(users.email);
  }

  // Which of `emails` belong to members of the team.
  async listMemberEmails(teamId: string, emails: readonly string[]): Promise<string[]> {
    if (emails.length === 0) return [];
    const rows = await this.db
      .select({ email: users.email })
      .from(users)
      .where(and(eq(users.teamId, teamId), inArray(users.email, [...emails])));
    return rows.map((row) => row.email);
  }

  // Newest first.
  listForTeam(teamId: string, page: { offset: number; limit: number }): Promise<AlertRow[]> {
    return this.db
      .select()
      .from(alerts)
      .where(eq(alerts.teamId, teamId))
      .orderBy(desc(alerts.raisedAt), desc(alerts.id))
      .offset(page.offset)
      .limit(page.limit);
  }

  async countForTeam(teamId: string): Promise<{ total: number; unacknowledged: number }> {
    const [row] = await this.db
      .select({
        total: count(),
        unacknowledged: sql<number>`(count(*) filter (where ${isNull(alerts.acknowledgedAt)}))::int`,
      })
      .from(alerts)
      .where(eq(alerts.teamId, teamId));
    return { total: row?.total ?? 0, unacknowledged: row?.unacknowledged ?? 0 };
  }

  // Acknowledged once: a second call keeps the first time and person.
  async acknowledge(teamId: string, id: string, userId: string, at: Date): Promise<AlertRow | undefined> {
    await this.db
      .update(alerts)
      .set({ acknowledgedAt: at, acknowledgedBy: userId })
      .where(and(eq(alerts.teamId, teamId), eq(alerts.id, id), isNull(alerts.acknowledgedAt)));
    const [row] = await this.db
      .select()
      .from(alerts)
      .where(and(eq(alerts.teamId, teamId), eq(alerts.id, id)));
    return row;
  }

  // The alert of that key acknowledged, unless it was already: what it reported is settled.
  async acknowledgeByKey(teamId: string, key: string, userId: string | null, at: Date): Promise<void> {
    await this.db
      .update(alerts)
      .set({ acknowledgedAt: at, acknowledgedBy: userId })
      .where(and(eq(alerts.teamId, teamId), eq(alerts.dedupeKey, key), isNull(alerts.acknowledgedAt)));
  }

  async reviseByKey(
    teamId: string,
    key: string,
    revision: Pick<AlertRow, 'title' | 'scope' | 'amount'>,
  ): Promise<void> {
    await this.db
      .update(alerts)
      .set(revision)
      .where(and(eq(alerts.teamId, teamId), eq(alerts.dedupeKey, key)));
  }

  async readPreferences(userId: string): Promise<MailPreferences | undefined> {
    const [row] = await this.db
      .select({
        budgetMails: users.budgetMails,
        anomalyMails: users.anomalyMails,
        securityMails: users.securityMails,
      })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  }

  async writePreferences(userId: string, preferences: MailPreferences): Promise<void> {
    await setUserMailPreferences(this.db, userId, preferences);
  }
}
