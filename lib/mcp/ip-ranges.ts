import 'server-only';
/**
 * Which IP addresses a server-side fetch of a user-given URL may reach. An MCP URL typed in the
 * browser is fetched by the server, so without this check a user could make the server talk to
 * its own loopback, the cloud metadata service or the private network behind it (SSRF).
 * Plain functions over parsed addresses; no DNS here (see url-guard.ts). The ranges are
 * ipaddr.js's special-purpose table, plus the cloud metadata addresses, the documentation
 * ranges and IPv4-compatible IPv6, which it does not single out.
 */
import ipaddr from 'ipaddr.js';

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

type RefusedKind = Exclude<AddressKind, 'public' | 'not-an-ip'>;
type Ranges = Partial<Record<RefusedKind, [ipaddr.IPv4 | ipaddr.IPv6, number][]>>;

const cidrs = (list: string[]) => list.map((cidr) => ipaddr.parseCIDR(cidr));

/**
 * Checked before ipaddr.js's own table, because they name the reason better: the metadata
 * services inside link-local and unique-local space, and the documentation ranges that
 * ipaddr.js counts as `reserved`.
 */
const SPECIFIC: Ranges = {
  metadata: cidrs([
    '169.254.169.254/32', // AWS, GCP, Azure, OpenStack
    '100.100.100.200/32', // Alibaba Cloud
    'fd00:ec2::254/128', // AWS over IPv6
  ]),
  documentation: cidrs(['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32', '3fff::/20']),
};

/** Ranges ipaddr.js calls plain unicast that we refuse all the same. */
const EXTRA: Ranges = {
  'ipv4-embedded': cidrs(['::/96']), // deprecated IPv4-compatible (::a.b.c.d)
};

/**
 * Why each of ipaddr.js's special ranges (`range()`) is refused. Everything it names is refused:
 * none of them is where an MCP server lives, and a name added by a later version of the library
 * is refused as reserved until it is listed here.
 */
const LIBRARY_KINDS: Record<string, RefusedKind> = {
  unspecified: 'unspecified',
  broadcast: 'reserved',
  multicast: 'multicast',
  linkLocal: 'link-local',
  loopback: 'loopback',
  carrierGradeNat: 'cgnat',
  private: 'private',
  reserved: 'reserved',
  as112: 'reserved',
  amt: 'reserved',
  uniqueLocal: 'unique-local',
  ipv4Mapped: 'ipv4-mapped',
  deprecatedSiteLocal: 'link-local',
  discard: 'reserved',
  rfc6145: 'ipv4-embedded', // IPv4-translated
  rfc6052: 'ipv4-embedded', // NAT64
  '6to4': 'ipv4-embedded',
  teredo: 'ipv4-embedded',
  benchmarking: 'reserved',
  as112v6: 'reserved',
  deprecatedOrchid: 'reserved',
  orchid2: 'reserved',
  droneRemoteIdProtocolEntityTags: 'reserved',
  segmentRouting: 'reserved',
};

function matchRanges(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: Ranges): RefusedKind | undefined {
  const name = ipaddr.subnetMatch(address, ranges, '');
  return name ? (name as RefusedKind) : undefined;
}

/** A dotted-quad IPv4 address (no octal, hex or short forms), or undefined. */
function toIpv4(text: string): ipaddr.IPv4 | undefined {
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? ipaddr.IPv4.parse(text) : undefined;
}

/** An IPv6 address; brackets and a zone id allowed, and a dotted IPv4 tail. */
function toIpv6(text: string): ipaddr.IPv6 | undefined {
  let address = text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text;
  const zone = address.indexOf('%');
  if (zone !== -1) address = address.slice(0, zone);
  if (!address.includes(':')) return undefined;
  const lastColon = address.lastIndexOf(':');
  const tail = address.slice(lastColon + 1);
  if (tail.includes('.')) {
    // ipaddr.js reads `::a.b.c.d` as IPv4-mapped (::ffff:a.b.c.d); written as two groups, the
    // tail keeps the bytes the address has.
    const ipv4 = toIpv4(tail);
    if (!ipv4) return undefined;
    const [a, b, c, d] = ipv4.octets;
    address = `${address.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  return ipaddr.IPv6.isValid(address) ? ipaddr.IPv6.parse(address) : undefined;
}

/** Bytes of a dotted-quad IPv4 address, or undefined when `text` is not one. */
export function parseIpv4(text: string): number[] | undefined {
  return toIpv4(text)?.toByteArray();
}

/** Bytes of an IPv6 address (zone id and brackets allowed, dotted IPv4 tail allowed). */
export function parseIpv6(text: string): number[] | undefined {
  return toIpv6(text)?.toByteArray();
}

/**
 * What kind of address `ip` is. Every IPv6 form that embeds an IPv4 address (mapped,
 * compatible, translated, NAT64, 6to4, Teredo) is refused outright: the embedded address could
 * be anything, and no MCP server needs to be reached that way.
 */
export function getAddressKind(ip: string): AddressKind {
  const address = toIpv4(ip) ?? toIpv6(ip);
  if (!address) return 'not-an-ip';
  const range = address.range();
  return (
    matchRanges(address, SPECIFIC) ??
    (range === 'unicast' ? undefined : (LIBRARY_KINDS[range] ?? 'reserved')) ??
    matchRanges(address, EXTRA) ??
    'public'
  );
}

/** True when `ip` is an IPv4 or IPv6 literal. */
export function isIpLiteral(ip: string): boolean {
  return toIpv4(ip) !== undefined || toIpv6(ip) !== undefined;
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
