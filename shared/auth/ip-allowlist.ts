/**
 * IP allowlists: an account (and optionally a key) may restrict callers to CIDR ranges, IPv4 or
 * IPv6. Matching uses node's BlockList, which also matches IPv4-mapped IPv6 addresses
 * (`::ffff:203.0.113.7`) against IPv4 ranges.
 */
import { BlockList, isIP } from 'node:net';

export interface ParsedCidr {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** Parses `203.0.113.0/24`, `2001:db8::/32` or a bare address (a /32 or /128); undefined if invalid. */
export function parseCidr(text: string): ParsedCidr | undefined {
  const [address, prefixText, ...rest] = text.trim().split('/');
  if (!address || rest.length) return undefined;
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^\d{1,3}$/.test(prefixText)) return undefined;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (prefix > max) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

/** Validates a list; returns the invalid entries (empty when all are fine). */
export function invalidCidrs(cidrs: readonly string[]): string[] {
  return cidrs.filter((cidr) => parseCidr(cidr) === undefined);
}

const compiled = new Map<string, BlockList>();

function blockListOf(cidrs: readonly string[]): BlockList {
  const cacheKey = cidrs.join(',');
  let list = compiled.get(cacheKey);
  if (!list) {
    list = new BlockList();
    for (const cidr of cidrs) {
      const parsed = parseCidr(cidr);
      if (parsed) list.addSubnet(parsed.address, parsed.prefix, parsed.family);
    }
    if (compiled.size > 1000) compiled.clear();
    compiled.set(cacheKey, list);
  }
  return list;
}

/** True when `ip` lies in one of `cidrs`; an empty list allows everyone. Unparseable addresses never match. */
export function ipAllowed(ip: string | undefined, cidrs: readonly string[]): boolean {
  if (cidrs.length === 0) return true;
  if (!ip) return false;
  const version = isIP(ip);
  if (version === 0) return false;
  return blockListOf(cidrs).check(ip, version === 4 ? 'ipv4' : 'ipv6');
}
