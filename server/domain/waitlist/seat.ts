import type { Executor } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';
import type { Actor } from '../../services.ts';
import type { EventHooks } from '../events/emit.ts';
import { seatWalkIn } from '../reservations/reservations.ts';
import { ACTIVE, moveEntry } from './entries.ts';
import type { WaitlistEntryRow } from '../../db/tables/waitlist-entries.table.ts';

/**
 * Seats a waiting or notified party, at a table when one is named. The table is held by a
 * sitting made in the same transaction (reservations.ts seatWalkIn), so the floor, the day book
 * and booking availability see it taken; a refused table (another restaurant's, inactive, too
 * small or large, occupied, booked soon) leaves the party waiting and writes nothing.
 */
export async function seatEntry(trx: Executor, hooks: EventHooks, actor: Actor, entry: WaitlistEntryRow, tableId?: string) {
  if (!tableId) return moveEntry(trx, hooks, actor, entry, 'seated');
  if (!ACTIVE.includes(entry.status)) {
    throw new ApiError('WAITLIST_NOT_ACTIVE', `This waitlist entry is ${entry.status} and can no longer change.`);
  }
  const sitting = await seatWalkIn(trx, hooks, actor, {
    table: tableId,
    guest_name: entry.guest_name,
    party_size: entry.party_size,
    customer_id: entry.customer_id,
    guest_email: entry.email,
    guest_phone: entry.phone,
    notes: entry.notes,
    source: 'waitlist',
  });
  return moveEntry(trx, hooks, actor, entry, 'seated', { table_id: sitting.table_id, reservation_id: sitting.id });
}
