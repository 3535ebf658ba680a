import path from 'node:path';
import { z } from 'zod';
import type { Config } from '../config.ts';
import { named, unix } from '../model/schemas.ts';
import { BACKUP_WARN_AFTER_MS, type BackupStatus } from '../operator/backup-status.ts';
import type { SystemHealth } from '../operator/health.ts';
import { maskSecrets } from '../operator/mask.ts';
import { effectiveTransports, type TransportSettings } from '../operator/transport-settings.ts';
import { VERSION } from '../operator/version.ts';

type BackupConfig = { enabled: boolean; dir: string; keepDays: number; schedule: string };

const backupConfigShape = {
  enabled: z.boolean(),
  /** the folder backups go to */
  dir: z.string(),
  keep_days: z.number().int(),
  /** when the nightly backup runs (cron syntax) */
  schedule: z.string(),
};

export const BackupHealthSchema = named(
  'BackupHealth',
  z.object({
    ...backupConfigShape,
    last_success_at: unix().nullable(),
    last_file: z.string().nullable(),
    last_size_bytes: z.number().int().nullable(),
    last_duration_ms: z.number().int().nullable(),
    last_failure_at: unix().nullable(),
    /** the last failure's message, while no backup succeeded after it */
    last_error: z.string().nullable(),
    warning: z.literal('no_backup_in_48h').nullable(),
  }),
);

/** The API's view of the backups: times in Unix seconds, and a warning when nothing succeeded in 48 h. */
export function presentBackupHealth(status: BackupStatus | null, cfg: BackupConfig, nowMs: number): z.output<typeof BackupHealthSchema> {
  const reference = status?.lastSuccess?.at ?? status?.since ?? nowMs;
  const late = cfg.enabled && nowMs - reference > BACKUP_WARN_AFTER_MS;
  return {
    enabled: cfg.enabled,
    dir: cfg.dir,
    keep_days: cfg.keepDays,
    schedule: cfg.schedule,
    last_success_at: status?.lastSuccess ? Math.floor(status.lastSuccess.at / 1000) : null,
    last_file: status?.lastSuccess ? path.basename(status.lastSuccess.file) : null,
    last_size_bytes: status?.lastSuccess?.bytes ?? null,
    last_duration_ms: status?.lastSuccess?.ms ?? null,
    last_failure_at: status?.lastFailure ? Math.floor(status.lastFailure.at / 1000) : null,
    last_error: status?.lastFailure && (!status.lastSuccess || status.lastFailure.at > status.lastSuccess.at) ? status.lastFailure.error : null,
    warning: late ? 'no_backup_in_48h' : null,
  };
}

export const SystemHealthSchema = named(
  'SystemHealth',
  z.object({
    object: z.literal('system_health'),
    version: z.string(),
    role: z.enum(['hub', 'cloud']),
    dialect: z.enum(['sqlite', 'postgres']),
    started_at: unix(),
    uptime_seconds: z.number().int(),
    public_url: z.string(),
    /** where tablets reach this server */
    urls: z.array(z.string()),
    pair_url: z.string(),
    /** null where this server makes no backups (only a hub on SQLite does), and for a server's or cook's session */
    backups: BackupHealthSchema.nullable(),
    /** whether a tablet on the LAN can reach this hub: its own LAN address tested from itself; null before the first test and on a cloud */
    reachability: z
      .object({
        url: z.string(),
        reachable: z.boolean(),
        /** Windows: the network's profile; on a 'public' one the firewall blocks tablets unless a rule allows comanda */
        network_profile: z.enum(['public', 'private', 'domain']).nullable(),
        detail: z.string().nullable(),
        checked_at: unix(),
      })
      .nullable(),
    /** the hub's addresses: null on a cloud, or a hub started without `comanda serve` */
    addresses: z
      .object({
        /** `http://<slug>.local:<port>`: the name QR codes and links carry while the LAN carries the hub's mDNS announcement; null: they carry the IP */
        stable_url: z.string().nullable(),
        lan_address: z.string().nullable(),
        /** the PC's LAN address moved away from the one printed codes embed; null: nothing to reprint */
        change: z
          .object({
            from: z.string(),
            to: z.string(),
            changed_at: unix(),
            /** the codes that embed the old address: print them again */
            reprint: z.array(z.object({ id: z.string(), label: z.string() })),
          })
          .nullable(),
      })
      .nullable(),
    printers: z.object({
      total: z.number().int(),
      online: z.number().int(),
      offline: z.number().int(),
      needs_attention: z.number().int(),
      unknown: z.number().int(),
      /** set up but not in use (not counted in total) */
      switched_off: z.number().int(),
    }),
    sync: z.object({
      linked: z.boolean(),
      connected: z.boolean(),
      last_synced_at: unix().nullable(),
      last_error: z.string().nullable(),
      resync: z.boolean(),
    }),
  }),
);
export type SystemHealthView = z.output<typeof SystemHealthSchema>;

export function presentSystemHealth(h: SystemHealth, nowMs: number): SystemHealthView {
  return {
    object: 'system_health',
    version: VERSION,
    role: h.role,
    dialect: h.dialect as SystemHealthView['dialect'],
    started_at: Math.floor(h.startedAt / 1000),
    uptime_seconds: Math.max(0, Math.floor((Date.now() - h.startedAt) / 1000)),
    public_url: h.publicUrl,
    urls: h.urls,
    pair_url: `${h.publicUrl}/screens/pair`,
    backups: h.backups && presentBackupHealth(h.backups.status, h.backups.config, nowMs),
    reachability: h.reachability && { ...h.reachability, checked_at: Math.floor(h.reachability.checked_at / 1000) },
    addresses: h.addresses && {
      stable_url: h.addresses.stableUrl,
      lan_address: h.addresses.lanAddress,
      change: h.addresses.change && { from: h.addresses.change.from, to: h.addresses.change.to, changed_at: Math.floor(h.addresses.change.at / 1000), reprint: h.addresses.change.reprint },
    },
    printers: {
      total: h.printers.total,
      online: h.printers.online,
      offline: h.printers.offline,
      needs_attention: h.printers.needsAttention,
      unknown: h.printers.unknown,
      switched_off: h.printers.switchedOff,
    },
    sync: {
      linked: h.sync.linked,
      connected: h.sync.connected,
      last_synced_at: h.sync.lastSyncedAt === null ? null : Number(h.sync.lastSyncedAt),
      last_error: h.sync.lastError,
      resync: h.sync.resync,
    },
  };
}

export const BackupSchema = named(
  'Backup',
  z.object({
    object: z.literal('backup'),
    /** the file's name in the backup folder */
    file: z.string(),
    size_bytes: z.number().int(),
    duration_ms: z.number().int(),
    created: unix(),
  }),
);

export function presentBackup(r: { file: string; bytes: number; ms: number }, nowMs: number): z.output<typeof BackupSchema> {
  return { object: 'backup', file: r.file.split(/[\\/]/).pop() ?? r.file, size_bytes: r.bytes, duration_ms: r.ms, created: Math.floor(nowMs / 1000) };
}

export const BackupFolderSchema = named(
  'BackupFolder',
  z.object({
    object: z.literal('backup_folder'),
    /** the folder nightly backups go to */
    dir: z.string(),
    /** the backups in it, newest first: a file name, when it was made, its size */
    files: z.array(z.object({ file: z.string(), created: unix(), size_bytes: z.number().int() })),
  }),
);

export function presentBackupFolder(dir: string, files: { file: string; at: number; bytes: number }[]): z.output<typeof BackupFolderSchema> {
  return {
    object: 'backup_folder',
    dir,
    files: files.map((f) => ({ file: f.file.split(/[\\/]/).pop() ?? f.file, created: Math.floor(f.at / 1000), size_bytes: f.bytes })),
  };
}

export const BackupSettingsSchema = named('BackupSettings', z.object({ object: z.literal('backup_settings'), ...backupConfigShape }));

export function presentBackupSettings(c: BackupConfig): z.output<typeof BackupSettingsSchema> {
  return { object: 'backup_settings', enabled: c.enabled, dir: c.dir, keep_days: c.keepDays, schedule: c.schedule };
}

/** Where a transport comes from: set in the dashboard, the config file, or nowhere. */
const source = z.enum(['settings', 'config']).nullable();

export const NotificationSettingsSchema = named(
  'NotificationSettings',
  z.object({
    object: z.literal('notification_settings'),
    email: z.object({
      configured: z.boolean(),
      source,
      from: z.string(),
      smtp: z
        .object({
          host: z.string(),
          port: z.number().int(),
          secure: z.boolean(),
          user: z.string().nullable(),
          /** masked: its last two characters at most */
          pass: z.string().nullable(),
        })
        .nullable(),
    }),
    sms: z.object({
      configured: z.boolean(),
      source,
      url: z.string().nullable(),
      /** masked */
      token: z.string().nullable(),
    }),
    /** stored secrets this machine's key cannot open: set them again */
    unreadable_secrets: z.array(z.string()),
  }),
);

/**
 * The API's view of the mail and SMS transports: never a secret in full. On the cloud the
 * transports are the operator's, shared by every tenant: a tenant learns whether mail and
 * SMS work and the sender guests see, not the operator's servers, accounts or secrets.
 */
export function presentTransports(
  config: Pick<Config, 'mail' | 'sms'>,
  s: TransportSettings,
  opts: { operatorOwned?: boolean } = {},
): z.output<typeof NotificationSettingsSchema> {
  const eff = effectiveTransports(config, s);
  if (opts.operatorOwned) {
    return {
      object: 'notification_settings',
      email: { configured: eff.mail.smtp !== null, source: eff.source.email, from: eff.mail.from, smtp: null },
      sms: { configured: eff.sms !== null, source: eff.source.sms, url: null, token: null },
      unreadable_secrets: [],
    };
  }
  // the secrets the config schema marks, masked the way `comanda config check` masks them
  const { mail, sms } = maskSecrets({ mail: eff.mail, sms: eff.sms });
  const smtp = mail.smtp;
  return {
    object: 'notification_settings',
    email: {
      configured: smtp !== null,
      source: eff.source.email,
      from: eff.mail.from,
      smtp: smtp && { host: smtp.host, port: smtp.port, secure: smtp.secure ?? false, user: smtp.user ?? null, pass: smtp.pass ?? null },
    },
    sms: {
      configured: eff.sms !== null,
      source: eff.source.sms,
      url: sms?.url ?? null,
      token: sms?.token ?? null,
    },
    unreadable_secrets: s.unreadable,
  };
}
