// .gitattributes merges this file with merge=union: two branches that each add a setting merge
// cleanly by keeping both lines; check the result still compiles after a merge.
import type { z } from 'zod';
import type { BackupConfigSchema, ConfigFields, SmtpSchema } from './operator/config-schema.ts';

type Limit<T> = Required<Exclude<T, false>> | false;

/**
 * Everything the server is tuned by. createServer fills in defaults for whatever is left out.
 * The keys and their meaning are declared once, in server/operator/config-schema.ts; this is that
 * schema's shape with every default filled in, plus what only code sets.
 */
export interface Config extends Pick<ConfigFields, 'role' | 'bodyLimitBytes' | 'trustedProxies' | 'publicUrl' | 'allowedHosts' | 'idempotencyTtlSeconds' | 'sms' | 'webhooks'> {
  rateLimit: Limit<ConfigFields['rateLimit']>;
  guestRateLimit: Limit<ConfigFields['guestRateLimit']>;
  mail: { smtp: SmtpConfig | null } & Required<Omit<ConfigFields['mail'], 'smtp'>>;
  /** Staff sessions of the back office (app/web); set in code (tests), not by an operator. */
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
  /** The hub's data folder (SQLite file, backups, lock file, the key that seals stored credentials); null on PostgreSQL or in memory. */
  dataDir: string | null;
  /** Nightly online backups of the hub's SQLite database (needs dataDir). */
  backups: BackupConfig;
}

export type BackupConfig = z.infer<typeof BackupConfigSchema>;
export type SmtpConfig = z.infer<typeof SmtpSchema>;

/** The limits' defaults, each field its own: a file or variable may set one field alone and keep the other. */
export const DEFAULT_RATE_LIMIT = { perSecond: 100, burst: 200 };
export const DEFAULT_GUEST_RATE_LIMIT = { perMinutePerIp: 60, perMinutePerRestaurant: 600 };

export const defaultConfig: Config = {
  role: 'hub',
  bodyLimitBytes: 1024 * 1024,
  rateLimit: DEFAULT_RATE_LIMIT,
  guestRateLimit: DEFAULT_GUEST_RATE_LIMIT,
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
