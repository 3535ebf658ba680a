import { presentWaitlistEntry, type EntryRow } from '../presenters/guest.ts';
import { presentReservation, type ReservationRow } from '../presenters/reservations.ts';
import { tokenEntryId, verifyEntryToken } from '../domain/waitlist/token.ts';
import { entryGrant, registerGuestTokenResolver } from './guest-tokens.ts';
import { setRealtimePresenter } from './topics.ts';

// Live messages carry the same objects as the API and the events.
setRealtimePresenter('reservations', (row) => presentReservation(row as unknown as ReservationRow));
setRealtimePresenter('waitlist_entries', (row) => presentWaitlistEntry(row as unknown as EntryRow));

// A waitlist token follows its own entry only; it is checked exactly as the guest routes check it.
registerGuestTokenResolver('waitlist', async (services, token) => {
  const id = tokenEntryId(token);
  if (!id) return null;
  const entry = await services.db
    .selectFrom('waitlist_entries')
    .innerJoin('restaurants', 'restaurants.id', 'waitlist_entries.restaurant_id')
    .select(['waitlist_entries.restaurant_id', 'restaurants.guest_secret'])
    .where('waitlist_entries.id', '=', id)
    .executeTakeFirst();
  if (!entry || !verifyEntryToken(token, id, entry.guest_secret)) return null;
  return entryGrant(entry.restaurant_id, 'waitlist_entries', id);
});
