import path from 'node:path';
import { isFloorSession, managersRead } from '../../http/managers-read.ts';
import { z } from 'zod';
import { ApiError } from '../../errors.ts';
import { operatorOf } from '../../operator/services.ts';
import { defineRoute, type RouteSpec } from '../../http/route.ts';
import { probeBackupDir, saveBackupOverrides } from '../../operator/backup-settings.ts';
import { systemHealth } from '../../operator/health.ts';
import { readTransportSettings, saveTransportSettings } from '../../operator/transport-settings.ts';
import { listBackups } from '../../operator/backup.ts';
import {
  BackupFolderSchema,
  BackupSchema,
  BackupSettingsSchema,
  NotificationSettingsSchema,
  presentBackup,
  presentBackupFolder,
  presentBackupSettings,
  presentSystemHealth,
  presentTransports,
  SystemHealthSchema,
} from '../../presenters/system.ts';

const tag = 'System';

/** The operator of a server that makes backups (a hub on SQLite with a data dir), else 409. */
function backingUpOperator(services: Parameters<typeof operatorOf>[0]) {
  const op = operatorOf(services);
  if (!op.canBackUp) throw new ApiError('state_conflict', 'This server makes no backups (only a hub on SQLite does).');
  return op;
}

const host = z.string().trim().min(1).max(255);
const UpdateTransports = z
  .object({
    smtp: z
      .object({
        host,
        port: z.number().int().min(1).max(65535),
        secure: z.boolean().optional(),
        user: z.string().max(255).nullable().optional(),
        /** left out: the stored password stays; null: removed */
        pass: z.string().min(1).max(1024).nullable().optional(),
      })
      .nullable(),
    from: z.string().trim().min(3).max(255),
    sms: z
      .object({
        url: z.url().max(2000).refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL'),
        token: z.string().min(1).max(1024).nullable().optional(),
      })
      .nullable(),
  })
  .partial();

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/system/health',
    response: SystemHealthSchema,
    summary: 'The installation at a glance: addresses tablets reach, last backup (with a warning after 48 h without one), printers, sync',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:read',
    handler: async (c) => {
      const health = presentSystemHealth(await systemHealth(c.services, c.actor().restaurantId), c.services.clock.now());
      // the backup folder and its last file are the back office's (managersRead), not the floor's
      return isFloorSession(c.caller) ? { ...health, backups: null } : health;
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/system/address-change/acknowledge',
    response: SystemHealthSchema,
    errors: ['state_conflict'],
    summary: "The QR codes that embedded the hub's old LAN address are printed again: the new address becomes the one codes are made with",
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:write',
    handler: async (c) => {
      const addresses = operatorOf(c.services).addresses;
      if (!addresses) throw new ApiError('state_conflict', 'This server does not follow its LAN address (only a hub started by `comanda serve` does).');
      addresses.acknowledge();
      return presentSystemHealth(await systemHealth(c.services, c.actor().restaurantId), c.services.clock.now());
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/system/backups',
    response: BackupFolderSchema,
    errors: ['state_conflict'],
    summary: 'The backups kept in the backup folder, newest first (what `comanda restore` can bring back)',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:read',
    handler: async (c) => {
      managersRead(c.caller);
      const op = backingUpOperator(c.services);
      const { dir } = op.backupConfig();
      return presentBackupFolder(dir, listBackups(dir));
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/system/backups',
    response: BackupSchema,
    errors: ['state_conflict'],
    summary: 'Back up the hub database now (the nightly backup, on demand)',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:write',
    status: 201,
    handler: async (c) => {
      const op = backingUpOperator(c.services);
      return presentBackup(await op.backupNow(), c.services.clock.now());
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/settings/notifications',
    response: NotificationSettingsSchema,
    summary:
      "The hub's mail (SMTP) and SMS transports; secrets are shown masked, never in full. On the cloud, whether mail and SMS work and the sender: the servers are the operator's",
    tag: 'Settings',
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:read',
    handler: async (c) => {
      managersRead(c.caller);
      return presentTransports(c.services.config, await readTransportSettings(c.db, operatorOf(c.services).sealingKey), {
        operatorOwned: c.services.config.role !== 'hub',
      });
    },
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/settings/notifications',
    response: NotificationSettingsSchema,
    errors: ['state_conflict'],
    summary: "Set the hub's mail and SMS transports (stored sealed); a secret left out keeps the stored one",
    tag: 'Settings',
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:write',
    body: UpdateTransports,
    handler: async (c) => {
      // The cloud's transports serve every tenant: they come from its environment, not from one restaurant's key.
      if (c.services.config.role !== 'hub') throw new ApiError('state_conflict', "The cloud's mail and SMS are set by its environment (SMTP_*, SMS_*).");
      const op = operatorOf(c.services);
      await saveTransportSettings(c.services.db, op.sealingKey, c.now, c.body);
      await op.applyTransports();
      return presentTransports(c.services.config, await readTransportSettings(c.services.db, op.sealingKey));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/settings/backups',
    response: BackupSettingsSchema,
    errors: ['state_conflict'],
    summary: "The hub's nightly backups: on or off, the folder they go to, how many days are kept",
    tag: 'Settings',
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:read',
    handler: async (c) => {
      managersRead(c.caller);
      const op = backingUpOperator(c.services);
      return presentBackupSettings(op.backupConfig());
    },
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/settings/backups',
    response: BackupSettingsSchema,
    errors: ['state_conflict'],
    summary:
      "Switch nightly backups on or off, point them at another folder (a USB disk, a synced folder; a full path the hub can write), keep more or fewer days. The owner's decision: it needs the scope backups:write, which a manager lacks",
    tag: 'Settings',
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'backups:write',
    body: z
      .object({
        enabled: z.boolean(),
        dir: z.string().trim().min(1).max(1000),
        keep_days: z.number().int().min(1).max(3650),
      })
      .partial(),
    handler: async (c) => {
      const op = backingUpOperator(c.services);
      const { enabled, dir, keep_days: keepDays } = c.body;
      if (dir !== undefined) {
        // a relative folder is inside the data dir, as in comanda.json
        const problem = await probeBackupDir(path.resolve(c.services.config.dataDir!, dir));
        if (problem) throw new ApiError('parameter_invalid', problem, 'dir');
      }
      const patch = Object.fromEntries(Object.entries({ enabled, dir, keepDays }).filter(([, v]) => v !== undefined));
      op.backupOverrides = await saveBackupOverrides(c.services.db, c.now, patch);
      return presentBackupSettings(op.backupConfig());
    },
  }),
];
