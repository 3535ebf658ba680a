import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { rawSqliteOf } from '../db/statement-shapes.ts';
import { httpSmsSender, smtpSender } from '../domain/guest/transports.ts';
import { backupName, backupSqlite, pruneBackups, type BackupResult } from '../operator/backup.ts';
import { ensureBackupStatus, recordBackup } from '../operator/backup-status.ts';
import { loadSealingKey } from '../operator/sealed.ts';
import { effectiveTransports, readTransportSettings } from '../operator/transport-settings.ts';
import type { Services } from '../services.ts';
import type { Feature } from './feature.ts';
import { guestOf } from './guest.ts';

export interface OperatorServices {
  /** wall-clock ms of createServer */
  startedAt: number;
  /** seals credentials stored from the dashboard (operator/sealed.ts) */
  sealingKey: Buffer;
  /** where the server listens, once it does */
  listening: { host: string; port: number } | null;
  /** whether this server makes backups (SQLite with a data dir and backups enabled) */
  backups: boolean;
  /** one online backup now, into the backup folder, then old ones pruned */
  backupNow(): Promise<BackupResult>;
  /** re-reads the dashboard's mail and SMS settings into the outbox's transports */
  applyTransports(): Promise<void>;
}

declare module '../services.ts' {
  interface Services {
    operator?: OperatorServices;
  }
}

export function operatorOf(services: Services): OperatorServices {
  if (!services.operator) throw new Error('operator feature not installed');
  return services.operator;
}

/** Only one backup at a time: the nightly job and a "back up now" share it. */
function backupRunner(services: Services) {
  let running: Promise<BackupResult> | null = null;
  return () =>
    (running ??= (async () => {
      const { config, clock, db } = services;
      const dataDir = config.dataDir!;
      const dir = path.resolve(dataDir, config.backups.dir);
      const raw = rawSqliteOf(db);
      if (!raw) throw new Error('backups are for the hub (SQLite) only');
      const now = clock.now();
      try {
        const result = await backupSqlite(raw, path.join(dir, backupName(now)));
        recordBackup(dataDir, now, { ok: true, ...result });
        const removed = pruneBackups(dir, config.backups.keepDays, now);
        services.logger.info({ file: result.file, bytes: result.bytes, ms: result.ms, removed: removed.length }, 'backup made');
        return result;
      } catch (err: any) {
        recordBackup(dataDir, now, { ok: false, error: err?.message ?? String(err) });
        throw err;
      }
    })().finally(() => {
      running = null;
    }));
}

export const operatorFeature: Feature = {
  name: 'operator',
  install({ services, scheduler }) {
    const { config, dialect } = services;
    const backups = dialect === 'sqlite' && config.dataDir !== null && config.backups.enabled;
    const backupNow = backupRunner(services);
    services.operator = {
      startedAt: Date.now(),
      sealingKey: loadSealingKey(config.dataDir),
      listening: null,
      backups,
      backupNow,
      async applyTransports() {
        const stored = await readTransportSettings(services.db, operatorOf(services).sealingKey);
        if (stored.unreadable.length) services.logger.warn({ secrets: stored.unreadable }, 'stored credentials cannot be opened with this machine\'s key; set them again in Settings');
        const eff = effectiveTransports(config, stored);
        const dispatcher = guestOf(services).dispatcher;
        dispatcher.mail = smtpSender(eff.mail);
        dispatcher.sms = httpSmsSender(eff.sms);
      },
    };
    if (backups) scheduler.add({ name: 'backup', schedule: config.backups.schedule, run: () => backupNow() });
  },
  async start({ services, http }) {
    const op = operatorOf(services);
    const addr = http.address() as AddressInfo | null;
    if (addr) op.listening = { host: addr.address, port: addr.port };
    if (op.backups) ensureBackupStatus(services.config.dataDir!, services.clock.now());
    // Mail and SMS set in the dashboard win over the config file's; queued notices go out with them.
    if (services.config.role === 'hub') {
      await op.applyTransports();
      void guestOf(services).dispatcher.wake();
    }
  },
};
