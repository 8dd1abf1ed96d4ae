/**
 * SSRF guard for webhook URLs. A registration may only point at the public internet: hosts that
 * are (or resolve to) loopback, private, carrier-grade NAT, link-local (cloud metadata included),
 * unique-local, multicast, documentation or otherwise reserved addresses are refused — also when
 * hidden inside an IPv6 address (IPv4-mapped, NAT64, 6to4). The check runs at registration and
 * again before every delivery (DNS can change), and the delivery then connects to exactly the
 * address that was checked (no second lookup an attacker could answer differently).
 *
 * Local mode (`npm start`, tests) additionally allows the loopback hosts `127.0.0.1` and
 * `localhost`, over `http` too, so a receiver on the developer's machine can be registered. Every
 * other URL needs https there as on AWS (`http://example.com/hook` is refused in both).
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { isIP } from 'node:net';

export interface UrlPolicy {
  localMode: boolean;
}

/** Why a URL was refused; the message is shown to the API user. */
export class UnsafeUrlError extends Error {}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

const LOCAL_MODE_HOSTS = new Set(['127.0.0.1', 'localhost']);

// ---- IPv4 ---------------------------------------------------------------------------------------

const v4Blocked: [string, number, string][] = [
  ['0.0.0.0', 8, 'an unspecified ("this network") address'],
  ['10.0.0.0', 8, 'a private (RFC 1918) address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address (cloud metadata lives here)'],
  ['172.16.0.0', 12, 'a private (RFC 1918) address'],
  ['192.0.0.0', 24, 'an IETF protocol address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.88.99.0', 24, 'a 6to4 relay address'],
  ['192.168.0.0', 16, 'a private (RFC 1918) address'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

function v4ToNumber(address: string): number {
  return address.split('.').reduce((value, octet) => value * 256 + Number(octet), 0);
}

const v4Ranges = v4Blocked.map(([base, bits, reason]) => ({ base: v4ToNumber(base), size: 2 ** (32 - bits), reason }));

function classifyV4Number(value: number): string | undefined {
  return v4Ranges.find((range) => value >= range.base && value < range.base + range.size)?.reason;
}

// ---- IPv6 ---------------------------------------------------------------------------------------

/** Eight 16-bit groups of an IPv6 address (handles `::` and a trailing dotted IPv4 part). */
export function parseV6(address: string): number[] | undefined {
  let text = address
    .replace(/^\[|\]$/g, '')
    .split('%')[0]!
    .toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    if (isIP(dotted[1]!) !== 4) return undefined;
    const value = v4ToNumber(dotted[1]!);
    text = text.slice(0, -dotted[1]!.length) + `${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parts = (half: string) => (half === '' ? [] : half.split(':'));
  const head = parts(halves[0]!);
  const tail = halves.length === 2 ? parts(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if ((halves.length === 2 && missing < 1) || (halves.length === 1 && missing !== 0)) return undefined;
  const groups = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return groups.map((group) => parseInt(group, 16));
}

const embeddedV4 = (high: number, low: number): number => high * 65536 + low;

function classifyV6(groups: number[]): string | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const zeroUpTo = (count: number) => groups.slice(0, count).every((group) => group === 0);
  if (zeroUpTo(8)) return 'an unspecified address';
  if (zeroUpTo(7) && g7 === 1) return 'a loopback address';
  if (zeroUpTo(5) && g5 === 0xffff) {
    const inner = classifyV4Number(embeddedV4(g6, g7));
    return inner ? `an IPv4-mapped IPv6 form of ${inner}` : undefined;
  }
  if (zeroUpTo(6)) return 'an IPv4-compatible IPv6 address (deprecated)';
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    const inner = classifyV4Number(embeddedV4(g6, g7));
    return inner ? `a NAT64 form of ${inner}` : undefined;
  }
  if (g0 === 0x2002) {
    const inner = classifyV4Number(embeddedV4(g1, g2));
    return inner ? `a 6to4 form of ${inner}` : undefined;
  }
  if (g0 === 0x2001 && g1 === 0) return 'a Teredo address';
  if (g0 === 0x2001 && g1 === 0x0db8) return 'a documentation address';
  if ((g0 & 0xfe00) === 0xfc00) return 'a unique-local address';
  if ((g0 & 0xffc0) === 0xfe80) return 'a link-local address';
  if ((g0 & 0xff00) === 0xff00) return 'a multicast address';
  // Everything else outside global unicast (2000::/3) is reserved or special-purpose.
  if ((g0 & 0xe000) !== 0x2000) return 'a reserved IPv6 address';
  return undefined;
}

/** Why `address` (an IP literal) must not be contacted, or undefined when it is a public address. */
export function blockedReason(address: string): string | undefined {
  const bare = address.replace(/^\[|\]$/g, '');
  const version = isIP(bare.split('%')[0]!);
  if (version === 4) return classifyV4Number(v4ToNumber(bare));
  if (version === 6) {
    const groups = parseV6(bare);
    return groups ? classifyV6(groups) : 'an unparseable IPv6 address';
  }
  return 'not an IP address';
}

// ---- URLs ---------------------------------------------------------------------------------------

/** The host as it is connected to: URL hostnames keep IPv6 brackets and may end in a dot. */
export const bareHost = (url: URL): string =>
  url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

/**
 * Checks everything that does not need DNS. WHATWG URL parsing already normalizes the odd IPv4
 * spellings (`0x7f.1`, `2130706433`) to dotted form, so they are caught as the addresses they are.
 */
export function checkWebhookUrl(raw: string, policy: UrlPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UnsafeUrlError('must be an absolute URL such as https://example.com/webhooks');
  }
  const host = bareHost(url);
  const localAllowed = policy.localMode && LOCAL_MODE_HOSTS.has(host);
  if (url.protocol !== 'https:' && !(localAllowed && url.protocol === 'http:')) {
    throw new UnsafeUrlError(
      policy.localMode && url.protocol === 'http:' ? 'must use https (plain http only for 127.0.0.1 or localhost here)' : 'must use https',
    );
  }
  if (url.username || url.password) throw new UnsafeUrlError('must not contain credentials; authenticate with the signature');
  if (!host) throw new UnsafeUrlError('must name a host');
  if (localAllowed) return url;
  if (host === 'localhost' || host.endsWith('.localhost')) throw new UnsafeUrlError('must not point at localhost');
  if (isIP(host)) {
    const reason = blockedReason(host);
    if (reason) throw new UnsafeUrlError(`must not point at ${reason} (${host})`);
  } else if (!host.includes('.')) {
    throw new UnsafeUrlError('must use a fully qualified host name');
  }
  return url;
}

export type Lookup = (host: string) => Promise<LookupAddress[]>;

export const systemLookup: Lookup = (host) =>
  new Promise((resolve, reject) =>
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );

/** DNS failures that say the name does not exist (as opposed to "could not ask"). */
export const isNameNotFound = (error: unknown): boolean => ['ENOTFOUND', 'ENODATA'].includes((error as NodeJS.ErrnoException)?.code ?? '');

/**
 * The address to connect to: the URL's literal, or the first of the host's addresses after
 * checking that every one of them is public (a name that resolves to a mix is refused whole).
 */
export async function resolveTarget(
  url: URL,
  policy: UrlPolicy,
  options: { lookup?: Lookup; timeoutMs?: number } = {},
): Promise<ResolvedTarget> {
  const host = bareHost(url);
  checkWebhookUrl(url.href, policy);
  if (policy.localMode && LOCAL_MODE_HOSTS.has(host)) return { address: '127.0.0.1', family: 4 };
  const literal = isIP(host);
  if (literal) return { address: host, family: literal as 4 | 6 };
  const lookup = options.lookup ?? systemLookup;
  const timeoutMs = options.timeoutMs ?? 5_000;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`DNS lookup of ${host} timed out`), { code: 'ETIMEOUT' })), timeoutMs);
  });
  let addresses: LookupAddress[];
  try {
    addresses = await Promise.race([lookup(host), timeout]);
  } finally {
    clearTimeout(timer);
  }
  if (addresses.length === 0) throw Object.assign(new Error(`${host} has no addresses`), { code: 'ENODATA' });
  for (const { address } of addresses) {
    const reason = blockedReason(address);
    if (reason) throw new UnsafeUrlError(`${host} resolves to ${reason} (${address})`);
  }
  const first = addresses.find((entry) => entry.family === 4) ?? addresses[0]!;
  return { address: first.address, family: first.family as 4 | 6 };
}
