import { ApiFailure } from './api.ts';
import { GET, POST } from './client.ts';
import { number, when } from './format.ts';
import { t, type Key } from './i18n.ts';
import { can } from './session.ts';

/** GET /v1/sync/status (sync/status.ts). */
export interface SyncConflict {
  id: string;
  kind: string;
  table: string;
  row_ids: string[];
  detail: any;
  created: number;
  /** null while open: the status lists open ones only */
  resolved: { at: number; by: string; note: string | null } | null;
}

export interface SyncStatus {
  role: 'hub' | 'cloud';
  linked: boolean;
  cloud_url: string | null;
  hub_id: string | null;
  connected: boolean;
  pending_push: number;
  pending_pull: number;
  last_synced_at: number | null;
  last_error: string | null;
  lag_seconds: number;
  conflicts: SyncConflict[];
  /** the last audit-and-repair (sync/repair.ts) */
  repair: { state: 'unknown' | 'in_sync' | 'repairing' | 'diverged'; checked_at: number | null; repaired_rows: number; unconverged: { table: string; id: string }[] };
}

/** GET /v1/system/health's `backups` (server/presenters/system.ts). */
export interface BackupHealth {
  enabled: boolean;
  dir: string;
  keep_days: number;
  schedule: string;
  last_success_at: number | null;
  last_file: string | null;
  last_size_bytes: number | null;
  last_duration_ms: number | null;
  last_failure_at: number | null;
  last_error: string | null;
  warning: 'no_backup_in_48h' | null;
}

export interface SystemHealth {
  role: 'hub' | 'cloud';
  /** null where this server makes no backups (only a hub on SQLite does) */
  backups: BackupHealth | null;
  /** whether tablets on the LAN reach the hub (its own LAN address tested from itself) */
  reachability?: { url: string; reachable: boolean; network_profile: 'public' | 'private' | 'domain' | null; detail: string | null; checked_at: number } | null;
  /** the mDNS name codes carry, and a move of the PC's address with the QR codes that embed the old one (server/operator/stable-address.ts) */
  addresses?: { stable_url: string | null; lan_address: string | null; change: { from: string; to: string; changed_at: number; reprint: { id: string; label: string }[] } | null } | null;
  printers: { total: number; online: number; offline: number; needs_attention: number; unknown: number; switched_off: number };
}

export const loadSyncStatus = () => GET('/v1/sync/status');
export const loadSystemHealth = () => GET('/v1/system/health');
/**
 * A person settles a conflict (on both sides: the settlement syncs like any change). One someone
 * else settled meanwhile (here or on the other side) is settled all the same.
 */
export async function settleConflict(id: string, note: string): Promise<void> {
  try {
    await POST('/v1/sync/conflicts/{id}/resolve', { path: { id }, body: note.trim() ? { note: note.trim() } : {} });
  } catch (e) {
    if (!(e instanceof ApiFailure && e.code === 'state_conflict')) throw e;
  }
}

/** "3.2 MB": a backup's size for people. */
export function bytes(n: number | null | undefined): string {
  if (n === null || n === undefined) return '—';
  const units = ['B', 'KB', 'MB', 'GB'];
  let v = n;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  // in the reader's own digits (684 KB, 1,2 MB in German)
  return `${number(v, i === 0 || v >= 10 ? 0 : 1)} ${units[i]}`;
}

/** "4 min", "2 h", "3 days": how far behind or how long ago, roughly. */
export function duration(seconds: number): string {
  if (seconds < 90) return t('ops.seconds', { n: Math.round(seconds) });
  if (seconds < 90 * 60) return t('ops.minutes', { n: Math.round(seconds / 60) });
  if (seconds < 48 * 3600) return t('ops.hours', { n: Math.round(seconds / 3600) });
  return t('ops.days', { n: Math.round(seconds / 86400) });
}

export interface ConflictView {
  id: string;
  text: string;
  /** the order or booking to look at, where there is one */
  href: string | null;
  created: number;
}

const THINGS: Record<string, Key> = {
  orders: 'ops.thing.order',
  order_items: 'ops.thing.orderLine',
  reservations: 'ops.thing.reservation',
  waitlist_entries: 'ops.thing.waitlist',
  deliveries: 'ops.thing.delivery',
  customers: 'ops.thing.customer',
  menu_items: 'ops.thing.menuItem',
  tables: 'ops.thing.table',
};
const thing = (table: string) => (THINGS[table] ? t(THINGS[table]) : table.replace(/_/g, ' '));

function statusWord(table: string, status: string): string {
  const key = (table === 'orders' ? `orderStatus.${status}` : table === 'reservations' ? `resStatus.${status}` : '') as Key;
  const text = key ? t(key) : undefined;
  return text && text !== key ? text : status.replace(/_/g, ' ');
}

interface OrderRef {
  id: string;
  order_number: string;
}
interface BookingRef {
  id: string;
  guest: { name: string };
  date: string;
  time: string;
  table: string | null;
}

/**
 * Each conflict in words a manager reads: what happened, to which order or booking, with a
 * link to it. Records are looked up only where the role may read them; a record gone since
 * is described without its name.
 */
export async function describeConflicts(list: SyncConflict[]): Promise<ConflictView[]> {
  const cache = new Map<string, Promise<unknown>>();
  const fetchOnce = <T>(key: string, scope: string, load: () => Promise<T>): Promise<T | null> => {
    if (!can(scope)) return Promise.resolve(null);
    if (!cache.has(key)) cache.set(key, load().catch(() => null));
    return cache.get(key) as Promise<T | null>;
  };
  const order = (id: string): Promise<OrderRef | null> => fetchOnce(`order ${id}`, 'orders:read', () => GET('/v1/orders/{id}', { path: { id } }));
  const booking = (id: string): Promise<BookingRef | null> => fetchOnce(`booking ${id}`, 'reservations:read', () => GET('/v1/reservations/{id}', { path: { id } }));
  const table = (id: string) => fetchOnce(`table ${id}`, 'tables:read', () => GET('/v1/tables/{id}', { path: { id } }));
  const bookingHref = (b: BookingRef | null, id: string) => (b ? `/app/reservations?date=${b.date}&open=${id}` : null);

  return Promise.all(
    list.map(async (c): Promise<ConflictView> => {
      const base = { id: c.id, created: c.created };
      const first = c.row_ids[0];
      if (c.kind === 'double_booking') {
        const [a, b] = await Promise.all(c.row_ids.map(booking));
        const tbl = c.detail?.table_id ? await table(c.detail.table_id) : null;
        return {
          ...base,
          text: t('ops.conflict.doubleBooking', {
            table: tbl ? t('floor.tableN', { n: tbl.number }) : t('ops.aTable'),
            when: when(c.detail?.starts_at ?? a?.date ?? null),
            a: a?.guest.name ?? '?',
            b: b?.guest.name ?? '?',
          }),
          href: bookingHref(a, c.row_ids[0]),
        };
      }
      const named = async (): Promise<{ name: string; href: string | null }> => {
        if (c.table === 'orders') {
          const o = await order(first);
          return { name: o ? t('ops.orderN', { n: o.order_number }) : thing(c.table), href: o ? `/app/orders/${o.id}` : null };
        }
        if (c.table === 'reservations') {
          const b = await booking(first);
          return { name: b ? t('ops.bookingOf', { name: b.guest.name, date: b.date, time: b.time }) : thing(c.table), href: bookingHref(b, first) };
        }
        return { name: thing(c.table), href: null };
      };
      const { name, href } = await named();
      if (c.kind === 'status_overruled') {
        return {
          ...base,
          text: t('ops.conflict.overruled', { what: name, overruled: statusWord(c.table, String(c.detail?.overruled)), kept: statusWord(c.table, String(c.detail?.kept)) }),
          href,
        };
      }
      if (c.kind === 'customer_merge') {
        const id = String(c.detail?.survivor ?? first);
        const guest = await fetchOnce(`customer ${id}`, 'customers:read', () => GET('/v1/customers/{id}', { path: { id } }));
        return { ...base, text: t('ops.conflict.customerMerged', { name: guest?.name ?? guest?.email ?? guest?.phone ?? '?' }), href: null };
      }
      if (c.kind === 'not_applied') return { ...base, text: t('ops.conflict.notApplied', { what: name }), href };
      return { ...base, text: t('ops.conflict.other', { what: name, kind: c.kind.replace(/_/g, ' ') }), href };
    }),
  );
}
