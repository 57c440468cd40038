import ipaddr from 'ipaddr.js';

/**
 * Which network destinations fetch_url may reach: public unicast addresses only, unless an
 * allow-list opens a host, a host:port or a CIDR range (ADK_FETCH_ALLOW_HOSTS, or the tool's
 * `allow_hosts` in agents.yaml). Loopback, private, link-local (cloud metadata), CGNAT,
 * multicast, unspecified and reserved ranges are refused, including when an IPv6 address embeds
 * one (IPv4-mapped, 6to4, Teredo, NAT64). IPv6 must be global unicast (2000::/3, the only space
 * IANA hands out for it) outside the special-purpose ranges that are not globally reachable.
 * Textual tricks (`2130706433`, `0x7f.1`, `127.1`) are normalised by the URL parser before they
 * get here.
 */
export interface AddressPolicy {
  /** Why `address` (an IP literal) may not be reached on `port` for `host`, or undefined if it may. */
  refuse(host: string, address: string, port: number): string | undefined;
}

export interface AllowEntry {
  host?: string | undefined;
  port?: number | undefined;
  cidr?: [ipaddr.IPv4 | ipaddr.IPv6, number] | undefined;
}

/** `host`, `host:port`, `[v6]:port`, `a.b.c.d/n`, `v6/n`; separated by commas or spaces. */
export function parseAllowHosts(text: string | readonly string[] | undefined): AllowEntry[] {
  const items = typeof text === 'string' ? text.split(/[\s,]+/) : [...(text ?? [])];
  const out: AllowEntry[] = [];
  for (const raw of items.map((s) => s.trim()).filter(Boolean)) {
    if (raw.includes('/')) {
      try {
        out.push({ cidr: ipaddr.parseCIDR(raw) });
      } catch {
        throw new Error(`'${raw}' is not a valid CIDR range`);
      }
      continue;
    }
    const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(raw) ?? /^([^:]+)(?::(\d+))?$/.exec(raw);
    if (!m) throw new Error(`'${raw}' is not a host, host:port or CIDR range`);
    out.push({ host: normaliseHost(m[1]), ...(m[2] ? { port: Number(m[2]) } : {}) });
  }
  return out;
}

export function addressPolicy(allow: readonly AllowEntry[] = []): AddressPolicy {
  return {
    refuse(host, address, port) {
      const ip = ipaddr.parse(address);
      const h = normaliseHost(host);
      for (const a of allow) {
        if (a.host !== undefined && (a.host === h || a.host === normaliseHost(address)) && (a.port === undefined || a.port === port)) return undefined;
        if (a.cidr && a.cidr[0].kind() === ip.kind() && ip.match(a.cidr as [ipaddr.IPv4, number])) return undefined;
      }
      const range = effectiveRange(ip);
      return range === 'unicast' ? undefined : `${host} resolves to ${address}, a ${describeRange(range)} address; fetch_url reaches only public addresses (allow a host with ADK_FETCH_ALLOW_HOSTS)`;
    },
  };
}

/** The range of an address, looking through IPv6 forms that carry an IPv4 address. */
function effectiveRange(ip: ipaddr.IPv4 | ipaddr.IPv6): string {
  if (ip.kind() === 'ipv4') return ip.range();
  const v6 = ip as ipaddr.IPv6;
  const range = v6.range();
  if (range === 'ipv4Mapped') return v6.toIPv4Address().range();
  const parts = v6.parts;
  if (range === '6to4') return ipaddr.fromByteArray([parts[1] >> 8, parts[1] & 255, parts[2] >> 8, parts[2] & 255]).range();
  if (range === 'rfc6052' || range === 'rfc6145') return ipaddr.fromByteArray([parts[6] >> 8, parts[6] & 255, parts[7] >> 8, parts[7] & 255]).range();
  if (range === 'teredo') return 'reserved';
  if (range !== 'unicast') return range;
  for (const [cidr, name] of NOT_GLOBAL_V6) if (v6.match(cidr)) return name;
  return v6.match(GLOBAL_UNICAST) ? 'unicast' : 'reserved';
}

const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3') as [ipaddr.IPv6, number];

/**
 * IPv6 ranges ipaddr.js calls unicast that are not globally reachable (IANA special-purpose
 * registry, plus site-local). The local-use NAT64 prefix is refused whole: where its IPv4 address
 * sits depends on the prefix length the network chose (RFC 6052), so it cannot be read reliably.
 * All but 3fff::/20 lie outside 2000::/3 and would be refused anyway; naming them explains why.
 */
const NOT_GLOBAL_V6 = (
  [
    ['64:ff9b:1::/48', 'nat64LocalUse'], // RFC 8215
    ['fec0::/10', 'siteLocal'], // RFC 3879, deprecated
    ['100:0:0:1::/64', 'reserved'], // RFC 9780 dummy prefix
    ['3fff::/20', 'reserved'], // RFC 9637 documentation
    ['5f00::/16', 'reserved'], // RFC 9602 SRv6 SIDs
  ] as const
).map(([cidr, name]) => [ipaddr.parseCIDR(cidr) as [ipaddr.IPv6, number], name] as const);

function describeRange(range: string): string {
  const names: Record<string, string> = {
    loopback: 'loopback',
    private: 'private-network',
    linkLocal: 'link-local',
    uniqueLocal: 'private-network (unique local)',
    carrierGradeNat: 'carrier-grade NAT',
    multicast: 'multicast',
    unspecified: 'unspecified',
    broadcast: 'broadcast',
    reserved: 'reserved',
    siteLocal: 'private-network (site-local)',
    nat64LocalUse: 'private-network (local-use NAT64)',
  };
  return names[range] ?? `reserved (${range})`;
}

function normaliseHost(host: string): string {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase().replace(/\.$/, '');
  return ipaddr.isValid(h) ? ipaddr.parse(h).toNormalizedString() : h;
}
