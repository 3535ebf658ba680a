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
  ['64:ff9b::', 96],
] as const) {
  blocked.addSubnet(addr, prefix, 'ipv6');
}

/** True for loopback, private, link-local, unspecified, multicast and similar non-public addresses. */
export function isPrivateAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  if (family === 6) {
    // IPv4-mapped (::ffff:10.0.0.1) is checked as the IPv4 address it names.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return blocked.check(mapped[1], 'ipv4');
    return blocked.check(address, 'ipv6');
  }
  return blocked.check(address, 'ipv4');
}

/** The host of a URL without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/** Longest URL stored, as stored (after normalisation). */
export const MAX_URL_LENGTH = 2000;

const refuse = (message: string) => new ApiError('url_not_allowed', message, 'url');

/**
 * Checks an endpoint URL when it is set: scheme, and on servers that must not reach
 * private networks, every address the name resolves to now. The sender checks again at
 * connect time (a name can be re-pointed later).
 */
export async function checkEndpointUrl(raw: string, cfg: WebhooksConfig): Promise<string> {
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
  if (!cfg.allowPrivateTargets) {
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
