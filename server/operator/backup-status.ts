import fs from 'node:fs';
import path from 'node:path';

export const STATUS_FILE = 'backup-status.json';
/** The dashboard warns when no backup succeeded for this long. */
export const BACKUP_WARN_AFTER_MS = 48 * 3600 * 1000;

export interface BackupStatus {
  /** when backups started being watched here (a fresh install is not late on its first day) */
  since: number;
  lastSuccess: { at: number; file: string; bytes: number; ms: number } | null;
  lastFailure: { at: number; error: string } | null;
}

/**
 * Kept as a file beside the database, not in it: a restore replaces the database, and the
 * record of which backups were made must survive that.
 */
export function readBackupStatus(dataDir: string): BackupStatus | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, STATUS_FILE), 'utf8'));
  } catch {
    return null;
  }
}

export function writeBackupStatus(dataDir: string, status: BackupStatus): void {
  const file = path.join(dataDir, STATUS_FILE);
  fs.writeFileSync(`${file}.tmp`, JSON.stringify(status, null, 2));
  fs.renameSync(`${file}.tmp`, file);
}

export function recordBackup(dataDir: string, nowMs: number, outcome: { ok: true; file: string; bytes: number; ms: number } | { ok: false; error: string }): BackupStatus {
  const prev = readBackupStatus(dataDir) ?? { since: nowMs, lastSuccess: null, lastFailure: null };
  const next: BackupStatus = outcome.ok
    ? { ...prev, lastSuccess: { at: nowMs, file: outcome.file, bytes: outcome.bytes, ms: outcome.ms } }
    : { ...prev, lastFailure: { at: nowMs, error: outcome.error } };
  writeBackupStatus(dataDir, next);
  return next;
}

/** Starts watching (idempotent): the 48 h grace of a fresh install counts from here. */
export function ensureBackupStatus(dataDir: string, nowMs: number): BackupStatus {
  const found = readBackupStatus(dataDir);
  if (found) return found;
  const fresh = { since: nowMs, lastSuccess: null, lastFailure: null };
  writeBackupStatus(dataDir, fresh);
  return fresh;
}
