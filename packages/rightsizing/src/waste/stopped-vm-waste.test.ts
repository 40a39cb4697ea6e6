import { describe, expect, it } from 'vitest';
import { findStoppedVmWaste } from './stopped-vm-waste';
import { buildCandidate, daysAgo, fixtureNow } from './waste-fixtures';
import type { WasteCandidate } from './waste.types';

function stoppedVm(overrides: Partial<WasteCandidate> = {}): WasteCandidate {
  return buildCandidate({
    armId: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Compute/virtualMachines/report-02',
    name: 'report-02',
    type: 'Microsoft.Compute/virtualMachines',
    sku: 'Standard_D4s_v5',
    powerState: 'stopped',
    stateSince: daysAgo(5),
    vmHourly: 0.192,
    ...overrides,
  });
}

describe('findStoppedVmWaste', () => {
  it('proposes deallocating a VM stopped from its guest, saving its compute price a year', () => {
    const [finding] = findStoppedVmWaste(stoppedVm(), fixtureNow);
    expect(finding!.verdict).toBe('waste');
    if (finding!.verdict !== 'waste') return;
    // $0.192/h × 8,760 h.
    expect(finding!.proposal.annualCostSavings).toBe(1681.92);
    expect(finding!.proposal.recommendation).toBe(
      'Deallocate report-02: it is stopped but still billed for its compute.',
    );
    expect(finding!.proposal.memo).toContain('Nothing is deleted. Reversible: start it.');
  });

  it('says "at least" when only Cloudtrim\'s first sight dates the stop', () => {
    const [dated] = findStoppedVmWaste(stoppedVm(), fixtureNow);
    const [seen] = findStoppedVmWaste(stoppedVm({ isStateSeenOnly: true }), fixtureNow);
    if (dated!.verdict !== 'waste' || seen!.verdict !== 'waste') throw new Error('expected waste');
    expect(dated!.proposal.memo).toMatch(/^Seen: stopped since \S+ \(5 days\), not deallocated/);
    expect(seen!.proposal.memo).toMatch(
      /^Seen: stopped for at least 5 days \(since Cloudtrim first saw it, /,
    );
  });

  it('clears a VM running or deallocated, and leaves one stopped for less than a day', () => {
    expect(findStoppedVmWaste(stoppedVm({ powerState: 'running' }), fixtureNow)[0]!.verdict).toBe('clear');
    expect(findStoppedVmWaste(stoppedVm({ powerState: 'deallocated' }), fixtureNow)[0]!.verdict).toBe(
      'clear',
    );
    const recent = stoppedVm({ stateSince: fixtureNow - 3_600_000 });
    expect(findStoppedVmWaste(recent, fixtureNow)[0]!.verdict).toBe('clear');
  });

  it('skips a VM tagged cloudtrim:exclude, and does not judge one without a price', () => {
    expect(
      findStoppedVmWaste(stoppedVm({ tags: { 'cloudtrim:exclude': '1' } }), fixtureNow)[0]!.verdict,
    ).toBe('clear');
    expect(findStoppedVmWaste(stoppedVm({ vmHourly: null }), fixtureNow)[0]!.verdict).toBe('unjudged');
  });
});
