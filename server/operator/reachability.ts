import { execFile } from 'node:child_process';

/** Whether a tablet on the LAN can reach the hub, as the hub found by asking itself. */
export interface Reachability {
  /** the address tested (what tablets use) */
  url: string;
  reachable: boolean;
  /** Windows: the network's profile ('public' blocks tablets unless a rule allows it) */
  network_profile: 'public' | 'private' | 'domain' | null;
  /** why not, in a few words (the error of the request) */
  detail: string | null;
  checked_at: number;
}

const LOOPBACK = /^(127\.|\[?::1\]?$|localhost$)/;

/**
 * The address to test: the first LAN address the hub listens on; when it listens on no LAN
 * address (bound to one interface), the public URL tablets are given, if it is a plain
 * http address. null: nothing a tablet would use (a cloud behind https, say).
 */
export function probeTarget(urls: string[], publicUrl: string): string | null {
  const lan = urls.find((u) => !LOOPBACK.test(new URL(u).hostname));
  if (lan) return lan;
  try {
    const p = new URL(publicUrl);
    return p.protocol === 'http:' && !p.hostname.endsWith('.local') ? p.origin : null;
  } catch {
    return null;
  }
}

/**
 * A request to the hub's own LAN address, answered by this very hub (its node id echoed):
 * a firewall that drops or refuses it, or an interface the hub does not listen on, makes
 * it fail as it would for a tablet.
 */
export async function probe(url: string, expectNode: string | null, timeoutMs = 3000): Promise<{ ok: boolean; detail: string | null }> {
  try {
    const r = await fetch(`${url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    if (!r.ok) return { ok: false, detail: `answered ${r.status}` };
    if (expectNode) {
      const body = (await r.json().catch(() => null)) as { node?: string } | null;
      if (body?.node && body.node !== expectNode) return { ok: false, detail: 'another server answered at this address' };
    }
    return { ok: true, detail: null };
  } catch (err: any) {
    const cause = err?.cause?.code ?? err?.name ?? err?.message;
    return { ok: false, detail: cause === 'TimeoutError' ? `no answer within ${timeoutMs / 1000} s` : String(cause) };
  }
}

/** `Get-NetConnectionProfile | Select-Object -ExpandProperty NetworkCategory`: the strictest profile of the connected networks. */
export function parseNetworkCategory(output: string): Reachability['network_profile'] {
  const seen = output
    .split(/\r?\n/)
    .map((l) => l.trim().toLowerCase())
    .filter(Boolean);
  if (seen.includes('public')) return 'public';
  if (seen.includes('private')) return 'private';
  if (seen.some((s) => s.startsWith('domain'))) return 'domain';
  return null;
}

export function windowsNetworkProfile(): Promise<Reachability['network_profile']> {
  if (process.platform !== 'win32') return Promise.resolve(null);
  return new Promise((resolve) => {
    execFile('powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', 'Get-NetConnectionProfile | Select-Object -ExpandProperty NetworkCategory'], { timeout: 5000, windowsHide: true }, (err, stdout) =>
      resolve(err ? null : parseNetworkCategory(stdout)),
    );
  });
}

/** Tests now: the hub's own LAN address, and on Windows the network's profile. */
export async function checkReachability(target: string, expectNode: string | null, nowMs: number): Promise<Reachability> {
  const [r, network_profile] = await Promise.all([probe(target, expectNode), windowsNetworkProfile()]);
  return { url: target, reachable: r.ok, network_profile, detail: r.detail, checked_at: nowMs };
}
