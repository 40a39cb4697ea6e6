// The export's two formats: CSV (one row per finding) and OCSF 1.1 Detection Finding JSON as
// Prowler writes it (an array; a muted finding is Suppressed, a fixed one Resolved).
import type { SecurityFinding } from '@cloudtrim/contracts/security';

const csvColumns = [
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
  'Command',
  'Cis',
  'FirstSeen',
  'LastSeen',
  'ResolvedAt',
  'MuteReason',
  'MutedUntil',
  'MutedBy',
] as const;

// A cell a spreadsheet would run as a formula starts with a quote instead.
function escapeCsv(value: string | null): string {
  const text = value ?? '';
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export const csvHeader = `${csvColumns.join(',')}\n`;

export function formatCsvRows(findings: readonly SecurityFinding[]): string {
  return findings
    .map(
      (finding) =>
        `${[
          finding.Id,
          finding.CheckId,
          finding.Title,
          finding.Severity,
          finding.Status,
          finding.ResourceId,
          finding.ResourceName,
          finding.TenantId,
          finding.SubscriptionId,
          finding.Evidence,
          finding.Remediation.Text,
          finding.Remediation.Command,
          finding.Cis,
          finding.FirstSeen,
          finding.LastSeen,
          finding.ResolvedAt,
          finding.Mute?.Reason ?? null,
          finding.Mute?.Until ?? null,
          finding.Mute?.By ?? null,
        ]
          .map(escapeCsv)
          .join(',')}\n`,
    )
    .join('');
}

const severityIds = { low: 2, medium: 3, high: 4, critical: 5 } as const;
const statuses = {
  open: { id: 1, name: 'New' },
  muted: { id: 3, name: 'Suppressed' },
  resolved: { id: 4, name: 'Resolved' },
} as const;

function readRegionlessType(resourceId: string): string {
  const match = /\/providers\/([^/]+\/[^/]+)/i.exec(resourceId);
  return match?.[1] ?? 'Microsoft.Resources/subscriptions';
}

/** One finding as an OCSF 1.1 Detection Finding (class 2004). */
export function toOcsfDetectionFinding(finding: SecurityFinding, productVersion: string) {
  const status = statuses[finding.Status];
  const epoch = (text: string | null) => (text ? Date.parse(text) : undefined);
  return {
    metadata: {
      version: '1.1.0',
      product: { name: 'Cloudtrim', vendor_name: 'Cloudtrim', version: productVersion },
      event_code: finding.CheckId,
      profiles: ['cloud'],
    },
    category_uid: 2,
    category_name: 'Findings',
    class_uid: 2004,
    class_name: 'Detection Finding',
    activity_id: 1,
    activity_name: 'Create',
    type_uid: 200401,
    type_name: 'Detection Finding: Create',
    severity_id: severityIds[finding.Severity],
    severity: finding.Severity.charAt(0).toUpperCase() + finding.Severity.slice(1),
    status_id: status.id,
    status: status.name,
    status_code: 'FAIL',
    status_detail: finding.Evidence,
    time: epoch(finding.LastSeen),
    time_dt: finding.LastSeen,
    finding_info: {
      uid: finding.Id,
      title: finding.Title,
      desc: finding.Evidence,
      types: finding.Cis ? [`CIS-2.0 ${finding.Cis}`] : [],
      created_time: epoch(finding.FirstSeen),
      first_seen_time: epoch(finding.FirstSeen),
      last_seen_time: epoch(finding.LastSeen),
    },
    resources: [
      {
        uid: finding.ResourceId,
        name: finding.ResourceName,
        type: readRegionlessType(finding.ResourceId),
        cloud_partition: 'AzureCloud',
        group: { name: /\/resourceGroups\/([^/]+)/i.exec(finding.ResourceId)?.[1] ?? '' },
      },
    ],
    cloud: {
      provider: 'azure',
      account: { uid: finding.SubscriptionId, type: 'Azure AD Account', type_id: 6 },
      org: { uid: finding.TenantId },
    },
    remediation: { desc: finding.Remediation.Text, references: [finding.Remediation.Command] },
    unmapped: {
      ...(finding.Cis ? { compliance: { 'CIS-2.0': [finding.Cis] } } : {}),
      ...(finding.Mute
        ? { muted: { reason: finding.Mute.Reason, until: finding.Mute.Until, by: finding.Mute.By } }
        : {}),
    },
  };
}
