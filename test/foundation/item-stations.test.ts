import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/**
 * A menu item may name its own station (the fries of the burger category go to the fryer),
 * and stations have an order the kitchen chooses: the station list, the screens' config and
 * an order's printed tickets follow it.
 */
describe.each(DIALECTS)('station per item and station order on %s', (dialect) => {
  let hub: TestHub;
  let burgers: string;
  let fries: string;
  let burger: string;
  beforeAll(async () => {
    hub = await startHub(dialect);
    expect((await hub.api.post('/v1/stations', { key: 'fryer', name: 'Fryer' })).status).toBe(201);
    burgers = (await hub.api.post('/v1/menu_categories', { name: 'Burgers' })).body.id;
    for (const station of ['kitchen', 'fryer']) {
      const r = await hub.api.post('/v1/printers', { name: `P ${station}`, transport: { type: 'tcp', host: '127.0.0.1', port: 9 }, stations: [station] });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
  });
  afterAll(() => hub?.close());

  it('an item names its own station; its lines go there, the others to the category’s', async () => {
    const made = await hub.api.post('/v1/menu_items', { name: 'Fries', category: burgers, price: 450, station: 'fryer' });
    expect(made.status).toBe(201);
    expect(made.body.station).toBe('fryer');
    fries = made.body.id;
    const plain = await hub.api.post('/v1/menu_items', { name: 'Burger', category: burgers, price: 1290 });
    expect(plain.body.station).toBeNull();
    burger = plain.body.id;
    const order = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: burger, quantity: 1 }, { menu_item: fries, quantity: 2 }] });
    expect(order.status).toBe(201);
    expect(order.body.items.map((i: any) => [i.name, i.station])).toEqual([
      ['Burger', 'kitchen'],
      ['Fries', 'fryer'],
    ]);
    // handed back to its category (null), the next order's fries go to the kitchen
    expect((await hub.api.patch(`/v1/menu_items/${fries}`, { station: null })).body.station).toBeNull();
    const later = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: fries, quantity: 1 }] });
    expect(later.body.items[0].station).toBe('kitchen');
    expect((await hub.api.patch(`/v1/menu_items/${fries}`, { station: 'fryer' })).body.station).toBe('fryer');
  });

  it('refuses a station that does not take tickets, and switching off a station items still use', async () => {
    const unknown = await hub.api.post('/v1/menu_items', { name: 'Onion rings', category: burgers, price: 500, station: 'nope' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error).toMatchObject({ code: 'unknown_station', param: 'station' });
    const off = await hub.api.patch('/v1/stations/fryer', { is_active: false });
    expect(off.status).toBe(409);
    expect(off.body.error.message).toContain('1 active menu item');
    expect((await hub.api.get('/v1/stations/fryer')).body.is_active).toBe(true);
    // nothing was made for the refused item
    const names = (await hub.api.get('/v1/menu_items?limit=100')).body.data.map((i: any) => i.name);
    expect(names).not.toContain('Onion rings');
  });

  it('lists stations in the order the kitchen sets; screens and tickets follow it', async () => {
    // the fryer first, then the kitchen, then the rest as they were made
    const keys = ['fryer', 'kitchen', 'bar', 'dessert', 'other'];
    for (const [i, key] of keys.entries()) expect((await hub.api.patch(`/v1/stations/${key}`, { position: i })).body.position).toBe(i);
    expect((await hub.api.get('/v1/stations')).body.data.map((s: any) => s.key)).toEqual(keys);
    // a page of two goes on in the same order
    const first = await hub.api.get('/v1/stations?limit=2');
    const next = await hub.api.get(`/v1/stations?limit=10&starting_after=${first.body.next_cursor}`);
    expect([...first.body.data, ...next.body.data].map((s: any) => s.key)).toEqual(keys);
    const config = await hub.api.get('/public/screens/config', { key: hub.keys.widget });
    expect(config.body.stations.map((s: any) => s.key)).toEqual(keys);

    const order = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: burger, quantity: 1 }, { menu_item: fries, quantity: 1 }] });
    expect((await hub.api.patch(`/v1/orders/${order.body.id}`, { status: 'placed' })).status).toBe(200);
    const jobs = (await hub.api.get(`/v1/print_jobs?order=${order.body.id}&kind=kitchen_ticket`)).body.data as { station: string }[];
    // listed newest first: printed fryer, then kitchen
    expect(jobs.map((j) => j.station).reverse()).toEqual(['fryer', 'kitchen']);
    // and the other way round once the kitchen moves up
    await hub.api.patch('/v1/stations/kitchen', { position: 0 });
    await hub.api.patch('/v1/stations/fryer', { position: 1 });
    const again = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: fries, quantity: 1 }, { menu_item: burger, quantity: 1 }] });
    expect((await hub.api.patch(`/v1/orders/${again.body.id}`, { status: 'placed' })).status).toBe(200);
    const jobs2 = (await hub.api.get(`/v1/print_jobs?order=${again.body.id}&kind=kitchen_ticket`)).body.data as { station: string }[];
    expect(jobs2.map((j) => j.station).reverse()).toEqual(['kitchen', 'fryer']);
  });
});
