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

/** The effective configuration as `comanda config check` prints it: every secret masked. */
export function maskedConfig(c: EffectiveConfig) {
  const { server } = c;
  return {
    role: server.role,
    port: c.port,
    host: c.host,
    publicUrl: server.publicUrl,
    publicUrlDefaulted: c.publicUrlDefaulted,
    databaseUrl: maskUrl(c.databaseUrl),
    dataDir: c.dataDir,
    bodyLimitBytes: server.bodyLimitBytes,
    rateLimit: server.rateLimit,
    guestRateLimit: server.guestRateLimit,
    trustedProxies: server.trustedProxies,
    idempotencyTtlSeconds: server.idempotencyTtlSeconds,
    mail: {
      from: server.mail.from,
      contactTo: server.mail.contactTo,
      smtp: server.mail.smtp && { ...server.mail.smtp, pass: maskSecret(server.mail.smtp.pass) },
    },
    sms: server.sms && { url: server.sms.url, token: maskSecret(server.sms.token) },
    webhooks: server.webhooks,
    backups: c.backups,
    mdns: c.mdns,
    sources: c.sources,
  };
}
