import { presentBackupHealth } from '../../operator/backup-status.ts';
import type { SystemHealth } from '../../operator/health.ts';
import { VERSION } from '../../operator/version.ts';

export function presentSystemHealth(h: SystemHealth, nowMs: number) {
  return {
    object: 'system_health' as const,
    version: VERSION,
    role: h.role,
    dialect: h.dialect,
    started_at: Math.floor(h.startedAt / 1000),
    uptime_seconds: Math.max(0, Math.floor((Date.now() - h.startedAt) / 1000)),
    public_url: h.publicUrl,
    urls: h.urls,
    pair_url: `${h.publicUrl}/screens/pair`,
    backups: h.backups && presentBackupHealth(h.backups.status, h.backups.config, nowMs),
    printers: {
      total: h.printers.total,
      online: h.printers.online,
      offline: h.printers.offline,
      needs_attention: h.printers.needsAttention,
      unknown: h.printers.unknown,
    },
    sync: {
      linked: h.sync.linked,
      connected: h.sync.connected,
      last_synced_at: h.sync.lastSyncedAt,
      last_error: h.sync.lastError,
      resync: h.sync.resync,
    },
  };
}

export function presentBackup(r: { file: string; bytes: number; ms: number }, nowMs: number) {
  return { object: 'backup' as const, file: r.file.split(/[\\/]/).pop(), size_bytes: r.bytes, duration_ms: r.ms, created: Math.floor(nowMs / 1000) };
}
