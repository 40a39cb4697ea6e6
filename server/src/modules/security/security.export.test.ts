import type { SecurityFinding } from '@cloudtrim/contracts/security';
import { describe, expect, it } from 'vitest';
import { csvHeader, formatCsvRows, toOcsfDetectionFinding } from './security.export';

const finding: SecurityFinding = {
  Id: '6f1c1d5e-3a53-4a8e-9d4e-0c7c1f2a9b10',
  CheckId: 'network-ssh-internet',
  Title: 'SSH (TCP 22) is open to the internet',
  Severity: 'critical',
  Status: 'muted',
  ResourceId: '/subscriptions/s/resourceGroups/web-rg/providers/Microsoft.Compute/virtualMachines/vm1',
  ResourceName: 'vm1',
  TenantId: 't',
  SubscriptionId: 's',
  Evidence: 'TCP port 22 is open to the internet: allowed by rule \'allow-ssh\', "really".',
  Remediation: { Text: 'Deny it.', Command: 'az network nsg rule update --access Deny' },
  Cis: '6.2',
  FirstSeen: '2026-11-20T10:00:00.000Z',
  LastSeen: '2026-11-27T10:00:00.000Z',
  ResolvedAt: null,
  Mute: { Reason: '=HYPERLINK("x")', Until: '2026-12-31', By: 'a@b.c', RuleId: null },
};

describe('security export', () => {
  it('CSV quotes commas and quotes, and defuses formulas', () => {
    const row = formatCsvRows([finding]);
    expect(csvHeader.split(',')).toHaveLength(19);
    expect(row).toContain(
      '"TCP port 22 is open to the internet: allowed by rule \'allow-ssh\', ""really""."',
    );
    expect(row).toContain(`"'=HYPERLINK(""x"")"`);
  });

  it('OCSF: a Detection Finding, muted as Suppressed, with the CIS control', () => {
    const event = toOcsfDetectionFinding(finding, '1');
    expect(event).toMatchObject({
      class_uid: 2004,
      type_uid: 200401,
      severity_id: 5,
      status_id: 3,
      status: 'Suppressed',
      cloud: { provider: 'azure', account: { uid: 's' } },
      resources: [{ type: 'Microsoft.Compute/virtualMachines', group: { name: 'web-rg' } }],
      unmapped: { compliance: { 'CIS-2.0': ['6.2'] } },
    });
    expect(toOcsfDetectionFinding({ ...finding, Status: 'resolved', Mute: null }, '1').status_id).toBe(4);
    // A check without a CIS 2.0 control claims none.
    const unmapped = toOcsfDetectionFinding({ ...finding, Cis: '' }, '1');
    expect(unmapped.finding_info.types).toEqual([]);
    expect(unmapped.unmapped).not.toHaveProperty('compliance');
  });
});
