// Findings, their history, mute rules, daily scores and the last scan, for one team at a time.
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database';
import {
  securityFindingEvents,
  securityFindings,
  securityMuteRules,
  securityScans,
  securityScores,
  subscriptions,
  tenants,
} from '../../db/schema';

export type FindingStatus = 'open' | 'muted' | 'resolved';

const batchSize = 1000;

export interface ScannedFinding {
  subscriptionId: string;
  checkId: string;
  resourceId: string;
  resourceName: string;
  resourceGroup: string;
  resourceTags: Record<string, string>;
  severity: 'critical' | 'high' | 'medium' | 'low';
  evidence: string;
}

export interface FindingRow {
  id: string;
  tenantId: string;
  subscriptionId: string;
  checkId: string;
  resourceId: string;
  resourceName: string;
  severity: 'critical' | 'high' | 'medium' | 'low';
  evidence: string;
  firstSeen: Date;
  lastSeen: Date;
  resolvedAt: Date | null;
  muteReason: string | null;
  mutedUntil: string | null;
  mutedBy: string | null;
  status: FindingStatus;
  rule: { id: string; reason: string; until: string; by: string } | null;
}

export interface FindingFilter {
  status?: FindingStatus;
  severity?: string;
  checkId?: string;
  tenantId?: string;
  search?: string;
}

export type FindingSort = 'Severity' | 'LastSeen' | 'FirstSeen' | 'ResourceName' | 'CheckId';

// The mute rule in force over a finding today, if any.
function matchingRule(today: string): SQL {
  return sql`(select json_build_object('id', r.id, 'reason', r.reason, 'until', r.until, 'by', r.created_by)
    from ${securityMuteRules} r
    where r.team_id = ${securityFindings.teamId} and r.check_id = ${securityFindings.checkId} and r.until >= ${today}
      and (r.resource_group is null or lower(r.resource_group) = lower(${securityFindings.resourceGroup}))
      and (r.tag_key is null or (${securityFindings.resourceTags} ? r.tag_key
        and (r.tag_value is null or ${securityFindings.resourceTags} ->> r.tag_key = r.tag_value)))
    order by r.created_at, r.id limit 1)`;
}

function statusOf(today: string): SQL<FindingStatus> {
  return sql<FindingStatus>`case when ${securityFindings.resolvedAt} is not null then 'resolved'
    when ${securityFindings.mutedUntil} >= ${today} or ${matchingRule(today)} is not null then 'muted'
    else 'open' end`;
}

const severityRank = sql<number>`case ${securityFindings.severity} when 'critical' then 4 when 'high' then 3 when 'medium' then 2 else 1 end`;

export class SecurityRepository {
  constructor(private readonly db: Db) {}

  async listSubscriptions(tenantId: string): Promise<{ subscriptionId: string; displayName: string }[]> {
    return this.db
      .select({ subscriptionId: subscriptions.subscriptionId, displayName: subscriptions.displayName })
      .from(subscriptions)
      .where(eq(subscriptions.tenantId, tenantId))
      .orderBy(subscriptions.displayName);
  }

  async listTeamTenantIds(teamId: string): Promise<string[]> {
    const rows = await this.db
      .select({ id: tenants.id })
      .from(tenants)
      .where(and(eq(tenants.teamId, teamId), eq(tenants.isActive, true)))
      .orderBy(tenants.createdAt);
    return rows.map((row) => row.id);
  }

  // Takes the team's scan slot unless a scan was asked for within `minIntervalMs` of now.
  async claimScan(teamId: string, now: Date, minIntervalMs: number): Promise<boolean> {
    const since = new Date(now.getTime() - minIntervalMs);
    const rows = await this.db
      .insert(securityScans)
      .values({ teamId, requestedAt: now })
      .onConflictDoUpdate({
        target: securityScans.teamId,
        set: { requestedAt: now },
        setWhere: sql`${securityScans.requestedAt} is null or ${securityScans.requestedAt} <= ${since}`,
      })
      .returning({ teamId: securityScans.teamId });
    return rows.length > 0;
  }

  async recordScanFinished(teamId: string, now: Date): Promise<void> {
    await this.db
      .insert(securityScans)
      .values({ teamId, finishedAt: now, version: 1 })
      .onConflictDoUpdate({
        target: securityScans.teamId,
        set: { finishedAt: now, version: sql`${securityScans.version} + 1` },
      });
  }

  async readLastScan(teamId: string): Promise<Date | null> {
    const [row] = await this.db
      .select({ finishedAt: securityScans.finishedAt })
      .from(securityScans)
      .where(eq(securityScans.teamId, teamId));
    return row?.finishedAt ?? null;
  }

  /**
   * Records one subscription's scan: new findings opened, seen ones refreshed (a resolved one
   * reopened, its history kept), those not seen again resolved. Answers the findings opened or
   * reopened now.
   */
  async applyScan(
    teamId: string,
    tenantId: string,
    subscriptionId: string,
    found: readonly ScannedFinding[],
    now: Date,
  ): Promise<{ id: string; isNew: boolean; finding: ScannedFinding }[]> {
    try {
      return await this.writeScan(teamId, tenantId, subscriptionId, found, now);
    } finally {
      // After the writes, whether or not they all went through: a summary read before is not kept.
      await this.bumpVersion(teamId);
    }
  }

  private async writeScan(
    teamId: string,
    tenantId: string,
    subscriptionId: string,
    found: readonly ScannedFinding[],
    now: Date,
  ): Promise<{ id: string; isNew: boolean; finding: ScannedFinding }[]> {
    const existing = await this.db
      .select({
        id: securityFindings.id,
        checkId: securityFindings.checkId,
        resourceKey: securityFindings.resourceKey,
        resolvedAt: securityFindings.resolvedAt,
        evidence: securityFindings.evidence,
        severity: securityFindings.severity,
      })
      .from(securityFindings)
      .where(
        and(eq(securityFindings.tenantId, tenantId), eq(securityFindings.subscriptionId, subscriptionId)),
      );
    const byKey = new Map(existing.map((row) => [`${row.checkId}|${row.resourceKey}`, row]));
    const seen = new Set<string>();
    const raised: { id: string; isNew: boolean; finding: ScannedFinding }[] = [];
    const events: (typeof securityFindingEvents.$inferInsert)[] = [];
    const inserts: (typeof securityFindings.$inferInsert)[] = [];
    const insertedFindings: ScannedFinding[] = [];
    const refreshedIds: string[] = [];
    for (const finding of found) {
      const key = `${finding.checkId}|${finding.resourceId.toLowerCase()}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const row = byKey.get(key);
      if (!row) {
        inserts.push({
          teamId,
          tenantId,
          subscriptionId,
          checkId: finding.checkId,
          resourceId: finding.resourceId,
          resourceKey: finding.resourceId.toLowerCase(),
          resourceName: finding.resourceName,
          resourceGroup: finding.resourceGroup,
          resourceTags: finding.resourceTags,
          severity: finding.severity,
          evidence: finding.evidence,
          firstSeen: now,
          lastSeen: now,
        });
        insertedFindings.push(finding);
        continue;
      }
      refreshedIds.push(row.id);
      if (row.evidence !== finding.evidence || row.severity !== finding.severity) {
        await this.db
          .update(securityFindings)
          .set({ evidence: finding.evidence, severity: finding.severity, resourceName: finding.resourceName })
          .where(eq(securityFindings.id, row.id));
      }
      if (row.resolvedAt) {
        events.push({ findingId: row.id, kind: 'reopened', at: now, note: finding.evidence });
        raised.push({ id: row.id, isNew: false, finding });
      }
    }
    // Seen again: one statement a batch (a 10,000-VM estate refreshes thousands at once).
    for (let start = 0; start < refreshedIds.length; start += batchSize) {
      await this.db
        .update(securityFindings)
        .set({ lastSeen: now, resolvedAt: null })
        .where(inArray(securityFindings.id, refreshedIds.slice(start, start + batchSize)));
    }
    // PostgreSQL takes at most 65,535 parameters a statement: inserts go in batches.
    for (let start = 0; start < inserts.length; start += batchSize) {
      const ids = await this.db
        .insert(securityFindings)
        .values(inserts.slice(start, start + batchSize))
        .returning({ id: securityFindings.id });
      ids.forEach((row, index) => {
        const finding = insertedFindings[start + index];
        if (!finding) return;
        events.push({ findingId: row.id, kind: 'opened', at: now, note: finding.evidence });
        raised.push({ id: row.id, isNew: true, finding });
      });
    }
    const resolvedIds = existing
      .filter((row) => !row.resolvedAt && !seen.has(`${row.checkId}|${row.resourceKey}`))
      .map((row) => row.id);
    for (let start = 0; start < resolvedIds.length; start += batchSize) {
      await this.db
        .update(securityFindings)
        .set({ resolvedAt: now })
        .where(inArray(securityFindings.id, resolvedIds.slice(start, start + batchSize)));
    }
    for (const id of resolvedIds) events.push({ findingId: id, kind: 'resolved', at: now, note: null });
    for (let start = 0; start < events.length; start += batchSize) {
      await this.db.insert(securityFindingEvents).values(events.slice(start, start + batchSize));
    }
    return raised;
  }

  /** Whether the subscription was scanned before (each scan writes its day's score row). */
  async hasScanned(tenantId: string, subscriptionId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ day: securityScores.day })
      .from(securityScores)
      .where(and(eq(securityScores.tenantId, tenantId), eq(securityScores.subscriptionId, subscriptionId)))
      .limit(1);
    return row !== undefined;
  }

  async writeScore(
    teamId: string,
    tenantId: string,
    subscriptionId: string,
    day: string,
    score: {
      isDefenderEnabled: boolean;
      current: number | null;
      max: number | null;
      percentage: number | null;
    },
  ): Promise<void> {
    await this.db
      .insert(securityScores)
      .values({ tenantId, subscriptionId, day, ...score })
      .onConflictDoUpdate({
        target: [securityScores.tenantId, securityScores.subscriptionId, securityScores.day],
        set: score,
      });
    await this.bumpVersion(teamId);
  }

  // After any write to the team's findings, scores or mute rules.
  private async bumpVersion(teamId: string): Promise<void> {
    await this.db
      .insert(securityScans)
      .values({ teamId, version: 1 })
      .onConflictDoUpdate({
        target: securityScans.teamId,
        set: { version: sql`${securityScans.version} + 1` },
      });
  }

  // What the team's summary depends on besides the day: every write (the version) and its tenants
  // (a tenant's removal takes its findings and scores with it).
  async readVersion(teamId: string): Promise<string> {
    const result = await this.db.execute<{ version: string }>(sql`
      select concat_ws('.',
        (select version from security_scan where team_id = ${teamId}::uuid),
        (select count(*) || '-' || coalesce(sum(hashtext(id::text)), 0) from tenant where team_id = ${teamId}::uuid)
      ) as version`);
    return result.rows[0]!.version;
  }

  async listScores(teamId: string, fromDay: string) {
    return this.db
      .select({
        tenantId: securityScores.tenantId,
        subscriptionId: securityScores.subscriptionId,
        day: securityScores.day,
        isDefenderEnabled: securityScores.isDefenderEnabled,
        current: securityScores.current,
        max: securityScores.max,
        percentage: securityScores.percentage,
        displayName: subscriptions.displayName,
      })
      .from(securityScores)
      .innerJoin(tenants, eq(tenants.id, securityScores.tenantId))
      .leftJoin(
        subscriptions,
        and(
          eq(subscriptions.tenantId, securityScores.tenantId),
          eq(subscriptions.subscriptionId, securityScores.subscriptionId),
        ),
      )
      .where(and(eq(tenants.teamId, teamId), sql`${securityScores.day} >= ${fromDay}`))
      .orderBy(securityScores.tenantId, securityScores.subscriptionId, securityScores.day);
  }

  async countByStatus(teamId: string, today: string) {
    const status = statusOf(today);
    return (
      this.db
        .select({ status, severity: securityFindings.severity, count: sql<number>`count(*)::int` })
        .from(securityFindings)
        .where(eq(securityFindings.teamId, teamId))
        // By position: the status expression carries parameters, which PostgreSQL would not match again.
        .groupBy(sql`1`, sql`2`)
    );
  }

  private selectFindings(today: string) {
    return this.db
      .select({
        id: securityFindings.id,
        tenantId: securityFindings.tenantId,
        subscriptionId: securityFindings.subscriptionId,
        checkId: securityFindings.checkId,
        resourceId: securityFindings.resourceId,
        resourceName: securityFindings.resourceName,
        severity: securityFindings.severity,
        evidence: securityFindings.evidence,
        firstSeen: securityFindings.firstSeen,
        lastSeen: securityFindings.lastSeen,
        resolvedAt: securityFindings.resolvedAt,
        muteReason: securityFindings.muteReason,
        mutedUntil: securityFindings.mutedUntil,
        mutedBy: securityFindings.mutedBy,
        status: statusOf(today),
        rule: sql<FindingRow['rule']>`${matchingRule(today)}`,
      })
      .from(securityFindings);
  }

  async listFindings(
    teamId: string,
    filter: FindingFilter,
    today: string,
    page: { offset: number; limit: number; sort: FindingSort; order: 'asc' | 'desc' },
  ): Promise<{ rows: FindingRow[]; total: number }> {
    const where = and(
      eq(securityFindings.teamId, teamId),
      filter.status ? sql`${statusOf(today)} = ${filter.status}` : undefined,
      filter.severity ? eq(securityFindings.severity, filter.severity as FindingRow['severity']) : undefined,
      filter.checkId ? eq(securityFindings.checkId, filter.checkId) : undefined,
      filter.tenantId ? eq(securityFindings.tenantId, filter.tenantId) : undefined,
      filter.search
        ? sql`(${securityFindings.resourceName} ilike ${`%${escapeLike(filter.search)}%`} or ${securityFindings.checkId} ilike ${`%${escapeLike(filter.search)}%`} or ${securityFindings.evidence} ilike ${`%${escapeLike(filter.search)}%`})`
        : undefined,
    );
    const direction = page.order === 'asc' ? asc : desc;
    const sortColumn = {
      Severity: severityRank,
      LastSeen: securityFindings.lastSeen,
      FirstSeen: securityFindings.firstSeen,
      ResourceName: securityFindings.resourceName,
      CheckId: securityFindings.checkId,
    }[page.sort];
    const [rows, [count]] = await Promise.all([
      this.selectFindings(today)
        .where(where)
        .orderBy(direction(sortColumn), asc(securityFindings.resourceName), asc(securityFindings.id))
        .limit(page.limit)
        .offset(page.offset),
      this.db
        .select({ total: sql<number>`count(*)::int` })
        .from(securityFindings)
        .where(where),
    ]);
    return { rows: rows as FindingRow[], total: count?.total ?? 0 };
  }

  /** Every finding of the team in a stable order, a batch at a time (the export). */
  async *streamFindings(teamId: string, today: string, batchSize = 500): AsyncGenerator<FindingRow[]> {
    let after = '';
    for (;;) {
      const rows = (await this.selectFindings(today)
        .where(
          and(
            eq(securityFindings.teamId, teamId),
            sql`${securityFindings.id} > ${after || '00000000-0000-0000-0000-000000000000'}`,
          ),
        )
        .orderBy(asc(securityFindings.id))
        .limit(batchSize)) as FindingRow[];
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]?.id ?? after;
      if (rows.length < batchSize) return;
    }
  }

  async findFinding(teamId: string, id: string, today: string): Promise<FindingRow | undefined> {
    const [row] = await this.selectFindings(today).where(
      and(eq(securityFindings.teamId, teamId), eq(securityFindings.id, id)),
    );
    return row as FindingRow | undefined;
  }

  async listEvents(findingId: string) {
    return this.db
      .select()
      .from(securityFindingEvents)
      .where(eq(securityFindingEvents.findingId, findingId))
      .orderBy(asc(securityFindingEvents.id));
  }

  async mute(
    teamId: string,
    id: string,
    mute: { reason: string; until: string; by: string },
    now: Date,
  ): Promise<boolean> {
    const rows = await this.db
      .update(securityFindings)
      .set({ muteReason: mute.reason, mutedUntil: mute.until, mutedBy: mute.by, mutedAt: now })
      .where(and(eq(securityFindings.teamId, teamId), eq(securityFindings.id, id)))
      .returning({ id: securityFindings.id });
    if (rows.length === 0) return false;
    await this.db.insert(securityFindingEvents).values({
      findingId: id,
      kind: 'muted',
      at: now,
      by: mute.by,
      note: `${mute.reason} (until ${mute.until})`,
    });
    await this.bumpVersion(teamId);
    return true;
  }

  async unmute(teamId: string, id: string, by: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(securityFindings)
      .set({ muteReason: null, mutedUntil: null, mutedBy: null, mutedAt: null })
      .where(
        and(
          eq(securityFindings.teamId, teamId),
          eq(securityFindings.id, id),
          isNotNull(securityFindings.mutedUntil),
        ),
      )
      .returning({ id: securityFindings.id });
    if (rows.length > 0) {
      await this.db
        .insert(securityFindingEvents)
        .values({ findingId: id, kind: 'unmuted', at: now, by, note: null });
      await this.bumpVersion(teamId);
    }
    return rows.length > 0;
  }

  async insertMuteRule(rule: typeof securityMuteRules.$inferInsert) {
    const [row] = await this.db.insert(securityMuteRules).values(rule).returning();
    if (!row) throw new Error('The mute rule was not stored.');
    await this.bumpVersion(rule.teamId);
    return row;
  }

  async countOpenMatching(teamId: string, ruleId: string): Promise<number> {
    const [row] = await this.db
      .select({ count: sql<number>`count(*)::int` })
      .from(securityFindings)
      .innerJoin(securityMuteRules, eq(securityMuteRules.id, ruleId))
      .where(
        and(
          eq(securityFindings.teamId, teamId),
          isNull(securityFindings.resolvedAt),
          sql`${securityMuteRules.checkId} = ${securityFindings.checkId}`,
          sql`(${securityMuteRules.resourceGroup} is null or lower(${securityMuteRules.resourceGroup}) = lower(${securityFindings.resourceGroup}))`,
          sql`(${securityMuteRules.tagKey} is null or (${securityFindings.resourceTags} ? ${securityMuteRules.tagKey} and (${securityMuteRules.tagValue} is null or ${securityFindings.resourceTags} ->> ${securityMuteRules.tagKey} = ${securityMuteRules.tagValue})))`,
        ),
      );
    return row?.count ?? 0;
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (character) => `\\${character}`);
}
