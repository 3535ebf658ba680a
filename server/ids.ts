import { monotonicFactory } from 'ulid';

/**
 * Record ids are a type prefix plus a ULID: 48 bits of milliseconds and 80 random bits.
 * Hub and cloud both create records while offline, so ids must never depend on a shared
 * counter; ULIDs sort by creation time, which keeps "newest first" cheap.
 */
export const PREFIXES = {
  restaurant: 'rst',
  apiKey: 'key',
  user: 'usr',
  station: 'stn',
  menuCategory: 'mc',
  menuItem: 'mi',
  modifierGroup: 'mg',
  table: 'tbl',
  customer: 'cus',
  order: 'ord',
  orderItem: 'oi',
  reservation: 'rsv',
  event: 'evt',
  webhookEndpoint: 'we',
  printer: 'prt',
  printJob: 'pj',
  shift: 'shf',
  inventoryItem: 'inv',
  webhookDelivery: 'whd',
  change: 'op',
  waitlistEntry: 'wl',
  feedback: 'fb',
  guestMessage: 'msg',
  qrCode: 'qr',
  delivery: 'dlv',
} as const;

export type PrefixName = keyof typeof PREFIXES;

const ulid = monotonicFactory();

export function newId(prefix: string, nowMs: number = Date.now()): string {
  return `${prefix}_${ulid(nowMs)}`;
}

/** `mcat_X` is the spec's spelling of `mc_X` on some category routes; both name one record. */
export function normalizeCategoryId(id: string): string {
  return id.startsWith('mcat_') ? `mc_${id.slice(5)}` : id;
}

export function hasPrefix(id: string, prefix: string): boolean {
  return id.startsWith(`${prefix}_`) && id.length > prefix.length + 1;
}
