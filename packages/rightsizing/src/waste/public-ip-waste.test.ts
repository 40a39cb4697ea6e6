import { describe, expect, it } from 'vitest';
import { findPublicIpWaste } from './public-ip-waste';
import { buildCandidate, daysAgo, fixtureNow, fixturePrices, noPrices } from './waste-fixtures';
import type { WasteCandidate } from './waste.types';

function publicIp(overrides: Partial<WasteCandidate> = {}): WasteCandidate {
  return buildCandidate({
    armId: '/subscriptions/s1/resourceGroups/rg/providers/Microsoft.Network/publicIPAddresses/pip-old',
    name: 'pip-old',
    type: 'Microsoft.Network/publicIPAddresses',
    sku: 'Standard',
    details: { ipAddress: '20.1.2.3', allocationMethod: 'Static' },
    stateSince: daysAgo(30),
    ...overrides,
  });
}

describe('findPublicIpWaste', () => {
  it('proposes deleting a Standard IP associated with nothing for a week, priced by the hour', () => {
    const [finding] = findPublicIpWaste(publicIp(), fixturePrices, fixtureNow);
    expect(finding!.verdict).toBe('waste');
    if (finding!.verdict !== 'waste') return;
    // $0.005/h × 8,760 h.
    expect(finding!.proposal.annualCostSavings).toBe(43.8);
    expect(finding!.proposal.recommendation).toBe(
      'Delete the unused public IP address pip-old (Standard static, 20.1.2.3).',
    );
    expect(finding!.proposal.memo).toContain(
      'Deletes the public IP address pip-old (Standard static, 20.1.2.3) in eastus',
    );
    expect(finding!.proposal.memo).toContain('only APPLY NOW deletes it');
  });

  it('says when Azure dated the state, and says "at least" when only Cloudtrim\'s first sight does', () => {
    const [dated] = findPublicIpWaste(publicIp(), fixturePrices, fixtureNow);
    if (dated!.verdict !== 'waste') throw new Error('expected waste');
    expect(dated!.proposal.memo).toContain("(30 days, the write that left it so in Azure's Activity Log)");
    const [seen] = findPublicIpWaste(publicIp({ isStateSeenOnly: true }), fixturePrices, fixtureNow);
    if (seen!.verdict !== 'waste') throw new Error('expected waste');
    expect(seen!.proposal.memo).toContain('unassociated for at least 30 days (since Cloudtrim first saw it');
    const [recent] = findPublicIpWaste(
      publicIp({ isStateSeenOnly: true, stateSince: daysAgo(3) }),
      fixturePrices,
      fixtureNow,
    );
    expect(recent).toMatchObject({
      verdict: 'clear',
      reason: 'Unassociated for at least 3 days (since Cloudtrim first saw it); 7 are needed.',
    });
  });

  it('leaves an IP associated with a NIC or a NAT gateway, and one unassociated for days only', () => {
    const nic = publicIp({
      details: { ipConfigurationId: '/subscriptions/s1/.../ipConfigurations/ipconfig1' },
    });
    const nat = publicIp({ details: { natGatewayId: '/subscriptions/s1/.../natGateways/nat-1' } });
    const recent = publicIp({ stateSince: daysAgo(2) });
    for (const ip of [nic, nat, recent]) {
      expect(findPublicIpWaste(ip, fixturePrices, fixtureNow)[0]!.verdict).toBe('clear');
    }
  });

  it('skips an IP tagged for AKS or cloudtrim:exclude, and a Basic dynamic one (not billed)', () => {
    const aks = publicIp({ tags: { 'kubernetes.io-created-for-service': 'ingress' } });
    const excluded = publicIp({ tags: { 'cloudtrim:exclude': '' } });
    const dynamic = publicIp({ sku: 'Basic', details: { allocationMethod: 'Dynamic' } });
    for (const ip of [aks, excluded, dynamic]) {
      expect(findPublicIpWaste(ip, fixturePrices, fixtureNow)[0]!.verdict).toBe('clear');
    }
  });

  it('keeps a cloudtrim:exclude tag set to false from excluding anything', () => {
    const ip = publicIp({ tags: { 'cloudtrim:exclude': 'false' } });
    expect(findPublicIpWaste(ip, fixturePrices, fixtureNow)[0]!.verdict).toBe('waste');
  });

  it('does not judge without a price', () => {
    expect(findPublicIpWaste(publicIp(), noPrices, fixtureNow)[0]!.verdict).toBe('unjudged');
  });
});
