import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addEntry, type NewEntry } from '../../server/domain/waitlist/entries.ts';
import { ApiError } from '../../server/errors.ts';
import { DIALECTS } from '../helpers/db.ts';
import { raceOnPostgres } from '../helpers/race.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { counts, join, nextPhone, openWaitlist } from './helpers.ts';

describe.each(DIALECTS)('one place in the queue per guest on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
    await openWaitlist(hub, hub.api);
  });
  afterAll(() => hub?.close());

  const actor = () => ({ restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() });
  const party = (contact: Partial<NewEntry>): NewEntry => ({ guestName: 'Race', partySize: 2, consent: false, source: 'online', ...contact });
  const entriesWith = async (column: 'phone' | 'email', value: string) =>
    (await hub.server.services.db.selectFrom('waitlist_entries').select('id').where(column, '=', value).execute()).length;

  it('the database itself refuses a second active entry with the same phone or email', async () => {
    const db = hub.server.services.db;
    await hub.server.services.tx.run((trx) => addEntry(trx, hub.server.services.registry.hooks, actor(), party({ email: 'once@example.org' })));
    const [row] = await db.selectFrom('waitlist_entries').selectAll().where('email', '=', 'once@example.org').execute();
    // bypassing the join's own check, as a racing join would
    const copy = { ...row, id: `${row.id.slice(0, -4)}ZZZZ` };
    await expect(db.insertInto('waitlist_entries').values(copy).execute()).rejects.toThrow();
    // once the first has left the queue, the same guest may join again
    await db.updateTable('waitlist_entries').set({ status: 'seated' }).where('id', '=', row.id).execute();
    await db.insertInto('waitlist_entries').values(copy).execute();
    expect(await entriesWith('email', 'once@example.org')).toBe(2);
  });

  it('a second join with the same phone is 409 WAITLIST_ALREADY_JOINED, nothing written', async () => {
    const phone = nextPhone();
    expect((await join(hub, { phone })).status).toBe(201);
    const before = await counts(hub, ['waitlist_entries', 'events', 'customers', 'change_log']);
    const again = await join(hub, { phone, guestName: 'Twice' });
    expect(await counts(hub, ['waitlist_entries', 'events', 'customers', 'change_log'])).toEqual(before);
    expect(again.status).toBe(409);
    expect(again.body.error).toMatchObject({ code: 'WAITLIST_ALREADY_JOINED', param: 'phone' });
  });

  if (dialect === 'postgres') {
    it('two joins racing (neither sees the other) end with one entry and the same 409 for the second', async () => {
      const input = party({ phone: '+49 30 55501234' });
      // the second join waits on the first one's uncommitted entry: its own check could not
      // see it, so only the index stands between them
      const outcome = await raceOnPostgres(
        hub.server.services.db,
        (trx) => addEntry(trx, hub.server.services.registry.hooks, actor(), input),
        (trx) => addEntry(trx, hub.server.services.registry.hooks, actor(), input),
      );
      expect(outcome).toBeInstanceOf(ApiError);
      expect(outcome).toMatchObject({ code: 'WAITLIST_ALREADY_JOINED', param: 'phone' });
      expect(await entriesWith('phone', '+493055501234')).toBe(1);
    });
  }
});
