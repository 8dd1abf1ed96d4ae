import { describe, expect, it } from 'vitest';
import { blockedReason, checkWebhookUrl, parseV6, resolveTarget, UnsafeUrlError, type Lookup } from '#shared/webhooks/ssrf';

const aws = { localMode: false };
const local = { localMode: true };

describe('blocked addresses', () => {
  it.each([
    ['0.0.0.0', 'unspecified'],
    ['10.0.0.5', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['100.127.255.254', 'carrier-grade NAT'],
    ['127.0.0.1', 'loopback'],
    ['127.8.9.10', 'loopback'],
    ['169.254.169.254', 'link-local'],
    ['169.254.0.1', 'link-local'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['198.18.0.1', 'benchmarking'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456:789a::1', 'unique-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped IPv6 form of a loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped IPv6 form of a loopback'],
    ['::ffff:10.0.0.5', 'IPv4-mapped IPv6 form of a private'],
    ['::ffff:a9fe:a9fe', 'IPv4-mapped IPv6 form of a link-local'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'IPv4-mapped IPv6 form of a private'],
    ['64:ff9b::a9fe:a9fe', 'NAT64 form of a link-local'],
    ['2002:0a00:0001::1', '6to4 form of a private'],
    ['2001:0:4136:e378::1', 'Teredo'],
    ['2001:db8::1', 'documentation'],
    ['::127.0.0.1', 'IPv4-compatible'],
    ['100::1', 'reserved'],
  ])('%s is %s', (address, reason) => {
    expect(blockedReason(address)).toContain(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '169.253.255.255',
    '11.0.0.1',
    '2606:4700:4700::1111',
    '2a00:1450:4001:80b::200e',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('%s is public', (address) => {
    expect(blockedReason(address)).toBeUndefined();
  });

  it('parses IPv6 in all its spellings', () => {
    expect(parseV6('::')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect(parseV6('[::1]')).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    expect(parseV6('1:2:3:4:5:6:7:8')).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(parseV6('::ffff:1.2.3.4')).toEqual([0, 0, 0, 0, 0, 0xffff, 0x0102, 0x0304]);
    expect(parseV6('1::2::3')).toBeUndefined();
    expect(parseV6('1:2:3:4:5:6:7:8:9')).toBeUndefined();
  });
});

describe('URLs at registration', () => {
  const refused = (url: string, policy = aws) => {
    try {
      checkWebhookUrl(url, policy);
      return undefined;
    } catch (error) {
      expect(error).toBeInstanceOf(UnsafeUrlError);
      return (error as Error).message;
    }
  };

  it('need https outside local mode', () => {
    expect(refused('http://example.com/hook')).toBe('must use https');
    expect(refused('ftp://example.com/hook')).toBe('must use https');
    expect(refused('https://example.com/hook')).toBeUndefined();
    expect(refused('not a url')).toContain('absolute URL');
  });

  it('refuse IP literals of internal ranges, in every spelling WHATWG URL accepts', () => {
    for (const url of [
      'https://10.0.0.5/hook',
      'https://169.254.169.254/',
      'https://[::1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[::ffff:a9fe:a9fe]/latest/meta-data',
      'https://[fd00::1]/',
      'https://0x7f.1/',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://127.1/',
      'https://0/',
      'https://100.64.0.1/',
    ]) {
      expect(refused(url), url).toMatch(/must not point at/);
    }
  });

  it('refuse localhost, credentials and single-label hosts', () => {
    expect(refused('https://localhost/')).toContain('localhost');
    expect(refused('https://LOCALHOST./')).toContain('localhost');
    expect(refused('https://api.localhost/')).toContain('localhost');
    expect(refused('https://user:pass@example.com/')).toContain('credentials');
    expect(refused('https://intranet/')).toContain('fully qualified');
  });

  it('allow http://127.0.0.1:<port> and localhost only in local mode, and nothing else internal', () => {
    expect(refused('http://127.0.0.1:4000/hook', local)).toBeUndefined();
    expect(refused('http://localhost:4000/hook', local)).toBeUndefined();
    expect(refused('http://127.0.0.1:4000/hook', aws)).toBe('must use https');
    // Plain http is for the developer's own receiver only: any other host needs https locally too.
    expect(refused('http://example.com/hook', local)).toMatch(/^must use https/);
    expect(refused('http://hooks.example.com:8080/hook', local)).toMatch(/^must use https/);
    expect(refused('http://10.0.0.5/hook', local)).toMatch(/^must use https/);
    expect(refused('https://example.com/hook', local)).toBeUndefined();
    expect(refused('https://127.0.0.1/hook', aws)).toMatch(/loopback/);
    expect(refused('https://10.0.0.5/hook', local)).toMatch(/private/);
    expect(refused('https://169.254.169.254/', local)).toMatch(/link-local/);
    expect(refused('https://[::1]/', local)).toMatch(/loopback/);
  });
});

describe('resolution (registration and every delivery)', () => {
  const lookupTo =
    (...addresses: string[]): Lookup =>
    async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('connects to a checked public address, preferring IPv4', async () => {
    const url = new URL('https://hooks.example.com/x');
    await expect(resolveTarget(url, aws, { lookup: lookupTo('2606:4700::1', '93.184.216.34') })).resolves.toEqual({
      address: '93.184.216.34',
      family: 4,
    });
  });

  it('refuses a name when any of its addresses is internal (DNS rebinding, split answers)', async () => {
    const url = new URL('https://rebind.example.com/x');
    await expect(resolveTarget(url, aws, { lookup: lookupTo('93.184.216.34', '10.1.2.3') })).rejects.toThrow(/resolves to a private/);
    await expect(resolveTarget(url, aws, { lookup: lookupTo('169.254.169.254') })).rejects.toThrow(/link-local/);
    await expect(resolveTarget(url, aws, { lookup: lookupTo('::ffff:127.0.0.1') })).rejects.toThrow(/IPv4-mapped/);
  });

  it('pins localhost to 127.0.0.1 in local mode without asking DNS', async () => {
    const lookup: Lookup = async () => {
      throw new Error('must not be called');
    };
    await expect(resolveTarget(new URL('http://localhost:1234/'), local, { lookup })).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });

  it('gives up on a lookup that hangs', async () => {
    const lookup: Lookup = () => new Promise(() => undefined);
    await expect(resolveTarget(new URL('https://slow.example.com/'), aws, { lookup, timeoutMs: 20 })).rejects.toThrow(/timed out/);
  });
});
