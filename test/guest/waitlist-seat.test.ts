import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { counts, openWaitlist } from './helpers.ts';

const WRITES = ['waitlist_entries', 'reservations', 'events', 'change_log'];
/** Monday 2026-11-02 13:00 in Berlin, inside the lunch hours openWaitlist sets. */
const start = Date.UTC(2026, 10, 2, 12, 0, 0);

describe.each(DIALECTS)('seating a waitlist party at a table on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  const table: Record<string, string> = {};
  beforeAll(async () => {
    hub = await startHub(dialect);
    hub.clock.set(start);
    await openWaitlist(hub);
    menu = await seedMenu(hub);
    for (const [name, body] of Object.entries({
      two: { number: 21, capacity: 2 },
      four: { number: 22, capacity: 4, min_capacity: 3 },
      booked: { number: 23, capacity: 4 },
      off: { number: 24, capacity: 4, is_active: false },
      big: { number: 25, capacity: 6, min_capacity: 3 },
    })) {
      const r = await hub.api.post('/v1/tables', body);
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      table[name] = r.body.id;
    }
  });
  afterAll(() => hub?.close());

  const walkIn = async (name: string, party: number) => (await hub.api.post('/v1/waitlist', { guest_name: name, party_size: party })).body.id as string;

  it('seats the party at the table: the entry names it, and a seated sitting holds it in the day book from now', async () => {
    const id = await walkIn('Marguerite Fontaine-Delacroix', 4);
    const seated = await hub.api.post(`/v1/waitlist/${id}/seat`, { table: table.four });
    expect(seated.status, JSON.stringify(seated.body)).toBe(200);
    expect(seated.body).toMatchObject({ status: 'seated', table: table.four, seated_at: start / 1000 });
    const sitting = await hub.api.get(`/v1/reservations/${seated.body.reservation}`);
    expect(sitting.body).toMatchObject({
      status: 'seated',
      table: table.four,
      source: 'waitlist',
      party_size: 4,
      date: '2026-11-02',
      time: '13:00',
      starts_at: start / 1000,
      guest: { name: 'Marguerite Fontaine-Delacroix' },
    });
    const day = await hub.api.get('/v1/reservations?date=2026-11-02');
    expect(day.body.data.filter((r: any) => r.table === table.four).map((r: any) => r.status)).toEqual(['seated']);
    // the next party cannot be seated there, nor booked into it now
    const next = await walkIn('Next', 4);
    const refused = await hub.api.post(`/v1/waitlist/${next}/seat`, { table: table.four });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'table_unavailable', param: 'table', message: 'Table 22 is occupied.' });
    const booking = await hub.api.post('/v1/reservations', { guest_name: 'B', party_size: 4, date: '2026-11-02', time: '13:15', table: table.four });
    expect(booking.status).toBe(409);
    // once the party is done the table takes the next one
    expect((await hub.api.patch(`/v1/reservations/${seated.body.reservation}/status`, { status: 'completed' })).status).toBe(200);
    const again = await hub.api.post(`/v1/waitlist/${next}/seat`, { table: table.four });
    expect(again.body).toMatchObject({ status: 'seated', table: table.four });
    const events = await hub.api.get('/v1/events?type=waitlist.seated');
    expect(events.body.data[0].data.object).toMatchObject({ id: next, table: table.four });
  });

  it('refuses a table that is not free or does not fit, writing nothing and leaving the party waiting', async () => {
    const other = await hub.addRestaurant('seat-rival');
    const theirs = (await other.api.post('/v1/tables', { number: 5, capacity: 4 })).body.id;
    const soon = await hub.api.post('/v1/reservations', { guest_name: 'Soon', party_size: 2, date: '2026-11-02', time: '13:30', table: table.booked });
    expect(soon.status, JSON.stringify(soon.body)).toBe(201);
    const order = await hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table, items: [{ menu_item: menu.water, quantity: 1 }] });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    const id = await walkIn('Picky', 2);
    const before = await counts(hub, WRITES);
    const cases: [unknown, number, string, RegExp][] = [
      [{ table: table.big }, 409, 'table_unavailable', /seats 3–6, not a party of 2/],
      [{ table: table.booked }, 409, 'table_unavailable', /already booked/],
      [{ table: table.off }, 409, 'table_unavailable', /inactive/],
      [{ table: menu.table }, 409, 'table_unavailable', /occupied/],
      [{ table: theirs }, 404, 'resource_missing', /table/],
      [{ table: 'tbl_nope' }, 404, 'resource_missing', /table/],
      [{ table: 42 }, 400, 'parameter_invalid', /table/],
    ];
    for (const [body, status, code, message] of cases) {
      const r = await hub.api.post(`/v1/waitlist/${id}/seat`, body);
      expect(r.status, `${JSON.stringify(body)} → ${JSON.stringify(r.body)}`).toBe(status);
      expect(r.body.error.code).toBe(code);
      expect(r.body.error.param).toBe('table');
      expect(r.body.error.message).toMatch(message);
    }
    expect(await counts(hub, WRITES)).toEqual(before);
    expect((await hub.api.get(`/v1/waitlist/${id}`)).body).toMatchObject({ status: 'waiting', table: null, reservation: null });
    const ok = await hub.api.post(`/v1/waitlist/${id}/seat`, { table: table.two });
    expect(ok.body).toMatchObject({ status: 'seated', table: table.two });
    // a party already seated is refused before any table is held
    const twice = await hub.api.post(`/v1/waitlist/${id}/seat`, { table: table.two });
    expect(twice.body.error.code).toBe('WAITLIST_NOT_ACTIVE');
  });

  it('still seats without a table (no sitting is made)', async () => {
    const id = await walkIn('Bar stool', 1);
    const r = await hub.api.post(`/v1/waitlist/${id}/seat`);
    expect(r.body).toMatchObject({ status: 'seated', table: null, reservation: null });
  });
});
