import { SECRET_PATHS } from './config-schema.ts';
import type { EffectiveConfig } from './load-config.ts';

/** What stands in for a secret that is set: enough to tell it is there, never enough to use it. */
export function maskSecret(value: string | null | undefined): string | null {
  if (value === null || value === undefined || value === '') return null;
  return value.length >= 12 ? `••••${value.slice(-2)}` : '••••';
}

/** A connection string with its password masked. */
export function maskUrl(url: string | null): string | null {
  if (!url) return url;
  try {
    const u = new URL(url);
    if (u.password) u.password = '****';
    return u.toString();
  } catch {
    return maskSecret(url);
  }
}

/** A copy of `value` (in the config file's shape) with every secret the schema marks masked. */
export function maskSecrets<T>(value: T): T {
  const out = structuredClone(value) as any;
  for (const { path, kind } of SECRET_PATHS) {
    const parts = path.split('.');
    const holder = parts.slice(0, -1).reduce((at, k) => (at && typeof at === 'object' ? at[k] : undefined), out);
    const key = parts[parts.length - 1];
    if (!holder || typeof holder !== 'object' || !(key in holder)) continue;
    holder[key] = kind === 'url' ? maskUrl(holder[key]) : maskSecret(holder[key]);
  }
  return out;
}

/** The effective configuration as `comanda config check` prints it: every secret masked. */
export function maskedConfig(c: EffectiveConfig) {
  const { server } = c;
  return maskSecrets({
    role: server.role,
    port: c.port,
    host: c.host,
    publicUrl: server.publicUrl,
    publicUrlDefaulted: c.publicUrlDefaulted,
    databaseUrl: c.databaseUrl,
    dataDir: c.dataDir,
    bodyLimitBytes: server.bodyLimitBytes,
    rateLimit: server.rateLimit,
    guestRateLimit: server.guestRateLimit,
    trustedProxies: server.trustedProxies,
    idempotencyTtlSeconds: server.idempotencyTtlSeconds,
    mail: server.mail,
    sms: server.sms,
    webhooks: server.webhooks,
    backups: c.backups,
    mdns: c.mdns,
    sources: c.sources,
  });
}
