// The Security calls against the emulator through the real SDK pipeline, on a movable clock: a scan
// of both demo tenants (every check failing in each), the one-a-minute bound, a scan after a sync
// listing no VMs or disks of its own, the findings' fields, filters and bad input, a Viewer refused
// every change, mutes with their expiry, a mute rule, a fix in Azure resolved by the
// next scan and reopened when it returns (history kept), one alert per new critical or high finding,
// the exports, and another team's ids answering 404.
import type { AlertListResponse } from '@cloudtrim/contracts/alerts';
import type {
  SecurityFinding,
  SecurityFindingDetail,
  SecurityFindingList,
  SecuritySummary,
} from '@cloudtrim/contracts/security';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectTenant, createCloudTestContext, type CloudTestContext } from '../../../test/azure-emulator';
import { bearer, createUser, logIn, type TestUser } from '../../../test/helper';

const minuteMs = 60_000;
let clockMs = Date.UTC(2026, 10, 20, 9, 0);
const readClock = () => new Date(clockMs);

let context: CloudTestContext;
let owner: TestUser;
let token: string;
let strangerToken: string;
let stranger: TestUser;
const tenantIds: string[] = [];

async function call(method: 'GET' | 'POST' | 'DELETE', url: string, body?: unknown, authorization = token) {
  return context.app.inject({
    method,
    url,
    headers: {
      ...bearer(authorization),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  });
}

async function scan(): Promise<void> {
  clockMs += 2 * minuteMs;
  const response = await call('POST', '/api/v1/security/scan');
  expect(response.statusCode, response.body).toBe(200);
}

async function listAll(query: string): Promise<SecurityFinding[]> {
  const found: SecurityFinding[] = [];
  for (let offset = 0; ; offset += 30) {
    const response = await call('GET', `/api/v1/security/finding?offset=${offset}&${query}`);
    expect(response.statusCode, response.body).toBe(200);
    const page = response.json<SecurityFindingList>();
    found.push(...page.Data);
    if (found.length >= page.Total || page.Data.length === 0) return found;
  }
}

async function readFinding(id: string): Promise<SecurityFindingDetail> {
  const response = await call('GET', `/api/v1/security/finding/${id}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SecurityFindingDetail>();
}

async function readSummary(): Promise<SecuritySummary> {
  const response = await call('GET', '/api/v1/security/summary');
  expect(response.statusCode, response.body).toBe(200);
  return response.json<SecuritySummary>();
}

beforeAll(async () => {
  context = await createCloudTestContext({ now: readClock, emulator: { fleetSize: 60, now: readClock } });
  owner = await createUser(context, { firstName: 'Sam' });
  token = await logIn(context, owner);
  stranger = await createUser(context, { firstName: 'Other' });
  strangerToken = await logIn(context, stranger);
  for (const tenantIndex of [0, 1]) {
    const tenantId = await connectTenant(context, owner.teamId, tenantIndex, 0);
    tenantIds.push(tenantId);
    await context.container.inventory.syncTenant(tenantId);
  }
}, 240_000);

afterAll(async () => {
  await context?.close();
});

describe('security scans and findings', () => {
  it('scans both tenants: every check fails in each, and a second ask within a minute is 429', async () => {
    await scan();
    const again = await call('POST', '/api/v1/security/scan');
    expect(again.statusCode).toBe(429);
    const findings = await listAll('Status=open');
    for (const tenantId of tenantIds) {
      const checkIds = new Set(
        findings.filter((finding) => finding.TenantId === tenantId).map((f) => f.CheckId),
      );
      const checks = (await call('GET', '/api/v1/security/checks')).json<{ Data: { Id: string }[] }>().Data;
      expect(checks.length).toBeGreaterThanOrEqual(20);
      const missing = checks.map((check) => check.Id).filter((id) => !checkIds.has(id));
      expect(missing).toEqual([]);
    }
    expect(Object.keys(findings[0] ?? {}).sort()).toEqual(
      [
        'Id',
        'CheckId',
        'Title',
        'Severity',
        'Status',
        'ResourceId',
        'ResourceName',
        'TenantId',
        'SubscriptionId',
        'Evidence',
        'Remediation',
        'Cis',
        'FirstSeen',
        'LastSeen',
        'ResolvedAt',
        'Mute',
      ].sort(),
    );
  });

  it('reads nothing twice: after a sync it lists no VMs or disks of its own, and finds the same', async () => {
    const tenantId = tenantIds[1] ?? '';
    const summary = await context.container.inventory.syncTenant(tenantId);
    const synced = summary?.resourcesBySubscription;
    expect(synced?.size).toBeGreaterThan(0);
    const stats = context.emulator.stats;
    let before = stats.calls['arm-read'];
    const alone = await context.container.security.scanTenant(tenantId);
    const aloneReads = stats.calls['arm-read'] - before;
    before = stats.calls['arm-read'];
    const afterSync = await context.container.security.scanTenant(tenantId, {}, synced);
    const afterSyncReads = stats.calls['arm-read'] - before;
    // One page each of the VM and disk lists per subscription (the fleet is small) is all it saves.
    expect(aloneReads - afterSyncReads).toBe(2 * (synced?.size ?? 0));
    expect(afterSync).toBe(alone);
    // Nothing the sync's records left out was taken for fixed.
    expect(await listAll(`Status=resolved&TenantId=${tenantId}`)).toEqual([]);
    expect((await listAll(`CheckId=vm-managed-disks&TenantId=${tenantId}`)).length).toBeGreaterThan(0);
  });

  it('summarizes counts and scores; the subscription without Defender has no score', async () => {
    const response = await call('GET', '/api/v1/security/summary');
    expect(response.statusCode, response.body).toBe(200);
    const summary = response.json<SecuritySummary>();
    expect(summary.Open).toBeGreaterThan(0);
    expect(summary.Counts.critical).toBeGreaterThan(0);
    const off = summary.Subscriptions.filter((subscription) => !subscription.IsDefenderEnabled);
    expect(off).toHaveLength(1);
    expect(off[0]?.Score).toBeNull();
    const on = summary.Subscriptions.filter((subscription) => subscription.IsDefenderEnabled);
    expect(on.length).toBeGreaterThan(1);
    for (const subscription of on) expect(subscription.Trend).toHaveLength(1);
  });

  it('filters, and refuses bad input naming the field', async () => {
    const critical = await listAll('Severity=critical');
    expect(critical.every((finding) => finding.Severity === 'critical')).toBe(true);
    const ssh = await listAll(`CheckId=network-ssh-internet&TenantId=${tenantIds[1]}`);
    expect(ssh.length).toBeGreaterThan(0);
    expect(ssh.every((finding) => finding.TenantId === tenantIds[1])).toBe(true);
    const bad = await call('GET', '/api/v1/security/finding?Severity=urgent');
    expect(bad.statusCode).toBe(400);
    expect(bad.json<{ field?: string }>().field).toBe('Severity');
  });

  it('refuses a Viewer every mute, unmute, mute rule and scan with 403, changing nothing', async () => {
    const viewer = await createUser(context, { teamId: owner.teamId, role: 'Viewer' });
    const viewerToken = await logIn(context, viewer);
    const [finding] = await listAll(`CheckId=storage-secure-transfer&Status=open&TenantId=${tenantIds[0]}`);
    expect(finding).toBeDefined();
    const id = finding?.Id ?? '';
    const until = new Date(clockMs + 7 * 86_400_000).toISOString().slice(0, 10);
    const refused = [
      await call(
        'POST',
        `/api/v1/security/finding/${id}/mute`,
        { Reason: 'Not mine to say', Until: until },
        viewerToken,
      ),
      await call('DELETE', `/api/v1/security/finding/${id}/mute`, undefined, viewerToken),
      await call(
        'POST',
        '/api/v1/security/mute-rule',
        {
          CheckId: 'storage-secure-transfer',
          Scope: { ResourceGroup: 'any-rg' },
          Reason: 'Not mine',
          Until: until,
        },
        viewerToken,
      ),
      await call('POST', '/api/v1/security/scan', undefined, viewerToken),
    ];
    expect(refused.map((response) => response.statusCode)).toEqual([403, 403, 403, 403]);
    const after = await readFinding(id);
    expect(after.Status).toBe('open');
    expect(after.Mute).toBeNull();
    expect(after.History.map((event) => event.Kind)).toEqual(['opened']);
    // Reading stays open to a Viewer.
    expect((await call('GET', `/api/v1/security/finding/${id}`, undefined, viewerToken)).statusCode).toBe(
      200,
    );
  });

  it('raises no alert for the first scan’s baseline, then one per new critical or high finding, once', async () => {
    const countSecurityAlerts = async () =>
      (await call('GET', '/api/v1/alert?offset=0'))
        .json<AlertListResponse>()
        .Alerts.filter((alert) => alert.Kind === 'security');
    expect(await countSecurityAlerts()).toEqual([]);
    // RDP opened on a VM whose NSG had no such rule: a new critical finding.
    const [quiet] = (await listAll(`CheckId=network-ssh-internet&TenantId=${tenantIds[1]}`)).slice(-1);
    const groupName = /of NSG '([^']+)'/.exec(quiet?.Evidence ?? '')?.[1] ?? '';
    const group = context.emulator.security
      .list(quiet?.SubscriptionId ?? '', 'Microsoft.Network/networkSecurityGroups')
      .find((item) => item.name === groupName);
    if (!group) throw new Error('The NSG is in the emulator');
    context.emulator.security.putSecurityRule(group.id, 'allow-rdp-new', {
      protocol: 'Tcp',
      access: 'Allow',
      direction: 'Inbound',
      priority: 250,
      sourceAddressPrefix: 'Internet',
      destinationPortRange: '3389',
    });
    await scan();
    const alerts = await countSecurityAlerts();
    expect(alerts).toHaveLength(1);
    expect(alerts[0]?.Title).toMatch(/^Critical: RDP \(TCP 3389\) is open to the internet on /);
    await scan();
    expect(await countSecurityAlerts()).toHaveLength(1);
  });

  it('mutes with a reason until a day, refuses bad mutes, expires by itself and unmutes early', async () => {
    const [finding] = await listAll('CheckId=storage-minimum-tls&Status=open');
    if (!finding) throw new Error('A TLS finding is open');
    const path = `/api/v1/security/finding/${finding.Id}/mute`;
    const short = await call('POST', path, { Reason: 'no', Until: '2026-12-01' });
    expect(short.json<{ field?: string }>().field).toBe('Reason');
    const far = await call('POST', path, { Reason: 'Legacy client', Until: '2028-01-01' });
    expect(far.statusCode).toBe(400);
    expect(far.json<{ field?: string }>().field).toBe('Until');
    expect(
      (await call('POST', path, { Reason: 'Legacy client', Until: '2026-12-01' }, strangerToken)).statusCode,
    ).toBe(404);
    expect((await readFinding(finding.Id)).Mute).toBeNull();
    // The summary, kept between calls, moves with every mute, unmute and expiry.
    const before = await readSummary();

    const muted = (
      await call('POST', path, { Reason: 'Legacy client until December', Until: '2026-11-22' })
    ).json<SecurityFindingDetail>();
    expect(muted.Status).toBe('muted');
    expect(muted.Mute).toEqual({
      Reason: 'Legacy client until December',
      Until: '2026-11-22',
      By: owner.email,
      RuleId: null,
    });
    expect((await listAll('Status=muted')).map((item) => item.Id)).toContain(finding.Id);
    expect(await readSummary()).toMatchObject({ Open: before.Open - 1, Muted: before.Muted + 1 });
    clockMs = Date.UTC(2026, 10, 23, 9, 0);
    token = await logIn(context, owner);
    strangerToken = await logIn(context, stranger);
    expect((await readFinding(finding.Id)).Status).toBe('open');
    expect(await readSummary()).toMatchObject({ Open: before.Open, Muted: before.Muted });

    await call('POST', path, { Reason: 'Accepted for now', Until: '2026-12-20' });
    expect(await readSummary()).toMatchObject({ Open: before.Open - 1, Muted: before.Muted + 1 });
    const unmuted = (await call('DELETE', path)).json<SecurityFindingDetail>();
    expect(unmuted.Status).toBe('open');
    expect(await readSummary()).toMatchObject({ Open: before.Open, Muted: before.Muted });
    expect(unmuted.History.map((entry) => entry.Kind)).toEqual(['opened', 'muted', 'muted', 'unmuted']);
  });

  it('a mute rule mutes a check in a resource group, today and in future scans', async () => {
    const [finding] = await listAll('CheckId=key-vault-recoverable&Status=open');
    if (!finding) throw new Error('A key vault finding is open');
    const group = /\/resourceGroups\/([^/]+)/i.exec(finding.ResourceId)?.[1] ?? '';
    const before = await readSummary();
    const response = await call('POST', '/api/v1/security/mute-rule', {
      CheckId: 'key-vault-recoverable',
      Scope: { ResourceGroup: group },
      Reason: 'Vaults of this group are rebuilt nightly',
      Until: '2027-01-31',
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ Muted: number }>().Muted).toBeGreaterThan(0);
    expect((await readSummary()).Muted).toBe(before.Muted + response.json<{ Muted: number }>().Muted);
    await scan();
    const after = await readFinding(finding.Id);
    expect(after.Status).toBe('muted');
    expect(after.Mute?.RuleId).toBe(response.json<{ Id: string }>().Id);
    // By tag: every VM tagged environment=dev has its Trusted Launch finding muted.
    const byTag = await call('POST', '/api/v1/security/mute-rule', {
      CheckId: 'vm-trusted-launch',
      Scope: { TagKey: 'environment', TagValue: 'dev' },
      Reason: 'Development VMs are rebuilt from Gen1 images until March',
      Until: '2027-01-31',
    });
    expect(byTag.statusCode, byTag.body).toBe(201);
    const trusted = await listAll('CheckId=vm-trusted-launch');
    expect(trusted.some((item) => item.Mute?.RuleId === byTag.json<{ Id: string }>().Id)).toBe(true);
    expect(trusted.some((item) => item.Status === 'open')).toBe(true);
    const bothScopes = await call('POST', '/api/v1/security/mute-rule', {
      CheckId: 'vm-trusted-launch',
      Scope: { ResourceGroup: group, TagKey: 'environment' },
      Reason: 'whatever it is',
      Until: '2027-01-31',
    });
    expect(bothScopes.statusCode).toBe(400);
    const unknown = await call('POST', '/api/v1/security/mute-rule', {
      CheckId: 'no-such-check',
      Scope: { ResourceGroup: group },
      Reason: 'whatever it is',
      Until: '2027-01-31',
    });
    expect(unknown.json<{ field?: string }>().field).toBe('CheckId');
  });

  it('fixed in Azure: resolved on the next scan; back again: reopened with its history', async () => {
    const [finding] = await listAll(`CheckId=network-ssh-internet&TenantId=${tenantIds[0]}&Status=open`);
    if (!finding) throw new Error('An SSH finding is open');
    const nicRule = /rule '([^']+)' \(priority \d+\) of NSG '([^']+)'/.exec(finding.Evidence);
    const [, ruleName = '', groupName = ''] = nicRule ?? [];
    const group = context.emulator.security
      .list(finding.SubscriptionId, 'Microsoft.Network/networkSecurityGroups')
      .find((item) => item.name === groupName);
    if (!group) throw new Error('The NSG is in the emulator');
    const rule = context.emulator.security.findSecurityRule(`${group.id}/securityRules/${ruleName}`);
    expect(context.emulator.security.deleteSecurityRule(`${group.id}/securityRules/${ruleName}`)).toBe(true);
    const before = await readSummary();
    await scan();
    const resolved = await readFinding(finding.Id);
    expect(resolved.Status).toBe('resolved');
    // The summary says what the list says, at once.
    const after = await readSummary();
    expect(after.Resolved).toBe((await listAll('Status=resolved')).length);
    expect(after.Resolved).toBeGreaterThan(before.Resolved);
    expect(after.Open + after.Resolved).toBe(before.Open + before.Resolved);
    expect(resolved.ResolvedAt).toBe(readClock().toISOString());

    context.emulator.security.putSecurityRule(group.id, ruleName, rule?.rule.properties ?? {});
    await scan();
    const reopened = await readFinding(finding.Id);
    expect(reopened.Status).toBe('open');
    expect(reopened.ResolvedAt).toBeNull();
    expect(reopened.FirstSeen).toBe(finding.FirstSeen);
    expect(reopened.History.map((entry) => entry.Kind)).toEqual(['opened', 'resolved', 'reopened']);
  });

  it('exports CSV and OCSF, muted findings as suppressed; another team sees nothing', async () => {
    const total = (await listAll('')).length;
    const csv = await call('GET', '/api/v1/security/export?format=csv');
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.trim().split('\n')).toHaveLength(total + 1);
    const ocsf = await call('GET', '/api/v1/security/export?format=ocsf');
    const events = JSON.parse(ocsf.body) as { class_uid: number; status_id: number }[];
    expect(events).toHaveLength(total);
    expect(events.every((event) => event.class_uid === 2004)).toBe(true);
    expect(events.some((event) => event.status_id === 3)).toBe(true);
    expect((await call('GET', '/api/v1/security/export?format=pdf')).statusCode).toBe(400);
    const theirs = await call('GET', '/api/v1/security/finding', undefined, strangerToken);
    expect(theirs.json<SecurityFindingList>().Total).toBe(0);
    const [one] = await listAll('');
    expect(
      (await call('GET', `/api/v1/security/finding/${one?.Id}`, undefined, strangerToken)).statusCode,
    ).toBe(404);
  });
});
