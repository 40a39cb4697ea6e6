// Scans each tenant's subscriptions with every check (with each inventory sync and on demand),
// keeps findings with their history, mutes them with a reason until a day, snapshots the secure
// score daily and raises one `security` alert per critical or high finding new since the
// subscription's first scan.
import { pageSize } from '@cloudtrim/contracts/paging';
import type {
  SecurityFinding,
  SecurityFindingDetail,
  SecurityFindingList,
  SecurityMuteRule,
  SecurityScanResponse,
  SecuritySummary,
  securityFindingQuerySchema,
  securityMuteRequestSchema,
  securityMuteRuleRequestSchema,
} from '@cloudtrim/contracts/security';
import type { z } from 'zod';
import { isCloudError, type CloudCallOptions } from '../../cloud/cloud-provider';
import type { CloudResource } from '../../cloud/cloud-provider';
import {
  readSyncedSecurityRecords,
  type SecurityInventory,
  type SecurityInventoryReader,
} from '../../cloud/security-inventory';
import { badRequest, notFound, tooManyRequests } from '../../lib/http-errors';
import type { TenantsService } from '../tenants/tenants.service';
import { findSecurityCheck, runSecurityChecks, securityChecks } from './security.checks';
import type { FindingRow, ScannedFinding, SecurityRepository } from './security.repository';
import { dayMs } from '../../lib/time';
import { VersionedAnswers } from '../../lib/versioned-answers';

const scanIntervalMs = 60_000;
const trendDays = 30;
export const securityScanJobName = 'security-scan';

export interface SecurityAlertSink {
  raiseFinding(alert: {
    teamId: string;
    tenantId: string;
    findingId: string;
    title: string;
    resourceName: string;
    severity: 'critical' | 'high';
    evidence: string;
  }): Promise<void>;
}

export interface SecurityActor {
  teamId: string;
  email: string;
}

function formatDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function readResourceGroup(resourceId: string): string {
  return /\/resourceGroups\/([^/]+)/i.exec(resourceId)?.[1] ?? '';
}

// Tags of every resource the inventory read, by lower-case id, so a finding on a VM carries the VM's.
function indexTags(inventory: SecurityInventory): Map<string, Record<string, string>> {
  const tags = new Map<string, Record<string, string>>();
  const lists = [
    inventory.networkSecurityGroups,
    inventory.networkInterfaces,
    inventory.virtualNetworks,
    inventory.virtualMachines,
    inventory.disks,
    inventory.storageAccounts,
    inventory.keyVaults,
    inventory.sqlServers.map((server) => server.server),
  ];
  for (const list of lists) {
    for (const item of list) if (item.id && item.tags) tags.set(item.id.toLowerCase(), item.tags);
  }
  return tags;
}

export class SecurityService {
  // The summary, kept per team while its version (SecurityRepository.readVersion) and the day hold:
  // counting a 10,000-VM estate's findings through their mute rules took about 15 ms a call.
  private readonly summaries: VersionedAnswers;

  constructor(
    private readonly security: SecurityRepository,
    private readonly tenants: Pick<TenantsService, 'openForWork' | 'runUnlessDeleted'>,
    private readonly cloud: SecurityInventoryReader,
    private readonly alerts: SecurityAlertSink,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.summaries = new VersionedAnswers((teamId) => security.readVersion(teamId));
  }

  /**
   * One tenant's scan; a subscription Azure would not answer keeps its findings as they were. After
   * an inventory sync, `synced` holds the resources it read by subscription id, and their VMs and
   * disks are judged as read there, not listed again.
   */
  async scanTenant(
    tenantId: string,
    options: CloudCallOptions = {},
    synced?: ReadonlyMap<string, readonly CloudResource[]>,
  ): Promise<number> {
    const work = await this.tenants.openForWork(tenantId, securityScanJobName);
    if (!work) return 0;
    const { tenant, credentials } = work;
    const found = await this.tenants.runUnlessDeleted(tenantId, securityScanJobName, async () => {
      let count = 0;
      for (const subscription of await this.security.listSubscriptions(tenantId)) {
        let inventory: SecurityInventory;
        const resources = synced?.get(subscription.subscriptionId.toLowerCase());
        try {
          inventory = await this.cloud.readSecurityInventory(
            credentials,
            subscription.subscriptionId,
            options,
            resources && readSyncedSecurityRecords(resources),
          );
        } catch (error) {
          if (isCloudError(error)) continue;
          throw error;
        }
        const now = this.now();
        const tags = indexTags(inventory);
        const results = runSecurityChecks(inventory, now).map(
          (result): ScannedFinding & { title: string } => ({
            subscriptionId: subscription.subscriptionId,
            checkId: result.check.id,
            title: result.check.title,
            resourceId: result.resourceId,
            resourceName: result.resourceName,
            resourceGroup: readResourceGroup(result.resourceId),
            resourceTags: tags.get(result.resourceId.toLowerCase()) ?? {},
            severity: result.check.severity,
            evidence: result.evidence,
          }),
        );
        count += results.length;
        // A subscription's first scan is its baseline: alerts are for what appears after it, not
        // the dozens of findings a newly connected estate has on day one.
        const isBaseline = !(await this.security.hasScanned(tenantId, subscription.subscriptionId));
        const raised = await this.security.applyScan(
          tenant.teamId,
          tenantId,
          subscription.subscriptionId,
          results,
          now,
        );
        await this.writeScore(tenant.teamId, tenantId, subscription.subscriptionId, inventory, now);
        for (const { id, isNew, finding } of raised) {
          if (isBaseline || !isNew || (finding.severity !== 'critical' && finding.severity !== 'high'))
            continue;
          await this.alerts.raiseFinding({
            teamId: tenant.teamId,
            tenantId,
            findingId: id,
            title: findSecurityCheck(finding.checkId)?.title ?? finding.checkId,
            resourceName: finding.resourceName,
            severity: finding.severity,
            evidence: finding.evidence,
          });
        }
      }
      await this.security.recordScanFinished(tenant.teamId, this.now());
      return count;
    });
    return found ?? 0;
  }

  /** POST /security/scan: every tenant of the team now, refused within a minute of the last ask. */
  async requestScan(teamId: string, options: CloudCallOptions = {}): Promise<SecurityScanResponse> {
    if (!(await this.security.claimScan(teamId, this.now(), scanIntervalMs))) {
      throw tooManyRequests('A scan was asked for less than a minute ago. Try again in a minute.');
    }
    let findings = 0;
    for (const tenantId of await this.security.listTeamTenantIds(teamId)) {
      findings += await this.scanTenant(tenantId, options);
    }
    return { Findings: findings, ScannedAt: this.now().toISOString() };
  }

  summarize(teamId: string): Promise<SecuritySummary> {
    const key = `${teamId}|summary|${formatDay(this.now())}`;
    return this.summaries.read(key, teamId, () => this.computeSummary(teamId));
  }

  private async computeSummary(teamId: string): Promise<SecuritySummary> {
    const today = formatDay(this.now());
    const fromDay = formatDay(new Date(this.now().getTime() - trendDays * dayMs));
    const [counts, scores, lastScan] = await Promise.all([
      this.security.countByStatus(teamId, today),
      this.security.listScores(teamId, fromDay),
      this.security.readLastScan(teamId),
    ]);
    const summary: SecuritySummary = {
      Counts: { critical: 0, high: 0, medium: 0, low: 0 },
      Open: 0,
      Muted: 0,
      Resolved: 0,
      Subscriptions: [],
      LastScanAt: lastScan?.toISOString() ?? null,
    };
    for (const row of counts) {
      if (row.status === 'open') {
        summary.Open += row.count;
        summary.Counts[row.severity] += row.count;
      } else if (row.status === 'muted') summary.Muted += row.count;
      else summary.Resolved += row.count;
    }
    const bySubscription = new Map<string, SecuritySummary['Subscriptions'][number]>();
    for (const row of scores) {
      const key = `${row.tenantId}|${row.subscriptionId}`;
      const entry = bySubscription.get(key) ?? {
        TenantId: row.tenantId,
        SubscriptionId: row.subscriptionId,
        DisplayName: row.displayName ?? row.subscriptionId,
        IsDefenderEnabled: false,
        Score: null,
        Trend: [],
      };
      // Rows come by day: the last one is today's (or the latest scanned).
      entry.IsDefenderEnabled = row.isDefenderEnabled;
      entry.Score =
        row.isDefenderEnabled && row.current !== null && row.max !== null && row.percentage !== null
          ? { Current: row.current, Max: row.max, Percentage: row.percentage }
          : null;
      if (row.percentage !== null) entry.Trend.push({ Date: row.day, Percentage: row.percentage });
      bySubscription.set(key, entry);
    }
    summary.Subscriptions = [...bySubscription.values()].sort((left, right) =>
      left.DisplayName.localeCompare(right.DisplayName),
    );
    return summary;
  }

  async listFindings(
    teamId: string,
    query: z.output<typeof securityFindingQuerySchema>,
  ): Promise<SecurityFindingList> {
    const { rows, total } = await this.security.listFindings(
      teamId,
      {
        status: query.Status,
        severity: query.Severity,
        checkId: query.CheckId,
        tenantId: query.TenantId,
        search: query.Search,
      },
      formatDay(this.now()),
      { offset: query.offset, limit: pageSize, sort: query.Sort, order: query.Order },
    );
    return { Data: rows.map(toFinding), Total: total };
  }

  async readFinding(teamId: string, id: string): Promise<SecurityFindingDetail> {
    const row = await this.security.findFinding(teamId, id, formatDay(this.now()));
    if (!row) throw notFound('Finding not found.');
    const events = await this.security.listEvents(id);
    return {
      ...toFinding(row),
      History: events.map((event) => ({
        Kind: event.kind,
        At: event.at.toISOString(),
        By: event.by,
        Note: event.note,
      })),
    };
  }

  async mute(
    actor: SecurityActor,
    id: string,
    body: z.output<typeof securityMuteRequestSchema>,
  ): Promise<SecurityFindingDetail> {
    this.checkUntil(body.Until);
    const isMuted = await this.security.mute(
      actor.teamId,
      id,
      { reason: body.Reason, until: body.Until, by: actor.email },
      this.now(),
    );
    if (!isMuted) throw notFound('Finding not found.');
    return this.readFinding(actor.teamId, id);
  }

  async unmute(actor: SecurityActor, id: string): Promise<SecurityFindingDetail> {
    const detail = await this.readFinding(actor.teamId, id);
    await this.security.unmute(actor.teamId, id, actor.email, this.now());
    return detail.Mute === null ? detail : this.readFinding(actor.teamId, id);
  }

  async createMuteRule(
    actor: SecurityActor,
    body: z.output<typeof securityMuteRuleRequestSchema>,
  ): Promise<SecurityMuteRule> {
    this.checkUntil(body.Until);
    if (!findSecurityCheck(body.CheckId)) throw badRequest('CheckId names no check.', 'CheckId');
    const scope = body.Scope;
    const row = await this.security.insertMuteRule({
      teamId: actor.teamId,
      checkId: body.CheckId,
      resourceGroup: 'ResourceGroup' in scope ? scope.ResourceGroup : null,
      tagKey: 'TagKey' in scope ? scope.TagKey : null,
      tagValue: 'TagKey' in scope ? (scope.TagValue ?? null) : null,
      reason: body.Reason,
      until: body.Until,
      createdBy: actor.email,
    });
    return {
      Id: row.id,
      CheckId: row.checkId,
      ResourceGroup: row.resourceGroup,
      TagKey: row.tagKey,
      TagValue: row.tagValue,
      Reason: row.reason,
      Until: row.until,
      By: row.createdBy,
      Muted: await this.security.countOpenMatching(actor.teamId, row.id),
    };
  }

  listChecks() {
    return {
      Data: securityChecks.map((check) => ({
        Id: check.id,
        Title: check.title,
        Severity: check.severity,
        Reads: check.reads,
        Remediation: { Text: check.remediation.text, Command: check.remediation.command },
        Cis: check.cis,
      })),
    };
  }

  /** Every finding of the team, a batch at a time, for the export. */
  async *streamFindings(teamId: string): AsyncGenerator<SecurityFinding[]> {
    for await (const rows of this.security.streamFindings(teamId, formatDay(this.now()))) {
      yield rows.map(toFinding);
    }
  }

  readNow(): Date {
    return this.now();
  }

  // Until: from tomorrow to a year from today, as the page offers.
  private checkUntil(until: string): void {
    const day = Date.parse(`${until}T00:00:00Z`);
    const today = Date.parse(`${formatDay(this.now())}T00:00:00Z`);
    if (Number.isNaN(day) || formatDay(new Date(day)) !== until)
      throw badRequest('Until is not a day.', 'Until');
    if (day <= today || day > today + 365 * dayMs) {
      throw badRequest('Until must be a day from tomorrow to a year from today.', 'Until');
    }
  }

  private async writeScore(
    teamId: string,
    tenantId: string,
    subscriptionId: string,
    inventory: SecurityInventory,
    now: Date,
  ): Promise<void> {
    const isDefenderEnabled = inventory.pricings.some(
      (pricing) => (pricing.properties?.pricingTier ?? '').toLowerCase() === 'standard',
    );
    const score = inventory.secureScores.find((item) => (item.name ?? '').toLowerCase() === 'ascscore')
      ?.properties?.score;
    const hasScore = isDefenderEnabled && score?.current !== undefined && score.max !== undefined;
    await this.security.writeScore(teamId, tenantId, subscriptionId, formatDay(now), {
      isDefenderEnabled,
      current: hasScore ? (score?.current ?? null) : null,
      max: hasScore ? (score?.max ?? null) : null,
      percentage: hasScore ? (score?.percentage ?? null) : null,
    });
  }
}

function toFinding(row: FindingRow): SecurityFinding {
  const check = findSecurityCheck(row.checkId);
  const isOwnMute = row.mutedUntil !== null && row.muteReason !== null && row.status === 'muted';
  const mute = isOwnMute
    ? { Reason: row.muteReason ?? '', Until: row.mutedUntil ?? '', By: row.mutedBy ?? '', RuleId: null }
    : row.status === 'muted' && row.rule
      ? { Reason: row.rule.reason, Until: row.rule.until, By: row.rule.by, RuleId: row.rule.id }
      : null;
  return {
    Id: row.id,
    CheckId: row.checkId,
    Title: check?.title ?? row.checkId,
    Severity: row.severity,
    Status: row.status,
    ResourceId: row.resourceId,
    ResourceName: row.resourceName,
    TenantId: row.tenantId,
    SubscriptionId: row.subscriptionId,
    Evidence: row.evidence,
    Remediation: { Text: check?.remediation.text ?? '', Command: check?.remediation.command ?? '' },
    Cis: check?.cis ?? '',
    FirstSeen: row.firstSeen.toISOString(),
    LastSeen: row.lastSeen.toISOString(),
    ResolvedAt: row.resolvedAt?.toISOString() ?? null,
    Mute: mute,
  };
}
