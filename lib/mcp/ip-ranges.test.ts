import { describe, expect, it } from 'vitest';
import { getAddressKind, parseIpv6 } from './ip-ranges';

describe('getAddressKind', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['1.1.1.1', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['fe80::1', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['::ffff:127.0.0.1', 'ipv4-mapped'],
    ['::ffff:7f00:1', 'ipv4-mapped'],
    ['::ffff:8.8.8.8', 'ipv4-mapped'],
    ['64:ff9b::a00:1', 'ipv4-embedded'],
    ['2002:7f00:1::', 'ipv4-embedded'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['fe80::1%eth0', 'link-local'],
    ['example.com', 'not-an-ip'],
    ['256.1.1.1', 'not-an-ip'],
  ])('%s is %s', (ip, kind) => {
    expect(getAddressKind(ip)).toBe(kind);
  });

  it('keeps addresses next to a range outside it', () => {
    expect(getAddressKind('172.32.0.1')).toBe('public');
    expect(getAddressKind('100.128.0.1')).toBe('public');
    expect(getAddressKind('11.0.0.1')).toBe('public');
  });
});

describe('parseIpv6', () => {
  it('expands :: and a dotted IPv4 tail', () => {
    expect(parseIpv6('::ffff:127.0.0.1')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 127, 0, 0, 1]);
    expect(parseIpv6('[2001:db8::1]')).toEqual([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
  });

  it('rejects malformed addresses', () => {
    expect(parseIpv6('1::2::3')).toBeUndefined();
    expect(parseIpv6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
    expect(parseIpv6('12345::')).toBeUndefined();
  });
});
