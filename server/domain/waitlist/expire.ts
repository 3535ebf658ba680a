import type { Transactor } from '../../db/transact.ts';
import { readSettings } from '../../model/settings.ts';
import { moveEntry } from './entries.ts';

/**
 * Expires notified parties that did not come back within their restaurant's
 * `notify_expiry_minutes`. Each entry moves in its own transaction so one failure does
 * not hold back the rest; returns how many expired.
 */
export async function expireNotifiedEntries(tx: Transactor, nowMs: number): Promise<number> {
  const nowSec = Math.floor(nowMs / 1000);
  const rows = await tx.db
    .selectFrom('waitlist_entries')
    .innerJoin('restaurants', 'restaurants.id', 'waitlist_entries.restaurant_id')
    .selectAll('waitlist_entries')
    .select(['restaurants.settings as r_settings', 'restaurants.timezone as r_timezone', 'restaurants.currency as r_currency', 'restaurants.default_tax_rate as r_tax'])
    .where('waitlist_entries.status', '=', 'notified')
    .execute();
  let expired = 0;
  for (const row of rows) {
    const settings = readSettings({ settings: row.r_settings, timezone: row.r_timezone, currency: row.r_currency, default_tax_rate: row.r_tax });
    const deadline = Number(row.notified_at) + settings.waitlist.notify_expiry_minutes * 60;
    if (nowSec < deadline) continue;
    const { r_settings, r_timezone, r_currency, r_tax, ...entry } = row;
    void r_settings, void r_timezone, void r_currency, void r_tax;
    try {
      await tx.run((trx) => moveEntry(trx, { restaurantId: entry.restaurant_id, livemode: entry.livemode === 1, now: nowMs }, entry, 'expired'));
      expired++;
    } catch {
      // seated or cancelled meanwhile: nothing to expire
    }
  }
  return expired;
}
