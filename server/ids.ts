// .gitattributes merges this file with merge=union: two branches that each add a id prefix merge
// cleanly by keeping both lines; check the result still compiles after a merge.
import { randomFillSync } from 'node:crypto';
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
  syncHub: 'hub',
  syncConflict: 'sconf',
  syncResolution: 'sres',
  payment: 'pay',
  refund: 're',
  cashCount: 'cc',
} as const;

export type PrefixName = keyof typeof PREFIXES;

// ulid's default source asks the OS for one byte per character; a pool of random bytes gives
// the same uniform characters (256 is a multiple of the 32-letter alphabet) for a fraction of the cost.
const pool = Buffer.alloc(4096);
let used = pool.length;
const pooledRandom = () => {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  return pool[used++] / 256;
};

const ulid = monotonicFactory(pooledRandom);

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
