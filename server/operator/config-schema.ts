import { isIP } from 'node:net';
import cron from 'node-cron';
import { z } from 'zod';

const port = z.number().int().min(0).max(65535);
const positiveInt = z.number().int().positive();
const httpUrl = z
  .string()
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');
const ip = z.string().refine((s) => isIP(s) !== 0, 'must be an IP address');

const Smtp = z.strictObject({
  host: z.string().min(1),
  port,
  secure: z.boolean().optional(),
  user: z.string().optional(),
  pass: z.string().optional(),
});

/**
 * Every key an operator may put in `comanda.json` (data dir) or set through the environment.
 * Strict at every level: a key we do not know is a typo that would otherwise be silently
 * ignored, so the server refuses to start and names it.
 */
export const OperatorConfigSchema = z
  .strictObject({
    role: z.enum(['hub', 'cloud']),
    port,
    /** Address to listen on; the hub listens on every interface so tablets reach it. */
    host: z.string().min(1),
    publicUrl: httpUrl,
    /** more names the back office may be opened by (a router's DNS name, another domain) */
    allowedHosts: z.array(z.string().min(1).max(253)),
    databaseUrl: z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL'),
    bodyLimitBytes: positiveInt.max(64 * 1024 * 1024),
    // each limit has its default (server/config.ts): one set alone keeps the other's
    rateLimit: z.union([z.literal(false), z.strictObject({ perSecond: z.number().positive(), burst: positiveInt }).partial()]),
    guestRateLimit: z.union([z.literal(false), z.strictObject({ perMinutePerIp: positiveInt, perMinutePerRestaurant: positiveInt }).partial()]),
    trustedProxies: z.array(ip),
    idempotencyTtlSeconds: positiveInt,
    mail: z
      .strictObject({
        smtp: Smtp.nullable(),
        from: z.string().min(3),
        contactTo: z.email(),
      })
      .partial(),
    sms: z.strictObject({ url: httpUrl, token: z.string().optional() }).nullable(),
    webhooks: z
      .strictObject({
        allowPrivateTargets: z.boolean(),
        sandboxPrivateTargets: z.boolean(),
        timeoutMs: positiveInt,
        leaseMs: positiveInt,
        maxParallel: positiveInt,
        perEndpointConcurrency: positiveInt,
        eventRetentionDays: positiveInt,
      })
      .partial(),
    backups: z
      .strictObject({
        enabled: z.boolean(),
        /** a folder (a USB disk, a synced folder); relative paths are inside the data dir */
        dir: z.string().min(1),
        keepDays: positiveInt.max(3650),
        /** node-cron expression, the machine's local time */
        schedule: z.string().refine((s) => cron.validate(s), 'must be a cron expression (e.g. "0 30 4 * * *")'),
      })
      .partial(),
    /** announce the hub on the LAN with mDNS/DNS-SD (_comanda._tcp) */
    mdns: z.boolean(),
  })
  .partial();

export type OperatorConfig = z.infer<typeof OperatorConfigSchema>;

/** Paths of values that are secrets: shown masked by `comanda config check` and the API. */
export const SECRET_PATHS = ['mail.smtp.pass', 'sms.token', 'databaseUrl'] as const;
