import { isIP } from 'node:net';
import cron from 'node-cron';
import { z } from 'zod';

/**
 * What a key's metadata may say: `env`, the environment variable that sets it (12-factor, for
 * the cloud; it also overrides a hub's file); `secret`, shown masked wherever the config is
 * shown ('url': only the password of a connection string). The environment map, the masking and
 * the docs test all read this, so a key is declared once, here.
 */
export interface ConfigMeta {
  env?: string;
  secret?: true | 'url';
}
const meta = <S extends z.ZodType>(schema: S, m: ConfigMeta): S => schema.meta(m as Record<string, unknown>) as S;

const port = z.number().int().min(0).max(65535);
const positiveInt = z.number().int().positive();
const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');
const ip = z.string().refine((s) => isIP(s) !== 0, 'must be an IP address');

export const SmtpSchema = z.strictObject({
  host: meta(z.string().min(1), { env: 'SMTP_HOST' }),
  port: meta(port, { env: 'SMTP_PORT' }),
  secure: meta(z.boolean(), { env: 'SMTP_SECURE' }).optional(),
  user: meta(z.string(), { env: 'SMTP_USER' }).optional(),
  pass: meta(z.string(), { env: 'SMTP_PASS', secret: true }).optional(),
});

// each limit has its default (server/config.ts): one field set alone keeps the other's
const RateLimit = z.strictObject({
  perSecond: meta(z.number().positive(), { env: 'RATE_LIMIT_PER_SECOND' }),
  burst: meta(positiveInt, { env: 'RATE_LIMIT_BURST' }),
});
const GuestRateLimit = z.strictObject({
  perMinutePerIp: meta(positiveInt, { env: 'GUEST_RATE_LIMIT_PER_MINUTE_PER_IP' }),
  perMinutePerRestaurant: meta(positiveInt, { env: 'GUEST_RATE_LIMIT_PER_MINUTE_PER_RESTAURANT' }),
});

export const WebhooksConfigSchema = z.strictObject({
  /** May endpoints target loopback, private, link-local addresses? Default: hub yes, cloud no. */
  allowPrivateTargets: meta(z.boolean(), { env: 'WEBHOOKS_ALLOW_PRIVATE_TARGETS' }),
  /** May a sandbox key's endpoints target them too? Default no: only a developer's own hub turns it on. */
  sandboxPrivateTargets: meta(z.boolean(), { env: 'WEBHOOKS_SANDBOX_PRIVATE_TARGETS' }),
  timeoutMs: meta(positiveInt, { env: 'WEBHOOKS_TIMEOUT_MS' }),
  leaseMs: positiveInt,
  maxParallel: positiveInt,
  perEndpointConcurrency: positiveInt,
  eventRetentionDays: positiveInt,
});

export const BackupConfigSchema = z.strictObject({
  enabled: meta(z.boolean(), { env: 'BACKUP_ENABLED' }),
  /** a folder (a USB disk, a synced folder); relative paths are inside the data dir */
  dir: meta(z.string().min(1), { env: 'BACKUP_DIR' }),
  keepDays: meta(positiveInt.max(3650), { env: 'BACKUP_KEEP_DAYS' }),
  /** node-cron expression, the machine's local time */
  schedule: meta(
    z.string().refine((s) => cron.validate(s), 'must be a cron expression (e.g. "0 30 4 * * *")'),
    { env: 'BACKUP_SCHEDULE' },
  ),
});

/**
 * Every key an operator may set, complete: the one declaration of the configuration. The file's
 * schema (all optional), the server's `Config` type (server/config.ts), the environment map and
 * the masking derive from it. Strict at every level: a key we do not know is a typo that would
 * otherwise be silently ignored, so the server refuses to start and names it.
 */
export const ConfigFields = z.strictObject({
  role: meta(z.enum(['hub', 'cloud']), { env: 'COMANDA_ROLE' }),
  port: meta(port, { env: 'PORT' }),
  /** Address to listen on; the hub listens on every interface so tablets reach it. */
  host: meta(z.string().min(1), { env: 'HOST' }),
  /** Base URL printed on QR codes and in links, e.g. http://hub.local:8080 */
  publicUrl: meta(httpUrl, { env: 'PUBLIC_URL' }),
  /** more names the back office may be opened by (a router's DNS name, another domain) */
  allowedHosts: meta(z.array(z.string().min(1).max(253)), { env: 'ALLOWED_HOSTS' }),
  databaseUrl: meta(z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'), { env: 'DATABASE_URL', secret: 'url' }),
  /** Largest request body accepted, in bytes. */
  bodyLimitBytes: meta(positiveInt.max(64 * 1024 * 1024), { env: 'BODY_LIMIT_BYTES' }),
  /** Per API key token bucket for /v1 and /public/orders; false switches it off. */
  rateLimit: meta(z.union([z.literal(false), RateLimit.partial()]), { env: 'RATE_LIMIT' }),
  /** Guest routes, per IP and per restaurant. */
  guestRateLimit: meta(z.union([z.literal(false), GuestRateLimit.partial()]), { env: 'GUEST_RATE_LIMIT' }),
  /** Addresses of reverse proxies whose X-Forwarded-For is believed. */
  trustedProxies: meta(z.array(ip), { env: 'TRUSTED_PROXIES' }),
  /** How long a replayable Idempotency-Key answer is kept. */
  idempotencyTtlSeconds: positiveInt,
  /** Outgoing mail (contact form, waitlist notices). smtp null: mail waits in the queue until it is set. */
  mail: z
    .strictObject({
      smtp: SmtpSchema.nullable(),
      from: meta(z.string().min(3), { env: 'MAIL_FROM' }),
      contactTo: meta(z.email(), { env: 'CONTACT_TO' }),
    })
    .partial(),
  /** SMS gateway taking POST {to, text} as JSON; null: SMS notices go to the dashboard outbox. */
  sms: z
    .strictObject({
      url: meta(httpUrl, { env: 'SMS_URL' }),
      token: meta(z.string(), { env: 'SMS_TOKEN', secret: true }).optional(),
    })
    .nullable(),
  /** Webhook delivery; unset fields take the defaults in domain/webhooks/config.ts (they depend on role). */
  webhooks: WebhooksConfigSchema.partial(),
  /** Nightly online backups of the hub's SQLite database (needs a data dir). */
  backups: BackupConfigSchema.partial(),
  /** announce the hub on the LAN with mDNS/DNS-SD (_comanda._tcp) */
  mdns: meta(z.boolean(), { env: 'MDNS' }),
});

/** What `comanda.json`, the environment and the flags may hold: any key may be left out. */
export const OperatorConfigSchema = ConfigFields.partial();
export type OperatorConfig = z.infer<typeof OperatorConfigSchema>;
export type ConfigFields = z.infer<typeof ConfigFields>;

/** How an environment variable's text becomes its key's value; read from the key's schema. */
export type EnvKind = 'string' | 'number' | 'bool' | 'list' | 'onOff';

export interface ConfigLeaf {
  /** dotted path in the file's shape, e.g. `mail.smtp.pass` */
  path: string;
  kind: EnvKind;
  meta: ConfigMeta;
}

const defOf = (s: any) => s?._zod?.def ?? s?.def;
const metaOf = (s: z.ZodType): ConfigMeta => (z.globalRegistry.get(s) as ConfigMeta | undefined) ?? {};

function kindOf(s: any): EnvKind {
  const def = defOf(s);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
      return kindOf(def.innerType);
    case 'number':
      return 'number';
    case 'boolean':
      return 'bool';
    case 'array':
      return 'list';
    // a limit's union: only "off" is said by its own variable, the fields have theirs
    case 'union':
      return 'onOff';
    default:
      return 'string';
  }
}

/** Every key of the schema that carries metadata, walking through optional, nullable, unions and objects. */
function leaves(schema: z.ZodType, at: string, out: ConfigLeaf[]): ConfigLeaf[] {
  const m = metaOf(schema);
  if (m.env || m.secret) out.push({ path: at, kind: kindOf(schema), meta: m });
  const def = defOf(schema);
  // metadata set before `.optional()` lives on the inner schema
  if (def.type === 'optional' || def.type === 'nullable' || def.type === 'default') return leaves(def.innerType, at, out);
  if (def.type === 'union') for (const o of def.options) leaves(o, at, out);
  if (def.type === 'object') for (const [k, v] of Object.entries(def.shape)) leaves(v as z.ZodType, at ? `${at}.${k}` : k, out);
  return out;
}

export const CONFIG_LEAVES: readonly ConfigLeaf[] = leaves(ConfigFields, '', []);

/** Environment variables, each setting one key of the file's shape (and refused by the same schema). */
export const ENV_VARS: Readonly<Record<string, { path: string; kind: EnvKind }>> = Object.fromEntries(
  CONFIG_LEAVES.filter((l) => l.meta.env).map((l) => [l.meta.env!, { path: l.path, kind: l.kind }]),
);

/** Paths of values that are secrets: shown masked by `comanda config check`, the support bundle and the API. */
export const SECRET_PATHS: ReadonlyArray<{ path: string; kind: true | 'url' }> = CONFIG_LEAVES.filter((l) => l.meta.secret).map((l) => ({
  path: l.path,
  kind: l.meta.secret!,
}));
