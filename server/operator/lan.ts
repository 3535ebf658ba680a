import os from 'node:os';

export interface LanAddress {
  address: string;
  family: 'IPv4' | 'IPv6';
  interface: string;
}

type Interfaces = ReturnType<typeof os.networkInterfaces>;

// Bridges of containers and VMs are on the machine but not on the venue's network.
const VIRTUAL = /^(docker|br-|veth|virbr|vmnet|vboxnet|cni|flannel|podman|tun|tap|utun|zt|tailscale|wg)/i;

const isPrivateV4 = (a: string) => /^10\./.test(a) || /^192\.168\./.test(a) || /^172\.(1[6-9]|2\d|3[01])\./.test(a);

/**
 * The addresses tablets on the venue network can reach this machine at, best first: IPv4
 * before IPv6 (phones type and QR codes carry them more reliably), private LAN ranges
 * before others, physical interfaces before virtual bridges. Loopback, link-local
 * (169.254/16, fe80::/10) and unspecified addresses are never offered.
 */
export function lanAddresses(interfaces: Interfaces = os.networkInterfaces()): LanAddress[] {
  const found: (LanAddress & { rank: number; order: number })[] = [];
  let order = 0;
  for (const [name, list] of Object.entries(interfaces)) {
    for (const info of list ?? []) {
      order++;
      if (info.internal) continue;
      const family = info.family === 'IPv6' || (info.family as unknown) === 6 ? 'IPv6' : 'IPv4';
      const a = info.address;
      if (family === 'IPv4' && (a.startsWith('127.') || a.startsWith('169.254.') || a === '0.0.0.0')) continue;
      if (family === 'IPv6' && (a === '::' || a === '::1' || /^fe[89ab]/i.test(a))) continue;
      let rank = family === 'IPv4' ? 0 : 10;
      if (!(family === 'IPv4' && isPrivateV4(a)) && !(family === 'IPv6' && /^f[cd]/i.test(a))) rank += 1;
      if (VIRTUAL.test(name)) rank += 5;
      found.push({ address: a, family, interface: name, rank, order });
    }
  }
  found.sort((x, y) => x.rank - y.rank || x.order - y.order);
  return found.map(({ address, family, interface: iface }) => ({ address, family, interface: iface }));
}

export function urlFor(address: string, port: number): string {
  return `http://${address.includes(':') ? `[${address}]` : address}:${port}`;
}

/**
 * The URLs a listening server is reachable at. Listening on every interface (0.0.0.0, ::)
 * means each LAN address (never the unspecified one, which no tablet can open); a
 * specific host is just itself.
 */
export function reachableUrls(host: string, port: number, interfaces?: Interfaces): string[] {
  if (host === '0.0.0.0' || host === '::' || host === '') {
    const lan = lanAddresses(interfaces).filter((a) => host === '::' || a.family === 'IPv4');
    return [...lan.map((a) => urlFor(a.address, port)), urlFor('127.0.0.1', port)];
  }
  return [urlFor(host, port)];
}

/** publicUrl when the operator set none: the first LAN address, so printed QR codes work on guests' phones. */
export function defaultPublicUrl(port: number, interfaces?: Interfaces): string {
  const first = lanAddresses(interfaces).find((a) => a.family === 'IPv4') ?? lanAddresses(interfaces)[0];
  return urlFor(first?.address ?? '127.0.0.1', port);
}
