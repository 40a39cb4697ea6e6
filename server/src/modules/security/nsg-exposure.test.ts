import { describe, expect, it } from 'vitest';
import { networkHttpInternetCheck } from './checks/network-http-internet.check';
import { networkRdpInternetCheck } from './checks/network-rdp-internet.check';
import { networkSshInternetCheck } from './checks/network-ssh-internet.check';
import { networkUdpInternetCheck } from './checks/network-udp-internet.check';
import { decideInbound } from './nsg-exposure';
import { emptyInventory, exposedEstate, nic, nsg, rule } from './security.fixtures';

const now = new Date('2026-11-27T12:00:00Z');
const ssh = (inventory: ReturnType<typeof exposedEstate>) => networkSshInternetCheck.evaluate(inventory, now);

describe('inbound exposure as Azure evaluates it', () => {
  it('finds SSH allowed from Internet on the NIC, naming the rule and the VM', () => {
    const failures = ssh(exposedEstate(undefined, nsg('web-nsg', [rule('allow-ssh', 300, {})])));
    expect(failures).toHaveLength(1);
    expect(failures[0]?.resourceName).toBe('vm-web');
    expect(failures[0]?.evidence).toContain("rule 'allow-ssh' (priority 300) of NSG 'web-nsg'");
  });

  it.each(['*', 'Internet', '0.0.0.0/0', 'Any'])('counts the source %s as the internet', (source) => {
    expect(
      ssh(exposedEstate(nsg('n', [rule('r', 100, { sourceAddressPrefix: source })]), undefined)),
    ).toHaveLength(1);
  });

  it('finds a source among sourceAddressPrefixes', () => {
    const group = nsg('n', [
      rule('r', 100, { sourceAddressPrefix: undefined, sourceAddressPrefixes: ['10.0.0.0/8', '0.0.0.0/0'] }),
    ]);
    expect(ssh(exposedEstate(group, undefined))).toHaveLength(1);
  });

  it('ignores a rule from a narrower source (an office range, VirtualNetwork)', () => {
    const group = nsg('n', [
      rule('office', 100, { sourceAddressPrefix: '203.0.113.0/24' }),
      rule('vnet', 110, { sourceAddressPrefix: 'VirtualNetwork' }),
    ]);
    expect(ssh(exposedEstate(group, undefined))).toEqual([]);
  });

  it('a Deny above the Allow closes the port, whatever their order in the list', () => {
    const group = nsg('n', [
      rule('allow', 300, {}),
      rule('deny', 200, { access: 'Deny', sourceAddressPrefix: '*' }),
    ]);
    expect(ssh(exposedEstate(group, undefined))).toEqual([]);
  });

  it('a Deny below the Allow does not close it', () => {
    const group = nsg('n', [
      rule('allow', 200, {}),
      rule('deny', 300, { access: 'Deny', sourceAddressPrefix: '*' }),
    ]);
    expect(ssh(exposedEstate(group, undefined))).toHaveLength(1);
  });

  it('a Deny from one address above does not close the port to the rest of the internet', () => {
    const group = nsg('n', [
      rule('deny-one', 100, { access: 'Deny', sourceAddressPrefix: '198.51.100.7/32' }),
      rule('allow', 200, {}),
    ]);
    expect(ssh(exposedEstate(group, undefined))).toHaveLength(1);
  });

  it('reads port ranges and lists', () => {
    expect(
      ssh(exposedEstate(nsg('n', [rule('r', 100, { destinationPortRange: '20-25' })]), undefined)),
    ).toHaveLength(1);
    expect(
      ssh(exposedEstate(nsg('n', [rule('r', 100, { destinationPortRange: '23-25' })]), undefined)),
    ).toEqual([]);
    const listed = nsg('n', [
      rule('r', 100, { destinationPortRange: undefined, destinationPortRanges: ['80', '443', '3380-3390'] }),
    ]);
    expect(networkRdpInternetCheck.evaluate(exposedEstate(listed, undefined), now)).toHaveLength(1);
    expect(ssh(exposedEstate(listed, undefined))).toEqual([]);
  });

  it('needs both the subnet NSG and the NIC NSG to allow', () => {
    const open = nsg('open', [rule('allow', 100, {})]);
    const closed = nsg('closed', []);
    expect(ssh(exposedEstate(open, closed))).toEqual([]);
    expect(ssh(exposedEstate(closed, open))).toEqual([]);
    const both = ssh(exposedEstate(open, nsg('open-too', [rule('allow-too', 100, {})])));
    expect(both).toHaveLength(1);
    expect(both[0]?.evidence).toContain("NSG 'open' and rule 'allow-too'");
  });

  it('an NSG no subnet or NIC uses exposes nothing', () => {
    const inventory = emptyInventory({ networkSecurityGroups: [nsg('orphan', [rule('allow', 100, {})])] });
    expect(ssh(inventory)).toEqual([]);
  });

  it('a Udp rule does not open TCP, an Any rule opens both', () => {
    const udp = nsg('n', [rule('dns', 100, { protocol: 'Udp', destinationPortRange: '53' })]);
    expect(ssh(exposedEstate(udp, undefined))).toEqual([]);
    const udpFindings = networkUdpInternetCheck.evaluate(exposedEstate(udp, undefined), now);
    expect(udpFindings[0]?.evidence).toContain('UDP port 53');
    const any = nsg('n', [rule('all', 100, { protocol: '*', destinationPortRange: '*' })]);
    expect(ssh(exposedEstate(any, undefined))).toHaveLength(1);
    expect(networkUdpInternetCheck.evaluate(exposedEstate(any, undefined), now)).toHaveLength(1);
  });

  it('finds the one UDP port a Deny range leaves open', () => {
    const group = nsg('n', [
      rule('deny-low', 100, {
        protocol: 'Udp',
        access: 'Deny',
        sourceAddressPrefix: '*',
        destinationPortRange: '0-499',
      }),
      rule('deny-high', 110, {
        protocol: 'Udp',
        access: 'Deny',
        sourceAddressPrefix: '*',
        destinationPortRange: '501-65535',
      }),
      rule('allow-all', 120, { protocol: 'Udp', destinationPortRange: '*' }),
    ]);
    const failures = networkUdpInternetCheck.evaluate(exposedEstate(group, undefined), now);
    expect(failures[0]?.evidence).toContain('UDP port 500');
  });

  it('HTTP checks 80 and 443; an Icmp rule opens neither', () => {
    const https = nsg('n', [rule('https', 100, { destinationPortRange: '443' })]);
    expect(networkHttpInternetCheck.evaluate(exposedEstate(https, undefined), now)[0]?.evidence).toContain(
      'TCP port 443',
    );
    const icmp = nsg('n', [rule('ping', 100, { protocol: 'Icmp', destinationPortRange: '*' })]);
    expect(networkHttpInternetCheck.evaluate(exposedEstate(icmp, undefined), now)).toEqual([]);
  });

  it('reports a NIC with no VM on the NIC itself', () => {
    const group = nsg('n', [rule('allow', 100, {})]);
    const lonely = nic('lonely', group);
    delete lonely.properties?.virtualMachine;
    const failures = ssh(emptyInventory({ networkSecurityGroups: [group], networkInterfaces: [lonely] }));
    expect(failures[0]?.resourceName).toBe('lonely');
  });

  it('without default rules the implicit deny still closes the port', () => {
    const bare = { id: 'x', name: 'bare', properties: { securityRules: [] } };
    expect(decideInbound(bare, 'Tcp', 22)).toEqual({ isAllowed: false, rule: undefined });
  });
});
