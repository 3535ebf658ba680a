import type { Services } from '../services.ts';
import { operatorOf } from './services.ts';
import { readBackupStatus, type BackupStatus } from './backup-status.ts';
import { reachableUrls } from './lan.ts';
import type { Reachability } from './reachability.ts';
import { codesToReprint, type AddressChange } from './stable-address.ts';

export interface SystemHealth {
  role: 'hub' | 'cloud';
  dialect: string;
  startedAt: number;
  publicUrl: string;
  /** where tablets reach this server (never 0.0.0.0) */
  urls: string[];
  backups: { status: BackupStatus | null; config: Services['config']['backups'] } | null;
  /** in use; `switchedOff`: set up but not in use */
  reachability: Reachability | null;
  /** the mDNS name codes carry while the LAN carries it, and a move of the PC's address with the codes that embed the old one */
  addresses: { stableUrl: string | null; lanAddress: string | null; change: (AddressChange & { reprint: { id: string; label: string }[] }) | null } | null;
  printers: { total: number; online: number; offline: number; needsAttention: number; unknown: number; switchedOff: number };
  sync: { linked: boolean; connected: boolean; lastSyncedAt: number | null; lastError: string | null; resync: boolean };
}

/** What the dashboard and the desktop tray show at a glance, for one restaurant. */
export async function systemHealth(services: Services, restaurantId: string): Promise<SystemHealth> {
  const op = operatorOf(services);
  const { config, db } = services;
  const all = await db.selectFrom('printers').select(['id', 'is_active']).where('restaurant_id', '=', restaurantId).execute();
  const printers = all.filter((p) => p.is_active === 1);
  const states = await db.selectFrom('printer_status').select(['printer_id', 'state']).where('restaurant_id', '=', restaurantId).execute();
  const stateOf = new Map(states.map((s) => [s.printer_id, s.state]));
  const count = (f: (s: string | undefined) => boolean) => printers.filter((p) => f(stateOf.get(p.id))).length;
  const link = await db
    .selectFrom('sync_link')
    .select(['connected', 'last_synced_at', 'last_error', 'resync'])
    .where('restaurant_id', '=', restaurantId)
    .executeTakeFirst();
  return {
    role: config.role,
    dialect: services.dialect,
    startedAt: op.startedAt,
    publicUrl: config.publicUrl,
    urls: op.listening ? reachableUrls(op.listening.host, op.listening.port) : [],
    backups: op.canBackUp ? { status: readBackupStatus(config.dataDir!), config: op.backupConfig() } : null,
    reachability: op.reachability,
    addresses: op.addresses && {
      stableUrl: op.addresses.stableUrl,
      lanAddress: op.addresses.lanAddress,
      change: op.addresses.change && { ...op.addresses.change, reprint: await codesToReprint(db, restaurantId, op.addresses.change.at) },
    },
    printers: {
      total: printers.length,
      online: count((s) => s === 'online'),
      offline: count((s) => s === 'offline'),
      needsAttention: count((s) => s === 'paper_out' || s === 'error'),
      unknown: count((s) => s === undefined),
      switchedOff: all.length - printers.length,
    },
    sync: {
      linked: link !== undefined,
      connected: Boolean(link?.connected),
      lastSyncedAt: link?.last_synced_at ?? null,
      lastError: link?.last_error ?? null,
      resync: Boolean(link?.resync),
    },
  };
}
