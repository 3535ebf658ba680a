import os from 'node:os';
import { isIP } from 'node:net';
import type { Context } from 'koa';
import { ApiError } from '../errors.ts';
import type { Services } from '../services.ts';

/**
 * DNS rebinding: a page of `rebind.attacker.example` whose name is made to resolve to
 * 127.0.0.1 (or the hub's LAN address) talks to the hub from the victim's browser as a
 * same-origin page, and the hub sees a loopback or LAN peer. Only the Host header tells it
 * apart, so cookie-authenticated requests (and first-run setup) must name the hub by a name
 * it knows. An IP literal is always fine: rebinding needs a name the attacker controls.
 *
 * Known names: localhost (and *.localhost), this machine's hostname (and `<hostname>.local`),
 * the public URL's host, and `config.allowedHosts` (an operator's extra names: a router's DNS
 * name, a cloud's other domains; the mDNS name is added by `comanda serve` when it announces).
 */
export function hostName(header: string | undefined): string | null {
  if (!header) return null;
  const h = header.trim().toLowerCase();
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end > 0 ? h.slice(1, end) : null;
  }
  // a bare IPv6 address has several colons; a name or IPv4 at most one (the port)
  if ((h.match(/:/g) ?? []).length > 1) return h;
  return h.replace(/:\d*$/, '').replace(/\.$/, '') || null;
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '::1']);

/** The Host names the machine itself: localhost, 127.0.0.1 or [::1]. */
export function isLoopbackHost(header: string | undefined): boolean {
  const name = hostName(header);
  return name !== null && (LOOPBACK_NAMES.has(name) || name.endsWith('.localhost'));
}

function knownNames(services: Services): Set<string> {
  const names = new Set<string>(LOOPBACK_NAMES);
  const machine = os.hostname().toLowerCase();
  if (machine) names.add(machine).add(`${machine.split('.')[0]}.local`);
  try {
    const pub = hostName(new URL(services.config.publicUrl).host);
    if (pub) names.add(pub);
  } catch {
    // a publicUrl that is no URL names nothing
  }
  for (const extra of services.config.allowedHosts) {
    const n = hostName(extra);
    if (n) names.add(n);
  }
  return names;
}

export function hostAllowed(services: Services, header: string | undefined): boolean {
  const name = hostName(header);
  if (name === null) return false;
  if (isIP(name) !== 0 || name.endsWith('.localhost')) return true;
  // read each time: publicUrl and allowedHosts may be set after the server was made
  return knownNames(services).has(name);
}

/** Refuses a request whose Host is not one of the hub's names (see above). */
export function requireKnownHost(ctx: Pick<Context, 'get'>, services: Services): void {
  if (hostAllowed(services, ctx.get('host'))) return;
  throw new ApiError(
    'host_not_allowed',
    `This server does not answer to the name '${hostName(ctx.get('host')) ?? ''}'. Open it by its address, or add the name to allowedHosts in its configuration.`,
  );
}
