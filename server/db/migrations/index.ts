import type { Migration } from 'kysely';
import * as m0001 from './0001_foundation.ts';

/**
 * Every migration, by name; applied in name order. Features own a number range
 * (0100 orders, 0200 reservations, 0300 guest, 0400 webhooks, 0500 analytics,
 * 0600 realtime, 0700 printers, 0800 sync) so they can be added independently.
 */
export const migrations: Record<string, Migration> = {
  '0001_foundation': m0001,
};
