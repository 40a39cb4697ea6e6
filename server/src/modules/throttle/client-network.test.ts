import { describe, expect, it } from 'vitest';
import { toClientNetwork } from './client-network';

describe('toClientNetwork', () => {
  it('counts an IPv6 client by its /64, however the address is written', () => {
    expect(toClientNetwork('2001:db8:4:7::1')).toBe('2001:db8:4:7::/64');
    expect(toClientNetwork('2001:0DB8:0004:0007:abcd:1:2:3')).toBe('2001:db8:4:7::/64');
    expect(toClientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(toClientNetwork('::1')).toBe('0:0:0:0::/64');
    expect(toClientNetwork('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('counts an IPv4 client by its address, also written as IPv4-mapped IPv6', () => {
    expect(toClientNetwork('198.51.100.7')).toBe('198.51.100.7');
    expect(toClientNetwork('::ffff:198.51.100.7')).toBe('198.51.100.7');
  });
});
