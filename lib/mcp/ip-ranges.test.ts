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

describe('the ranges refused before ipaddr.js served them', () => {
  // The first and last address of every range of the hand-written table this replaced, with
  // the reason it gave: none may become public.
  it.each([
    ['169.254.169.254', '169.254.169.254', 'metadata'],
    ['100.100.100.200', '100.100.100.200', 'metadata'],
    ['0.0.0.0', '0.255.255.255', 'unspecified'],
    ['10.0.0.0', '10.255.255.255', 'private'],
    ['100.64.0.0', '100.127.255.255', 'cgnat'],
    ['127.0.0.0', '127.255.255.255', 'loopback'],
    ['169.254.0.0', '169.254.255.255', 'link-local'],
    ['172.16.0.0', '172.31.255.255', 'private'],
    ['192.0.0.0', '192.0.0.255', 'reserved'],
    ['192.0.2.0', '192.0.2.255', 'documentation'],
    ['192.88.99.0', '192.88.99.255', 'reserved'],
    ['192.168.0.0', '192.168.255.255', 'private'],
    ['198.18.0.0', '198.19.255.255', 'reserved'],
    ['198.51.100.0', '198.51.100.255', 'documentation'],
    ['203.0.113.0', '203.0.113.255', 'documentation'],
    ['224.0.0.0', '239.255.255.255', 'multicast'],
    ['240.0.0.0', '255.255.255.254', 'reserved'],
    ['fd00:ec2::254', 'fd00:ec2::254', 'metadata'],
    ['::ffff:0:0', '::ffff:ffff:ffff', 'ipv4-mapped'],
    ['::2', '::ffff:ffff', 'ipv4-embedded'],
    ['64:ff9b::', '64:ff9b::ffff:ffff', 'ipv4-embedded'],
    ['64:ff9b:1::', '64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'ipv4-embedded'],
    ['100::', '100::ffff:ffff:ffff:ffff', 'reserved'],
    ['2001::', '2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'ipv4-embedded'],
    ['2001:db8::', '2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
    ['2002::', '2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'ipv4-embedded'],
    ['fc00::', 'fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
    ['fe80::', 'febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
    ['fec0::', 'feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
    ['ff00::', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
  ])('%s to %s is %s', (first, last, kind) => {
    expect(getAddressKind(first)).toBe(kind);
    expect(getAddressKind(last)).toBe(kind);
  });

  it('reads ::a.b.c.d as IPv4-compatible, with the bytes written (not as IPv4-mapped)', () => {
    expect(getAddressKind('::8.8.8.8')).toBe('ipv4-embedded');
    expect(parseIpv6('::1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4]);
  });

  it('also refuses the special ranges ipaddr.js knows that the old table lacked', () => {
    expect(getAddressKind('::ffff:0:7f00:1')).toBe('ipv4-embedded'); // IPv4-translated
    expect(getAddressKind('3fff::1')).toBe('documentation');
    expect(getAddressKind('5f00::1')).toBe('reserved'); // SRv6
    expect(getAddressKind('2001:2::1')).toBe('reserved'); // benchmarking
    expect(getAddressKind('2001:20::1')).toBe('reserved'); // ORCHIDv2
    expect(getAddressKind('192.175.48.1')).toBe('reserved'); // AS112
  });

  it('takes only dotted-quad IPv4: other spellings are for the URL parser to normalise first', () => {
    for (const spelling of ['0177.0.0.1', '127.1', '0x7f.0.0.1', '2130706433', '01.2.3.4']) {
      expect(getAddressKind(spelling), spelling).toBe('not-an-ip');
    }
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
