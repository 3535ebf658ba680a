import { PREFIXES } from '../server/ids.ts';
import type { SyncedTable } from './merge-rules.ts';

/** The synced table of each id prefix (server/ids.ts). */
const TABLE_OF_PREFIX: Readonly<Record<string, SyncedTable>> = {
  [PREFIXES.restaurant]: 'restaurants',
  [PREFIXES.apiKey]: 'api_keys',
  [PREFIXES.user]: 'users',
  [PREFIXES.station]: 'stations',
  [PREFIXES.menuCategory]: 'menu_categories',
  [PREFIXES.menuItem]: 'menu_items',
  [PREFIXES.modifierGroup]: 'modifier_groups',
  [PREFIXES.table]: 'tables',
  [PREFIXES.customer]: 'customers',
  [PREFIXES.order]: 'orders',
  [PREFIXES.orderItem]: 'order_items',
  [PREFIXES.reservation]: 'reservations',
  [PREFIXES.event]: 'events',
  [PREFIXES.webhookEndpoint]: 'webhook_endpoints',
  [PREFIXES.printer]: 'printers',
  [PREFIXES.shift]: 'shifts',
  [PREFIXES.inventoryItem]: 'inventory_items',
  [PREFIXES.waitlistEntry]: 'waitlist_entries',
  [PREFIXES.feedback]: 'feedback',
  [PREFIXES.qrCode]: 'qr_codes',
  [PREFIXES.delivery]: 'deliveries',
  [PREFIXES.syncResolution]: 'sync_resolutions',
  [PREFIXES.payment]: 'payments',
  [PREFIXES.refund]: 'payment_refunds',
  [PREFIXES.cashCount]: 'cash_counts',
};
const ROW_ID = /^([a-z]+)_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The rows a text value names: itself when it is a row id, or the row ids of a JSON list. */
export function rowIdsIn(v: string): [SyncedTable, string][] {
  const one = (s: unknown): [SyncedTable, string] | null => {
    if (typeof s !== 'string') return null;
    const m = ROW_ID.exec(s);
    const table = m ? TABLE_OF_PREFIX[m[1]!] : undefined;
    return table ? [table, s] : null;
  };
  if (v.startsWith('[')) {
    let list: unknown;
    try {
      list = JSON.parse(v);
    } catch {
      return [];
    }
    return Array.isArray(list) ? list.map(one).filter((x): x is [SyncedTable, string] => x !== null) : [];
  }
  const hit = one(v);
  return hit ? [hit] : [];
}
