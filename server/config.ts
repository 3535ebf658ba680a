// .gitattributes merges this file with merge=union: two branches that each add a setting merge
// cleanly by keeping both lines; check the result still compiles after a merge.
/** Everything an operator can tune. createServer fills in defaults for whatever is left out. */
export interface Config {
  /** 'hub' is the venue's back-office PC; 'cloud' is the internet-facing copy. */
  role: 'hub' | 'cloud';
  /** Largest request body accepted, in bytes. */
  bodyLimitBytes: number;
  /** Per API key token bucket for /v1 and /public/orders; false switches it off. */
  rateLimit: { perSecond: number; burst: number } | false;
  /** Guest routes, per IP and per restaurant. */
  guestRateLimit: { perMinutePerIp: number; perMinutePerRestaurant: number } | false;
  /** Addresses of reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies: string[];
  /** Base URL printed on QR codes and in links, e.g. http://hub.local:8080 */
  publicUrl: string;
  /**
   * Names the back office may be opened by, besides IP addresses, localhost, this machine's
   * hostname and publicUrl's host (http/hosts.ts): a request carrying a session cookie under
   * any other Host is refused, which stops DNS rebinding.
   */
  allowedHosts: string[];
  /** How long a replayable Idempotency-Key answer is kept. */
  idempotencyTtlSeconds: number;
  /** Outgoing mail (contact form, waitlist notices). smtp null: mail waits in the queue until it is set. */
  mail: { smtp: SmtpConfig | null; from: string; contactTo: string };
  /** SMS gateway taking POST {to, text} as JSON; null: SMS notices go to the dashboard outbox. */
  sms: { url: string; token?: string } | null;
  /** Webhook delivery; unset fields take the defaults in domain/webhooks/config.ts (they depend on role). */
  /** Staff sessions of the back office (app/web). */
  backOffice: {
    /** a session unused this long ends */
    sessionIdleSeconds: number;
    /** and none lives longer than this */
    sessionMaxSeconds: number;
    /** failed sign-ins free per (account, address) before the growing wait, and allowed per address, within the window */
    signInFailuresPerAccount: number;
    signInFailuresPerIp: number;
    signInWindowSeconds: number;
  };
  webhooks: {
    /** May endpoints target loopback, private, link-local addresses? Default: hub yes, cloud no. */
    allowPrivateTargets?: boolean;
    /**
     * May a sandbox key's endpoints target them too? Default no: only a developer's own hub,
     * where the receiver under test runs on the same machine, turns it on.
     */
    sandboxPrivateTargets?: boolean;
    timeoutMs?: number;
    leaseMs?: number;
    maxParallel?: number;
    perEndpointConcurrency?: number;
    eventRetentionDays?: number;
  };
  /** The hub's data folder (SQLite file, backups, lock file, the key that seals stored credentials); null on PostgreSQL or in memory. */
  dataDir: string | null;
  /** Nightly online backups of the hub's SQLite database (needs dataDir). */
  backups: BackupConfig;
}

export interface BackupConfig {
  enabled: boolean;
  /** absolute, or relative to dataDir: a USB disk or a synced folder */
  dir: string;
  keepDays: number;
  /** node-cron expression, in the machine's local time */
  schedule: string;
}

export interface SmtpConfig {
  host: string;
  port: number;
  secure?: boolean;
  user?: string;
  pass?: string;
}

export const defaultConfig: Config = {
  role: 'hub',
  bodyLimitBytes: 1024 * 1024,
  rateLimit: { perSecond: 100, burst: 200 },
  guestRateLimit: { perMinutePerIp: 60, perMinutePerRestaurant: 600 },
  trustedProxies: [],
  publicUrl: 'http://127.0.0.1:8080',
  allowedHosts: [],
  idempotencyTtlSeconds: 24 * 3600,
  mail: { smtp: null, from: 'comanda <no-reply@comanda.local>', contactTo: 'hello@comanda.local' },
  sms: null,
  backOffice: {
    sessionIdleSeconds: 12 * 3600,
    sessionMaxSeconds: 30 * 24 * 3600,
    signInFailuresPerAccount: 5,
    signInFailuresPerIp: 30,
    signInWindowSeconds: 15 * 60,
  },
  webhooks: {},
  dataDir: null,
  backups: { enabled: false, dir: 'backups', keepDays: 14, schedule: '0 30 4 * * *' },
};
