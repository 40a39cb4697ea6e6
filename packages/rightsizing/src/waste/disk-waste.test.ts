import { describe, expect, it } from 'vitest';
import { findDiskWaste } from './disk-waste';
import { buildCandidate, daysAgo, fixtureNow, fixturePrices, noPrices } from './waste-fixtures';
import type { WasteCandidate, WasteFinding } from './waste.types';

const vmId = '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/batch-01';

function unattachedDisk(overrides: Partial<WasteCandidate> = {}): WasteCandidate {
  return buildCandidate({
    details: { diskState: 'Unattached', diskSizeGb: 128, tier: 'P10' },
    stateSince: daysAgo(20),
    ...overrides,
  });
}

function attachedDisk(ownerDays: number, overrides: Partial<WasteCandidate> = {}): WasteCandidate {
  return buildCandidate({
    details: { diskState: 'Reserved', diskSizeGb: 128, managedBy: vmId },
    owner: { powerState: 'deallocated', stateSince: daysAgo(ownerDays) },
    ...overrides,
  });
}

function findingOf(findings: WasteFinding[], kind: WasteFinding['kind']): WasteFinding {
  return findings.find((finding) => finding.kind === kind)!;
}

describe('findDiskWaste: unattached disks', () => {
  it('proposes deleting a disk unattached for a week, after a snapshot, netting the snapshot', () => {
    const finding = findingOf(findDiskWaste(unattachedDisk(), fixturePrices, fixtureNow), 'deleteDisk');
    expect(finding.verdict).toBe('waste');
    if (finding.verdict !== 'waste') return;
    // P10 $19.71 a month less a 128 GiB snapshot at $0.05 ($6.40): $13.31 a month, $159.72 a year.
    expect(finding.proposal.annualCostSavings).toBe(159.72);
    expect(finding.proposal.currentSize).toBe('Premium_LRS');
    expect(finding.proposal.recommendation).toBe(
      'Delete the unattached disk data-07 (Premium_LRS P10, 128 GiB) after taking a snapshot of it.',
    );
    expect(finding.proposal.memo).toContain(
      'Deletes the managed disk data-07 (Premium_LRS P10, 128 GiB) in eastus.',
    );
    expect(finding.proposal.memo).toContain('An incremental snapshot of it is taken first');
    expect(finding.proposal.memo).toContain('unattached since 2026-11-05 (20 days)');
    expect(finding.proposal.memo).toContain('so $13.31 a month is saved');
  });

  it("reads since when from Azure's LastOwnershipUpdateTime when inventory has no state_since", () => {
    const disk = unattachedDisk({
      stateSince: null,
      details: { diskState: 'Unattached', diskSizeGb: 128, lastOwnershipUpdateTime: '2026-11-01T08:00:00Z' },
    });
    const finding = findingOf(findDiskWaste(disk, fixturePrices, fixtureNow), 'deleteDisk');
    expect(finding.verdict).toBe('waste');
    if (finding.verdict === 'waste') expect(finding.proposal.memo).toContain('since 2026-11-01 (24 days)');
  });

  it('leaves a disk unattached for less than 7 days, and never proposes a tier for it', () => {
    const findings = findDiskWaste(unattachedDisk({ stateSince: daysAgo(3) }), fixturePrices, fixtureNow);
    expect(findingOf(findings, 'deleteDisk')).toEqual({
      kind: 'deleteDisk',
      verdict: 'clear',
      reason: 'Unattached for 3 days; 7 are needed.',
    });
    expect(findingOf(findings, 'diskTier').verdict).toBe('clear');
  });

  it('skips a disk AKS created, one tagged cloudtrim:exclude, and one managed by another resource', () => {
    const aks = unattachedDisk({ tags: { 'kubernetes.io-created-for-pvc-name': 'data-postgres-0' } });
    const excluded = unattachedDisk({ tags: { 'cloudtrim:exclude': 'true' } });
    const managed = unattachedDisk({
      details: {
        diskState: 'Unattached',
        diskSizeGb: 128,
        managedBy: '/subscriptions/s1/.../applications/app',
      },
    });
    for (const disk of [aks, excluded, managed]) {
      const findings = findDiskWaste(disk, fixturePrices, fixtureNow);
      expect(findings.every((finding) => finding.verdict === 'clear')).toBe(true);
    }
    expect(findingOf(findDiskWaste(aks, fixturePrices, fixtureNow), 'deleteDisk')).toMatchObject({
      reason: 'Not judged: AKS manages it (tag kubernetes.io-created-for-pvc-name).',
    });
  });

  it('does not judge without prices or without knowing since when', () => {
    expect(findingOf(findDiskWaste(unattachedDisk(), noPrices, fixtureNow), 'deleteDisk').verdict).toBe(
      'unjudged',
    );
    expect(
      findingOf(findDiskWaste(unattachedDisk({ stateSince: null }), fixturePrices, fixtureNow), 'deleteDisk')
        .verdict,
    ).toBe('unjudged');
  });

  it('proposes nothing when the snapshot would cost as much as the disk', () => {
    // S4 (32 GiB) costs $1.54 a month; its snapshot up to 32 × $0.05 = $1.60.
    const disk = unattachedDisk({
      sku: 'Standard_LRS',
      details: { diskState: 'Unattached', diskSizeGb: 32 },
    });
    expect(findingOf(findDiskWaste(disk, fixturePrices, fixtureNow), 'deleteDisk').verdict).toBe('clear');
  });
});

describe('findDiskWaste: Premium disks of deallocated VMs', () => {
  it('proposes Standard HDD for a Premium disk whose VM has been deallocated for 30 days', () => {
    const findings = findDiskWaste(attachedDisk(45), fixturePrices, fixtureNow);
    expect(findingOf(findings, 'deleteDisk').verdict).toBe('clear');
    const finding = findingOf(findings, 'diskTier');
    expect(finding.verdict).toBe('waste');
    if (finding.verdict !== 'waste') return;
    // P10 $19.71 against S10 $5.89 a month: $13.82, $165.84 a year.
    expect(finding.proposal.annualCostSavings).toBe(165.84);
    expect(finding.proposal).toMatchObject({ currentSize: 'Premium_LRS', targetSize: 'Standard_LRS' });
    expect(finding.proposal.recommendation).toBe(
      'Change the disk data-07 (128 GiB) from Premium SSD to Standard HDD while its VM batch-01 stays deallocated.',
    );
    expect(finding.proposal.memo).toContain('Nothing is deleted');
  });

  it('leaves the disk of a VM deallocated for less than 30 days, running, or stopped', () => {
    expect(findingOf(findDiskWaste(attachedDisk(12), fixturePrices, fixtureNow), 'diskTier').verdict).toBe(
      'clear',
    );
    const running = attachedDisk(45, { owner: { powerState: 'running', stateSince: daysAgo(45) } });
    expect(findingOf(findDiskWaste(running, fixturePrices, fixtureNow), 'diskTier').verdict).toBe('clear');
    const standard = attachedDisk(45, { sku: 'StandardSSD_LRS' });
    expect(findingOf(findDiskWaste(standard, fixturePrices, fixtureNow), 'diskTier').verdict).toBe('clear');
  });

  it('skips an excluded disk, and does not judge one whose VM inventory does not have', () => {
    const excluded = attachedDisk(45, { tags: { 'CloudTrim:Exclude': 'yes' } });
    expect(findingOf(findDiskWaste(excluded, fixturePrices, fixtureNow), 'diskTier').verdict).toBe('clear');
    const orphan = attachedDisk(45, { owner: null });
    expect(findingOf(findDiskWaste(orphan, fixturePrices, fixtureNow), 'diskTier').verdict).toBe('unjudged');
  });
});
