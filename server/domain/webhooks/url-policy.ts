import dns from 'node:dns';
import net from 'node:net';
import { ApiError } from '../../errors.ts';
import type { WebhooksConfig } from './config.ts';

// Ranges a cloud server must never post to: its own host, its private network, the cloud
// metadata service (169.254.169.254) and other non-public space.
const blocked = new net.BlockList();
for (const [addr, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  // documentation (TEST-NET-1..3): never a real receiver
  ['192.0.2.0', 24],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv4');
}
for (const [addr, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // IPv4-compatible (::a.b.c.d, deprecated) and IPv4-translated: another way to write an IPv4 address
  ['::', 96],
  ['::ffff:0:0:0', 96],
  // NAT64, well-known and local-use: a gateway that forwards to any IPv4 address, the private ones too
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  // discard-only, Teredo (a tunnel to an IPv4 address it hides), benchmarking, documentation
  ['100::', 64],
  ['2001::', 32],
  ['2001:2::', 48],
  ['2001:db8::', 32],
  ['3fff::', 20],
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv6');
}

/** True for loopback, private, link-local, unspecified, multicast and similar non-public addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    if (blocked.check(address, 'ipv6')) return true;
    const bytes = ipv6Bytes(address);
    // IPv4-mapped (::ffff:10.0.0.1, however written) is checked as the IPv4 address it names
    if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return blocked.check(bytes.slice(12).join('.'), 'ipv4');
    // 6to4 (2002:AABB:CCDD::/48) reaches the IPv4 address AA.BB.CC.DD
    if (bytes[0] === 0x20 && bytes[1] === 0x02) return blocked.check(bytes.slice(2, 6).join('.'), 'ipv4');
    return false;
  }
  return blocked.check(address, 'ipv4');
}

/** The 16 bytes of an IPv6 address in any notation (:: shortening, a dotted IPv4 tail, a zone). */
function ipv6Bytes(address: string): number[] {
  let text = address.split('%')[0].toLowerCase();
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
}

/** The host of a URL without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Longest URL stored, as stored (after normalisation). */
export const MAX_URL_LENGTH = 2000;

const refuse = (message: string) => new ApiError('url_not_allowed', message, 'url');

/**
 * The policy for an endpoint's URL by the side that sends it: one the venue's hub sends
 * (`sent_by: hub`) is checked as the hub would, wherever it is made (a LAN address, plain
 * http), since the cloud never connects to it.
 */
export function policyFor(cfg: WebhooksConfig, sentBy: string | undefined): WebhooksConfig {
  return sentBy === 'hub' ? { ...cfg, allowPrivateTargets: true, httpsOnly: false } : cfg;
}

/**
 * Whether an endpoint may reach private addresses: only a live one, on a server that allows
 * it (a hub, by default). A sandbox key is an integrator's test bench: it gets public
 * addresses only, so it can never make the venue's PC knock on its printers or router; a
 * developer's own hub may allow it (`webhooks.sandboxPrivateTargets`).
 */
export const mayReachPrivate = (cfg: Pick<WebhooksConfig, 'allowPrivateTargets' | 'sandboxPrivateTargets'>, livemode: boolean | number): boolean =>
  cfg.allowPrivateTargets && (livemode === true || livemode === 1 || cfg.sandboxPrivateTargets);

/**
 * Checks an endpoint URL when it is set: scheme, and on servers that must not reach
 * private networks, every address the name resolves to now. The sender checks again at
 * connect time (a name can be re-pointed later).
 */
export async function checkEndpointUrl(raw: string, cfg: WebhooksConfig, livemode: boolean): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ApiError('parameter_invalid', 'url must be an absolute http(s) URL.', 'url');
  }
  // percent-encoding and punycode can make the stored URL longer than what was sent
  if (url.toString().length > MAX_URL_LENGTH) {
    throw new ApiError('parameter_invalid', `url must be at most ${MAX_URL_LENGTH} characters once normalised.`, 'url');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('Webhook URLs must use http or https.');
  if (cfg.httpsOnly && url.protocol !== 'https:') throw refuse('Webhook URLs must use https.');
  if (url.username || url.password) throw refuse('Webhook URLs must not carry credentials; use the signing secret.');
  if (!mayReachPrivate(cfg, livemode)) {
    const host = hostOf(url);
    let addresses: string[];
    if (net.isIP(host)) addresses = [host];
    else {
      try {
        addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
      } catch {
        throw refuse(`The host '${host}' does not resolve.`);
      }
    }
    if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
      throw refuse('Webhook URLs must not point at loopback, private or link-local addresses.');
    }
  }
  return url.toString();
}

/** A dns.lookup for http.request that refuses non-public answers (used when private targets are off). */
export const publicOnlyLookup: net.LookupFunction = (hostname, options, callback) => {
  dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return (callback as any)(err);
    const list = addresses as unknown as dns.LookupAddress[];
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad || list.length === 0) {
      const e = Object.assign(new Error(`${hostname} resolves to a non-public address`), { code: 'EADDRNOTALLOWED' });
      return (callback as any)(e);
    }
    if ((options as dns.LookupOptions).all) return (callback as any)(null, list);
    return (callback as any)(null, list[0].address, list[0].family);
  });
};
