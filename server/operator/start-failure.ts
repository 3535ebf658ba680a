import fs from 'node:fs';
import path from 'node:path';
import { listBackups } from './backup.ts';
import { HubLockedError } from './hub-lock.ts';
import { portHolder, type PortHolder } from './port-holder.ts';

/** Why a hub could not start, in words a supervisor can act on (the desktop's status window). */
export type StartFailureReason = 'port_taken' | 'data_locked' | 'data_unreadable' | 'database_unreadable' | 'disk_full' | 'unknown';

/** Sent to the supervisor (parent channel) just before a hub that could not start exits. */
export interface StartFailure {
  type: 'start_failure';
  reason: StartFailureReason;
  /** one sentence, the same as on stderr */
  message: string;
  data_dir: string;
  port: number | null;
  /** port_taken: who listens there, when the OS says; data_locked: the other hub */
  holder: PortHolder | null;
  /** database_unreadable: the newest backup to restore (its time in ms) */
  backup: { file: string; at: number } | null;
  /** disk_full: bytes left on the data dir's disk, when the OS says */
  free_bytes: number | null;
}

export interface StartContext {
  dataDir: string;
  port: number;
  backupsDir: string | null;
}

const DISK_FULL = /SQLITE_FULL|database or disk is full|ENOSPC|no space left/i;
const UNREADABLE_DB = /SQLITE_(NOTADB|CORRUPT|CANTOPEN|IOERR)|file is not a database|malformed/i;

/** Reads an error thrown while starting (lock, database, listen) as one of the known causes. */
export function classifyStartFailure(err: any, ctx: StartContext): StartFailure {
  const base: StartFailure = { type: 'start_failure', reason: 'unknown', message: String(err?.message ?? err), data_dir: ctx.dataDir, port: ctx.port, holder: null, backup: null, free_bytes: null };
  const text = `${err?.code ?? ''} ${err?.message ?? ''}`;
  if (err?.code === 'EADDRINUSE') {
    const holder = portHolder(ctx.port);
    const by = holder ? ` by ${holder.name ?? 'a program'} (pid ${holder.pid})` : '';
    return { ...base, reason: 'port_taken', holder, message: `port ${ctx.port} is already in use${by}: stop that program or start comanda on another port` };
  }
  if (err instanceof HubLockedError) {
    return { ...base, reason: 'data_locked', holder: { pid: err.holder.pid, name: 'comanda' }, message: `another comanda hub (pid ${err.holder.pid}) is using the data folder ${ctx.dataDir}: stop it first` };
  }
  if (DISK_FULL.test(text)) {
    return { ...base, reason: 'disk_full', free_bytes: freeBytes(ctx.dataDir), message: `the disk holding ${ctx.dataDir} is full: free some space, then start again` };
  }
  if (UNREADABLE_DB.test(text)) {
    const newest = ctx.backupsDir ? (listBackups(ctx.backupsDir)[0] ?? null) : null;
    return {
      ...base,
      reason: 'database_unreadable',
      backup: newest && { file: newest.file, at: newest.at },
      message: `the database in ${ctx.dataDir} cannot be read (${err?.message ?? err}): ${newest ? `restore the backup of ${new Date(newest.at).toISOString()}` : 'no backup to restore was found'}`,
    };
  }
  if (err?.code === 'EACCES' || err?.code === 'EPERM' || err?.code === 'EBUSY' || err?.code === 'EROFS') {
    return { ...base, reason: 'data_unreadable', message: `the data folder ${ctx.dataDir} cannot be written (${err.code}${err.path ? `: ${err.path}` : ''})` };
  }
  return base;
}

function freeBytes(dir: string): number | null {
  for (let d = dir; ; d = path.dirname(d)) {
    try {
      const s = fs.statfsSync(d);
      return s.bavail * s.bsize;
    } catch {
      if (path.dirname(d) === d) return null;
    }
  }
}
