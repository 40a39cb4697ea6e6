// The part of a client's address a throttle counts by. An IPv6 client usually holds a whole /64 and
// can pick a new address in it for every request, so IPv6 clients are counted by their /64; IPv4
// clients (also when written as IPv4-mapped IPv6) by their address.
import net from 'node:net';

export function toClientNetwork(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (net.isIP(address) !== 6) return address;
  return `${expandIpv6(address).slice(0, 4).join(':')}::/64`;
}

// The eight groups of an IPv6 address, without leading zeros; a zone (%eth0) is dropped.
function expandIpv6(address: string): string[] {
  const [head = '', tail] = address.split('%')[0]!.toLowerCase().split('::');
  const toGroups = (part: string) => (part ? part.split(':') : []);
  const headGroups = toGroups(head);
  const tailGroups = tail === undefined ? [] : toGroups(tail);
  // A trailing dotted IPv4 part stands for two groups.
  const lastGroup = (tail === undefined ? headGroups : tailGroups).at(-1);
  const ipv4Groups = lastGroup?.includes('.') ? 1 : 0;
  const missing = 8 - headGroups.length - tailGroups.length - ipv4Groups;
  const groups = [...headGroups, ...Array.from({ length: Math.max(missing, 0) }, () => '0'), ...tailGroups];
  return groups.map((group) => (group.includes('.') ? group : group.replace(/^0+(?=.)/, '')));
}
