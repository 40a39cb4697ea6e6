// Inbound exposure from the internet as Azure evaluates it: an NSG's rules in priority order (the
// first rule that matches decides, a Deny above an Allow closes the port), the default rules after
// them, and for a NIC both its subnet's NSG and its own NSG (traffic passes only if each allows it).
// An NSG no subnet or NIC uses is reached by no traffic, so it exposes nothing.
import type {
  NetworkInterfaceItem,
  NetworkSecurityGroupItem,
  SecurityInventory,
  SecurityRuleItem,
} from '../../cloud/security-inventory';

export type ExposedProtocol = 'Tcp' | 'Udp';

// Sources that stand for any internet address.
const internetSources = new Set(['*', 'internet', 'any', '0.0.0.0', '0.0.0.0/0', '::/0']);

export interface RuleDecision {
  isAllowed: boolean;
  /** The rule that decided, undefined for the implicit deny. */
  rule: SecurityRuleItem | undefined;
}

export interface PortRange {
  from: number;
  to: number;
}

function readPortRanges(rule: SecurityRuleItem): PortRange[] {
  const properties = rule.properties ?? {};
  const texts = [
    ...(properties.destinationPortRange ? [properties.destinationPortRange] : []),
    ...(properties.destinationPortRanges ?? []),
  ];
  const ranges: PortRange[] = [];
  for (const text of texts) {
    for (const part of text.split(',')) {
      const trimmed = part.trim();
      if (trimmed === '*') {
        ranges.push({ from: 0, to: 65535 });
        continue;
      }
      const match = /^(\d+)(?:\s*-\s*(\d+))?$/.exec(trimmed);
      if (!match) continue;
      const from = Number(match[1]);
      const to = match[2] === undefined ? from : Number(match[2]);
      ranges.push({ from: Math.min(from, to), to: Math.max(from, to) });
    }
  }
  return ranges;
}

function isFromInternet(rule: SecurityRuleItem): boolean {
  const properties = rule.properties ?? {};
  const sources = [
    ...(properties.sourceAddressPrefix ? [properties.sourceAddressPrefix] : []),
    ...(properties.sourceAddressPrefixes ?? []),
  ];
  return sources.some((source) => internetSources.has(source.trim().toLowerCase()));
}

function matchesProtocol(rule: SecurityRuleItem, protocol: ExposedProtocol): boolean {
  const ruleProtocol = (rule.properties?.protocol ?? '*').toLowerCase();
  return ruleProtocol === '*' || ruleProtocol === protocol.toLowerCase();
}

function isInbound(rule: SecurityRuleItem): boolean {
  return (rule.properties?.direction ?? '').toLowerCase() === 'inbound';
}

function sortedRules(group: NetworkSecurityGroupItem): SecurityRuleItem[] {
  const properties = group.properties ?? {};
  return [...(properties.securityRules ?? []), ...(properties.defaultSecurityRules ?? [])]
    .filter(isInbound)
    .sort((left, right) => (left.properties?.priority ?? 65535) - (right.properties?.priority ?? 65535));
}

/** How one NSG decides traffic from any internet address to a port. */
export function decideInbound(
  group: NetworkSecurityGroupItem,
  protocol: ExposedProtocol,
  port: number,
): RuleDecision {
  for (const rule of sortedRules(group)) {
    if (!matchesProtocol(rule, protocol)) continue;
    // A rule whose source is narrower than the internet neither opens nor closes the port to it.
    if (!isFromInternet(rule)) continue;
    if (!readPortRanges(rule).some((range) => range.from <= port && port <= range.to)) continue;
    return { isAllowed: (rule.properties?.access ?? '').toLowerCase() === 'allow', rule };
  }
  return { isAllowed: false, rule: undefined };
}

/** Ports where the decision can change: every rule's range edges, so testing these tests all. */
function candidatePorts(groups: readonly NetworkSecurityGroupItem[], protocol: ExposedProtocol): number[] {
  const ports = new Set<number>([0, 65535]);
  for (const group of groups) {
    for (const rule of sortedRules(group)) {
      if (!matchesProtocol(rule, protocol)) continue;
      for (const range of readPortRanges(rule)) {
        for (const port of [range.from - 1, range.from, range.to, range.to + 1]) {
          if (port >= 0 && port <= 65535) ports.add(port);
        }
      }
    }
  }
  return [...ports].sort((left, right) => left - right);
}

export interface Exposure {
  port: number;
  /** The allowing rule of each NSG on the path, subnet's first. */
  path: { group: NetworkSecurityGroupItem; rule: SecurityRuleItem | undefined }[];
}

/**
 * The first port of `ports` (every port when undefined) the internet reaches through these NSGs,
 * each of which must allow it; undefined when none is reached or no NSG guards the path.
 */
export function findExposure(
  groups: readonly NetworkSecurityGroupItem[],
  protocol: ExposedProtocol,
  ports: readonly number[] | undefined,
): Exposure | undefined {
  if (groups.length === 0) return undefined;
  for (const port of ports ?? candidatePorts(groups, protocol)) {
    const path: Exposure['path'] = [];
    let isAllowed = true;
    for (const group of groups) {
      const decision = decideInbound(group, protocol, port);
      if (!decision.isAllowed) {
        isAllowed = false;
        break;
      }
      path.push({ group, rule: decision.rule });
    }
    if (isAllowed) return { port, path };
  }
  return undefined;
}

export interface GuardedInterface {
  networkInterface: NetworkInterfaceItem;
  /** The NSGs traffic crosses inbound: the subnet's, then the NIC's. */
  groups: NetworkSecurityGroupItem[];
}

const lower = (text: string | undefined) => (text ?? '').toLowerCase();

/** Each NIC with the NSGs on its inbound path. */
export function listGuardedInterfaces(inventory: SecurityInventory): GuardedInterface[] {
  const groupsById = new Map(inventory.networkSecurityGroups.map((group) => [lower(group.id), group]));
  const subnetGroupIds = new Map<string, string>();
  for (const network of inventory.virtualNetworks) {
    for (const subnet of network.properties?.subnets ?? []) {
      const groupId = subnet.properties?.networkSecurityGroup?.id;
      if (subnet.id && groupId) subnetGroupIds.set(lower(subnet.id), lower(groupId));
    }
  }
  return inventory.networkInterfaces.map((networkInterface) => {
    const groups: NetworkSecurityGroupItem[] = [];
    const subnetId = networkInterface.properties?.ipConfigurations?.[0]?.properties?.subnet?.id;
    const subnetGroup = groupsById.get(subnetGroupIds.get(lower(subnetId)) ?? '');
    if (subnetGroup) groups.push(subnetGroup);
    const ownGroup = groupsById.get(lower(networkInterface.properties?.networkSecurityGroup?.id));
    if (ownGroup && ownGroup !== subnetGroup) groups.push(ownGroup);
    return { networkInterface, groups };
  });
}

export function describeExposure(protocol: ExposedProtocol, exposure: Exposure): string {
  const steps = exposure.path.map(({ group, rule }) =>
    rule
      ? `rule '${rule.name ?? ''}' (priority ${rule.properties?.priority ?? '?'}) of NSG '${group.name ?? ''}'`
      : `NSG '${group.name ?? ''}'`,
  );
  return `${protocol.toUpperCase()} port ${exposure.port} is open to the internet: allowed by ${steps.join(' and ')}.`;
}
