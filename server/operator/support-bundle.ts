import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { DB_FILE, listBackups } from './backup.ts';
import { readBackupStatus } from './backup-status.ts';
import { lockHolder } from './hub-lock.ts';
import type { EffectiveConfig } from './load-config.ts';
import { maskedConfig } from './mask.ts';
import { VERSION } from './version.ts';

export const LOG_FILE = path.join('logs', 'comanda.log');
export const CRASH_LOG = path.join('logs', 'crashes.log');

function tail(file: string, lines: number): string[] {
  const out: string[] = [];
  // the rotated file first, so the lines stay in order across a rotation
  for (const f of [`${file}.1`, file]) {
    try {
      out.push(...fs.readFileSync(f, 'utf8').split('\n').filter(Boolean));
    } catch {
      // not there: nothing to add
    }
  }
  return out.slice(-lines);
}

function databaseReport(dataDir: string) {
  const file = path.join(dataDir, DB_FILE);
  if (!fs.existsSync(file)) return { file, exists: false };
  const size = (f: string) => (fs.existsSync(f) ? fs.statSync(f).size : 0);
  const report: Record<string, unknown> = { file, exists: true, size_bytes: size(file), wal_bytes: size(`${file}-wal`) };
  try {
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      db.pragma('busy_timeout = 5000');
      const check = (db.pragma('quick_check') as { quick_check: string }[]).map((r) => r.quick_check);
      report.quick_check = check.length === 1 && check[0] === 'ok' ? 'ok' : check.slice(0, 20);
      report.sqlite_version = (db.prepare('SELECT sqlite_version() AS v').get() as { v: string }).v;
      report.migrations = (db.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]).map((r) => r.name);
      const count = (t: string) => (db.prepare(`SELECT count(*) AS n FROM "${t}"`).get() as { n: number }).n;
      report.rows = { restaurants: count('restaurants'), orders: count('orders'), change_log: count('change_log') };
    } finally {
      db.close();
    }
  } catch (err: any) {
    report.error = err.message;
  }
  return report;
}

/**
 * What support needs when something is wrong, in one JSON file: the effective config with
 * secrets masked, versions, whether a hub runs, the database's health, the backups, and the
 * last log lines (with every configured secret blotted out of them too).
 */
export function supportBundle(dataDir: string, config: EffectiveConfig | { error: string }, nowMs: number) {
  const secrets = 'error' in config ? [] : [config.server.mail.smtp?.pass, config.server.sms?.token, passwordOf(config.databaseUrl)].filter((s): s is string => Boolean(s && s.length >= 4));
  const scrub = (line: string) => secrets.reduce((l, s) => l.split(s).join('****'), line);
  const backupDir = 'error' in config ? path.join(dataDir, 'backups') : config.backups.dir;
  return {
    object: 'support_bundle',
    created: new Date(nowMs).toISOString(),
    versions: { comanda: VERSION, node: process.versions.node, electron: process.versions.electron ?? null, platform: process.platform, arch: process.arch },
    config: 'error' in config ? config : maskedConfig(config),
    hub: { running: lockHolder(dataDir) },
    database: databaseReport(dataDir),
    backups: { status: readBackupStatus(dataDir), files: listBackups(backupDir).map((b) => ({ file: path.basename(b.file), bytes: b.bytes })) },
    logs: {
      'comanda.log': tail(path.join(dataDir, LOG_FILE), 500).map(scrub),
      'crashes.log': tail(path.join(dataDir, CRASH_LOG), 100).map(scrub),
    },
  };
}

function passwordOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return decodeURIComponent(new URL(url).password) || null;
  } catch {
    return null;
  }
}
