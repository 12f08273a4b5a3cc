import 'server-only';
/**
 * Which IP addresses a server-side fetch of a user-given URL may reach. An MCP URL typed in the
 * browser is fetched by the server, so without this check a user could make the server talk to
 * its own loopback, the cloud metadata service or the private network behind it (SSRF).
 * Plain functions over parsed addresses; no DNS here (see url-guard.ts).
 */

/** Why an address is refused; `public` means it may be fetched. */
export type AddressKind =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'cgnat'
  | 'link-local'
  | 'metadata'
  | 'unique-local'
  | 'ipv4-mapped'
  | 'ipv4-embedded'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'not-an-ip';

interface Range {
  /** Address bytes (4 for IPv4, 16 for IPv6). */
  bytes: number[];
  prefix: number;
  kind: Exclude<AddressKind, 'public' | 'not-an-ip'>;
}

const v4 = (cidr: string, kind: Range['kind']): Range => {
  const [address, prefix] = cidr.split('/');
  return { bytes: parseIpv4(address)!, prefix: Number(prefix), kind };
};
const v6 = (cidr: string, kind: Range['kind']): Range => {
  const [address, prefix] = cidr.split('/');
  return { bytes: parseIpv6(address)!, prefix: Number(prefix), kind };
};

// Most specific first: the first match names the reason.
const IPV4_RANGES: Range[] = [
  v4('169.254.169.254/32', 'metadata'), // AWS, GCP, Azure, OpenStack
  v4('100.100.100.200/32', 'metadata'), // Alibaba Cloud
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'),
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', 'reserved'),
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'reserved'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('240.0.0.0/4', 'reserved'),
];

const IPV6_RANGES: Range[] = [
  v6('fd00:ec2::254/128', 'metadata'), // AWS over IPv6
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('::ffff:0:0/96', 'ipv4-mapped'),
  v6('::/96', 'ipv4-embedded'), // deprecated IPv4-compatible
  v6('64:ff9b::/96', 'ipv4-embedded'), // NAT64
  v6('64:ff9b:1::/48', 'ipv4-embedded'),
  v6('100::/64', 'reserved'),
  v6('2001::/32', 'ipv4-embedded'), // Teredo
  v6('2001:db8::/32', 'documentation'),
  v6('2002::/16', 'ipv4-embedded'), // 6to4
  v6('fc00::/7', 'unique-local'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'link-local'), // deprecated site-local
  v6('ff00::/8', 'multicast'),
];

/** Bytes of a dotted-quad IPv4 address, or undefined when `text` is not one. */
export function parseIpv4(text: string): number[] | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const value = Number(part);
    if (value > 255) return undefined;
    bytes.push(value);
  }
  return bytes;
}

/** Bytes of an IPv6 address (zone id and brackets allowed, dotted IPv4 tail allowed). */
export function parseIpv6(text: string): number[] | undefined {
  let address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  if (!address.includes(':')) return undefined;

  let tail: number[] = [];
  const lastColon = address.lastIndexOf(':');
  const last = address.slice(lastColon + 1);
  if (last.includes('.')) {
    const ipv4 = parseIpv4(last);
    if (!ipv4) return undefined;
    tail = ipv4;
    address = address.slice(0, lastColon + 1) + '0:0'; // placeholder groups, replaced below
  }

  const halves = address.split('::');
  if (halves.length > 2) return undefined;
  const toGroups = (part: string) => (part === '' ? [] : part.split(':'));
  const head = toGroups(halves[0]);
  const rest = halves.length === 2 ? toGroups(halves[1]) : [];
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...rest];

  const bytes: number[] = [];
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return undefined;
    const value = parseInt(group, 16);
    bytes.push(value >> 8, value & 0xff);
  }
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function inRange(bytes: number[], range: Range): boolean {
  if (bytes.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[i] & mask) !== (range.bytes[i] & mask)) return false;
  }
  return true;
}

/**
 * What kind of address `ip` is. Every IPv6 form that embeds an IPv4 address (mapped,
 * compatible, NAT64, 6to4, Teredo) is refused outright: the embedded address could be anything,
 * and no MCP server needs to be reached that way.
 */
export function getAddressKind(ip: string): AddressKind {
  const ipv4 = parseIpv4(ip);
  if (ipv4) return IPV4_RANGES.find((range) => inRange(ipv4, range))?.kind ?? 'public';
  const ipv6 = parseIpv6(ip);
  if (ipv6) return IPV6_RANGES.find((range) => inRange(ipv6, range))?.kind ?? 'public';
  return 'not-an-ip';
}

/** True when `ip` is an IPv4 or IPv6 literal. */
export function isIpLiteral(ip: string): boolean {
  return parseIpv4(ip) !== undefined || parseIpv6(ip) !== undefined;
}

const KIND_TEXT: Record<AddressKind, string> = {
  public: 'a public address',
  unspecified: 'the unspecified address (this host)',
  loopback: 'a loopback address (this server itself)',
  private: 'a private-network address',
  cgnat: 'a carrier-grade NAT address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata service address',
  'unique-local': 'a unique-local IPv6 address (private network)',
  'ipv4-mapped': 'an IPv4-mapped IPv6 address',
  'ipv4-embedded': 'an IPv6 address that embeds an IPv4 address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
  documentation: 'a documentation-only address',
  'not-an-ip': 'not an IP address',
};

/** Human words for an address kind, used in refusal messages. */
export function describeAddressKind(kind: AddressKind): string {
  return KIND_TEXT[kind];
}
