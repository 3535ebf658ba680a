import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { httpSmsSender, smtpSender } from '../domain/guest/transports.ts';
import { backupFile, backupName, DB_FILE, pruneBackups, type BackupResult } from '../operator/backup.ts';
import { effectiveBackupConfig, readBackupOverrides, type BackupOverrides } from '../operator/backup-settings.ts';
import { ensureBackupStatus, recordBackup } from '../operator/backup-status.ts';
import { loadSealingKey } from '../operator/sealed.ts';
import { effectiveTransports, readTransportSettings } from '../operator/transport-settings.ts';
import type { BackupConfig } from '../config.ts';
import type { Services } from '../services.ts';
import { operatorOf } from '../operator/services.ts';
import type { Feature } from './feature.ts';
import { guestOf } from '../http/guest-services.ts';

/** Only one backup at a time: the nightly job and a "back up now" share it. */
function backupRunner(services: Services) {
  let running: Promise<BackupResult> | null = null;
  return () =>
    (running ??= (async () => {
      const { config, clock } = services;
      const dataDir = config.dataDir!;
      const { dir, keepDays } = operatorOf(services).backupConfig();
      const now = clock.now();
      try {
        const result = await backupFile(path.join(dataDir, DB_FILE), path.join(dir, backupName(now)));
        recordBackup(dataDir, now, { ok: true, ...result });
        const removed = await pruneBackups(dir, keepDays, now);
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
    const canBackUp = dialect === 'sqlite' && config.dataDir !== null;
    const backupNow = backupRunner(services);
    services.operator = {
      startedAt: Date.now(),
      sealingKey: loadSealingKey(config.dataDir),
      listening: null,
      reachability: null,
      addresses: null,
      canBackUp,
      backupOverrides: {},
      backupConfig: () => effectiveBackupConfig(config.dataDir ?? '.', config.backups, operatorOf(services).backupOverrides),
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
    // The job exists wherever backups can be made; whether it backs up is decided at each run,
    // so switching nightly backups on in the dashboard needs no restart.
    if (canBackUp) {
      scheduler.add({
        name: 'backup',
        schedule: config.backups.schedule,
        run: async () => (operatorOf(services).backupConfig().enabled ? backupNow() : 'nightly backups are off'),
      });
    }
  },
  async start({ services, http }) {
    const op = operatorOf(services);
    const addr = http.address() as AddressInfo | null;
    if (addr) op.listening = { host: addr.address, port: addr.port };
    if (op.canBackUp) {
      op.backupOverrides = await readBackupOverrides(services.db);
      ensureBackupStatus(services.config.dataDir!, services.clock.now());
    }
    // Mail and SMS set in the dashboard win over the config file's; queued notices go out with them.
    if (services.config.role === 'hub') {
      await op.applyTransports();
      void guestOf(services).dispatcher.wake();
    }
  },
};
