import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { expectError } from '../helpers/assert.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';

const long = 'x'.repeat(300);

describe.each(DIALECTS)('menu on %s', (dialect) => {
  let hub: TestHub;
  let category: string;
  let group: string;
  let item: string;
  let foreign: { category: string; item: string; group: string };

  beforeAll(async () => {
    hub = await startHub(dialect);
    category = (await hub.api.post('/v1/menu_categories', { name: 'Pizza', station: 'kitchen' })).body.id;
    group = (
      await hub.api.post('/v1/modifier_groups', {
        name: 'Crust',
        required: true,
        max_selections: 1,
        modifiers: [{ name: 'Classic' }, { name: 'Gluten-free', price_adjustment: 300 }],
      })
    ).body.id;
    item = (await hub.api.post('/v1/menu_items', { name: 'Margherita', category, price: 1050, modifier_groups: [group] })).body.id;
    const other = await hub.addRestaurant(`elsewhere-${dialect}`);
    const oc = (await other.api.post('/v1/menu_categories', { name: 'X' })).body.id;
    foreign = {
      category: oc,
      item: (await other.api.post('/v1/menu_items', { name: 'X', category: oc, price: 1 })).body.id,
      group: (await other.api.post('/v1/modifier_groups', { name: 'X' })).body.id,
    };
  });
  afterAll(() => hub?.close());

  /** Runs a refused request and proves no record and no change-log row was written. */
  async function refused(req: Promise<any> | (() => Promise<any>), status: number, code?: string, param?: string | null) {
    const before = await countRows(hub, 'change_log');
    const res = await (typeof req === 'function' ? req() : req);
    expectError(res, status, code, param);
    expect(await countRows(hub, 'change_log')).toBe(before);
  }

  describe('menu items', () => {
    it('creates with defaults and the spec fields', async () => {
      const r = await hub.api.post('/v1/menu_items', {
        name: 'Diavola',
        category,
        price: 1290,
        cost: 290,
        tax_rate: 0.07,
        allergens: ['gluten'],
        nutrition: { calories: 800 },
        translations: { de: { name: 'Teufelspizza' } },
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        object: 'menu_item',
        name: 'Diavola',
        category,
        price: 1290,
        cost: 290,
        is_active: true,
        is_available: true,
        description: null,
        sku: null,
        tax_rate: 0.07,
        allergens: ['gluten'],
        tags: [],
        modifier_groups: [],
        nutrition: { calories: 800 },
        translations: { de: { name: 'Teufelspizza' } },
      });
      expect(r.body.id).toMatch(/^mi_[0-9A-Z]{26}$/);
      expect(r.body.created).toBe(Math.floor(hub.clock.now() / 1000));
    });

    it('ignores fields a client may not set', async () => {
      const r = await hub.api.post('/v1/menu_items', { name: 'Plain', category, price: 500, id: 'mi_mine', created: 1, object: 'hack' });
      expect(r.status).toBe(201);
      expect(r.body.id).not.toBe('mi_mine');
      expect(r.body.object).toBe('menu_item');
    });

    it.each([
      ['missing name', { category: 'C', price: 100 }, 'parameter_missing', 'name'],
      ['missing price', { name: 'a', category: 'C' }, 'parameter_missing', 'price'],
      ['missing category', { name: 'a', price: 100 }, 'parameter_missing', 'category'],
      ['name wrong type', { name: 12, category: 'C', price: 100 }, 'parameter_invalid', 'name'],
      ['empty name', { name: '  ', category: 'C', price: 100 }, 'parameter_invalid', 'name'],
      ['300-character name', { name: long, category: 'C', price: 100 }, 'parameter_invalid', 'name'],
      ['negative price', { name: 'a', category: 'C', price: -1 }, 'parameter_invalid', 'price'],
      ['fractional price', { name: 'a', category: 'C', price: 10.5 }, 'parameter_invalid', 'price'],
      ['price as string', { name: 'a', category: 'C', price: '100' }, 'parameter_invalid', 'price'],
      ['negative cost', { name: 'a', category: 'C', price: 100, cost: -5 }, 'parameter_invalid', 'cost'],
      ['tax_rate 1.5', { name: 'a', category: 'C', price: 100, tax_rate: 1.5 }, 'parameter_invalid', 'tax_rate'],
      ['tax_rate negative', { name: 'a', category: 'C', price: 100, tax_rate: -0.1 }, 'parameter_invalid', 'tax_rate'],
      ['allergens not a list', { name: 'a', category: 'C', price: 100, allergens: 'gluten' }, 'parameter_invalid', 'allergens'],
      ['bad image url', { name: 'a', category: 'C', price: 100, image_url: 'not a url' }, 'parameter_invalid', 'image_url'],
      ['is_available not boolean', { name: 'a', category: 'C', price: 100, is_available: 'yes' }, 'parameter_invalid', 'is_available'],
    ])('refuses %s', async (_label, body, code, param) => {
      const b = { ...body } as any;
      if (b.category === 'C') b.category = category;
      await refused(hub.api.post('/v1/menu_items', b), 400, code, param);
    });

    it('refuses unknown and foreign categories and modifier groups with 404', async () => {
      await refused(hub.api.post('/v1/menu_items', { name: 'a', category: 'mc_unknown', price: 1 }), 404, 'resource_missing', 'category');
      await refused(hub.api.post('/v1/menu_items', { name: 'a', category: foreign.category, price: 1 }), 404, 'resource_missing', 'category');
      await refused(hub.api.post('/v1/menu_items', { name: 'a', category, price: 1, modifier_groups: [foreign.group] }), 404, 'resource_missing', 'modifier_groups');
      await refused(hub.api.post('/v1/menu_items', { name: 'a', category, price: 1, modifier_groups: [group, group] }), 400, 'parameter_invalid', 'modifier_groups');
    });

    it('updates only the fields sent', async () => {
      const r = await hub.api.patch(`/v1/menu_items/${item}`, { price: 1100, name: 'Margherita DOP' });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ price: 1100, name: 'Margherita DOP', category, modifier_groups: [group] });
      await refused(hub.api.patch(`/v1/menu_items/${item}`, { price: -3 }), 400, 'parameter_invalid', 'price');
      await refused(hub.api.patch(`/v1/menu_items/${item}`, { tax_rate: 1.5 }), 400, 'parameter_invalid', 'tax_rate');
      await refused(hub.api.patch(`/v1/menu_items/${item}`, { name: long }), 400, 'parameter_invalid', 'name');
      await refused(hub.api.patch(`/v1/menu_items/mi_nothing`, { price: 1 }), 404, 'resource_missing');
      await refused(hub.api.patch(`/v1/menu_items/${foreign.item}`, { price: 1 }), 404, 'resource_missing');
      await refused(hub.api.patch(`/v1/menu_items/${item}?x=1`, { price: 1 }), 400, 'parameter_unknown');
    });

    it('hides an unavailable item from the in-stock list at once', async () => {
      await hub.api.patch(`/v1/menu_items/${item}`, { is_available: false });
      const inStock = await hub.api.get('/v1/menu_items?is_available=true&limit=100');
      expect(inStock.body.data.some((d: any) => d.id === item)).toBe(false);
      const all = await hub.api.get('/v1/menu_items?limit=100');
      expect(all.body.data.find((d: any) => d.id === item).is_available).toBe(false);
      await hub.api.patch(`/v1/menu_items/${item}`, { is_available: true });
      expectError(await hub.api.get('/v1/menu_items?is_available=maybe'), 400, 'parameter_invalid', 'is_available');
    });

    it('soft-deletes: the item stays retrievable and is listed only with is_active=false', async () => {
      const temp = (await hub.api.post('/v1/menu_items', { name: 'Seasonal', category, price: 900 })).body.id;
      const del = await hub.api.delete(`/v1/menu_items/${temp}`);
      expect(del.status).toBe(200);
      expect(del.body).toMatchObject({ id: temp, is_active: false });
      expect((await hub.api.get(`/v1/menu_items/${temp}`)).body.is_active).toBe(false);
      expect((await hub.api.get('/v1/menu_items?limit=100')).body.data.some((d: any) => d.id === temp)).toBe(false);
      const withInactive = await hub.api.get('/v1/menu_items?limit=100&is_active=false');
      expect(withInactive.body.data.some((d: any) => d.id === temp)).toBe(true);
      expect(withInactive.body.data.some((d: any) => d.id === item)).toBe(true);
      await refused(hub.api.delete(`/v1/menu_items/${foreign.item}`), 404, 'resource_missing');
    });

    it('filters by category in either id spelling', async () => {
      const other = (await hub.api.post('/v1/menu_categories', { name: 'Salads' })).body.id;
      const salad = (await hub.api.post('/v1/menu_items', { name: 'Caesar', category: other, price: 900 })).body.id;
      for (const id of [other, other.replace(/^mc_/, 'mcat_')]) {
        const r = await hub.api.get(`/v1/menu_items?category=${id}`);
        expect(r.body.data.map((d: any) => d.id)).toEqual([salad]);
      }
    });
  });

  describe('menu categories', () => {
    it('creates nested categories routed to a station', async () => {
      await hub.api.post('/v1/stations', { key: 'grill', name: 'Grill' });
      const parent = (await hub.api.post('/v1/menu_categories', { name: 'Mains', sort_order: 2 })).body;
      const r = await hub.api.post('/v1/menu_categories', {
        name: 'From the grill',
        parent_category: parent.id,
        station: 'grill',
        available_from: '11:30',
        available_until: '22:00',
        available_days: ['friday', 'saturday'],
      });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        object: 'menu_category',
        parent_category: parent.id,
        station: 'grill',
        available_from: '11:30',
        available_until: '22:00',
        available_days: ['friday', 'saturday'],
        is_active: true,
        description: null,
      });
      expect(parent.station).toBe('kitchen');
      expect(parent.available_days).toHaveLength(7);
    });

    it('accepts mcat_ and mc_ for the same category on retrieve, update and delete', async () => {
      const c = (await hub.api.post('/v1/menu_categories', { name: 'Aliased' })).body;
      const alias = c.id.replace(/^mc_/, 'mcat_');
      expect((await hub.api.get(`/v1/menu_categories/${alias}`)).body.id).toBe(c.id);
      expect((await hub.api.patch(`/v1/menu_categories/${alias}`, { name: 'Renamed' })).body.name).toBe('Renamed');
      const del = await hub.api.delete(`/v1/menu_categories/${alias}`);
      expect(del.body).toMatchObject({ id: c.id, is_active: false });
      expect((await hub.api.get(`/v1/menu_categories/${c.id}`)).body.is_active).toBe(false);
    });

    it('lists by sort_order, then newest first', async () => {
      const r = await hub.api.get('/v1/menu_categories?limit=100');
      const orders = r.body.data.map((d: any) => d.sort_order);
      expect([...orders].sort((a: number, b: number) => a - b)).toEqual(orders);
    });

    it.each([
      ['missing name', {}, 400, 'parameter_missing', 'name'],
      ['300-character name', { name: long }, 400, 'parameter_invalid', 'name'],
      ['unknown station', { name: 'a', station: 'pastry' }, 400, 'unknown_station', 'station'],
      ['time 25:00', { name: 'a', available_from: '25:00' }, 400, 'parameter_invalid', 'available_from'],
      ['time 9:5', { name: 'a', available_until: '9:5' }, 400, 'parameter_invalid', 'available_until'],
      ['bad weekday', { name: 'a', available_days: ['funday'] }, 400, 'parameter_invalid', 'available_days[0]'],
      ['sort_order fractional', { name: 'a', sort_order: 1.5 }, 400, 'parameter_invalid', 'sort_order'],
      ['unknown parent', { name: 'a', parent_category: 'mc_nope' }, 404, 'resource_missing', 'parent_category'],
    ])('refuses %s', async (_l, body, status, code, param) => {
      await refused(hub.api.post('/v1/menu_categories', body), status, code, param);
    });

    it('refuses an inactive station, a foreign parent and a cycle', async () => {
      await hub.api.post('/v1/stations', { key: 'pastry' });
      await hub.api.patch('/v1/stations/pastry', { is_active: false });
      await refused(hub.api.post('/v1/menu_categories', { name: 'a', station: 'pastry' }), 400, 'unknown_station', 'station');
      await refused(hub.api.post('/v1/menu_categories', { name: 'a', parent_category: foreign.category }), 404, 'resource_missing');
      const a = (await hub.api.post('/v1/menu_categories', { name: 'A' })).body.id;
      const b = (await hub.api.post('/v1/menu_categories', { name: 'B', parent_category: a })).body.id;
      await refused(hub.api.patch(`/v1/menu_categories/${a}`, { parent_category: b }), 400, 'parameter_invalid', 'parent_category');
      await refused(hub.api.patch(`/v1/menu_categories/${a}`, { parent_category: a }), 400, 'parameter_invalid', 'parent_category');
      await refused(hub.api.patch(`/v1/menu_categories/${foreign.category}`, { name: 'mine' }), 404, 'resource_missing');
      await refused(hub.api.delete(`/v1/menu_categories/${foreign.category}`), 404, 'resource_missing');
    });
  });

  describe('modifier groups', () => {
    it('fills modifier defaults and derives the bounds', async () => {
      const r = await hub.api.post('/v1/modifier_groups', { name: 'Sides', required: true, modifiers: [{ name: 'Fries' }, { name: 'Salad', price_adjustment: 150, is_default: true }] });
      expect(r.status).toBe(201);
      expect(r.body).toMatchObject({
        object: 'modifier_group',
        required: true,
        min_selections: 1,
        max_selections: 2,
        modifiers: [
          { name: 'Fries', price_adjustment: 0, is_default: false, is_available: true, sort_order: 0 },
          { name: 'Salad', price_adjustment: 150, is_default: true, is_available: true, sort_order: 1 },
        ],
      });
    });

    it('one update reaches every item using the group', async () => {
      await hub.api.patch(`/v1/modifier_groups/${group}`, { modifiers: [{ name: 'Classic' }, { name: 'Wholegrain', price_adjustment: 150 }] });
      const r = await hub.api.get(`/v1/menu_items/${item}?expand[]=modifier_groups`);
      expect(r.body.modifier_groups[0].modifiers.map((m: any) => m.name)).toEqual(['Classic', 'Wholegrain']);
    });

    it.each([
      ['missing name', { modifiers: [] }, 'parameter_missing', 'name'],
      ['min above max', { name: 'g', min_selections: 3, max_selections: 1, modifiers: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }, 'parameter_invalid', 'max_selections'],
      ['min above the modifiers offered', { name: 'g', min_selections: 2, modifiers: [{ name: 'a' }] }, 'parameter_invalid', 'min_selections'],
      ['negative price_adjustment', { name: 'g', modifiers: [{ name: 'a', price_adjustment: -50 }] }, 'parameter_invalid', 'modifiers[0].price_adjustment'],
      ['fractional price_adjustment', { name: 'g', modifiers: [{ name: 'a', price_adjustment: 0.5 }] }, 'parameter_invalid', 'modifiers[0].price_adjustment'],
      ['duplicate modifier names', { name: 'g', modifiers: [{ name: 'a' }, { name: 'A' }] }, 'parameter_invalid', 'modifiers[1].name'],
      ['modifier without a name', { name: 'g', modifiers: [{ price_adjustment: 5 }] }, 'parameter_missing', 'modifiers[0].name'],
      ['required not boolean', { name: 'g', required: 'yes' }, 'parameter_invalid', 'required'],
    ])('refuses %s', async (_l, body, code, param) => {
      await refused(hub.api.post('/v1/modifier_groups', body), 400, code, param);
    });

    it('deletes for good and says which items it was removed from', async () => {
      const g = (await hub.api.post('/v1/modifier_groups', { name: 'Temporary', modifiers: [{ name: 'x' }] })).body.id;
      const a = (await hub.api.post('/v1/menu_items', { name: 'With temp', category, price: 100, modifier_groups: [group, g] })).body.id;
      const del = await hub.api.delete(`/v1/modifier_groups/${g}`);
      expect(del.status).toBe(200);
      expect(del.body).toEqual({ id: g, object: 'modifier_group', deleted: true, removed_from_menu_items: [a] });
      expectError(await hub.api.get(`/v1/modifier_groups/${g}`), 404, 'resource_missing');
      expect((await hub.api.get(`/v1/menu_items/${a}`)).body.modifier_groups).toEqual([group]);
      await refused(hub.api.delete(`/v1/modifier_groups/${g}`), 404, 'resource_missing');
      await refused(hub.api.delete(`/v1/modifier_groups/${foreign.group}`), 404, 'resource_missing');
    });

    it('lists newest first with cursors', async () => {
      const r = await hub.api.get('/v1/modifier_groups?limit=1');
      expect(r.body.data).toHaveLength(1);
      expect(r.body.has_more).toBe(true);
      const next = await hub.api.get(`/v1/modifier_groups?limit=1&starting_after=${r.body.next_cursor}`);
      expect(next.body.data[0].id).not.toBe(r.body.data[0].id);
      expect(next.body.data[0].created).toBeLessThanOrEqual(r.body.data[0].created);
      expectError(await hub.api.get('/v1/modifier_groups?limit=500'), 400, 'parameter_invalid', 'limit');
    });
  });

  describe('stations', () => {
    it('starts with the four default stations', async () => {
      const r = await hub.api.get('/v1/stations');
      expect(r.body.data.slice(0, 4).map((s: any) => s.key)).toEqual(['kitchen', 'bar', 'dessert', 'other']);
      expect(r.body.data[0]).toMatchObject({ object: 'station', is_active: true, name: 'Kitchen' });
    });

    it('adds and deactivates a station, refusing while active categories use it', async () => {
      const s = await hub.api.post('/v1/stations', { key: 'wok', name: 'Wok' });
      expect(s.status).toBe(201);
      const cat = (await hub.api.post('/v1/menu_categories', { name: 'Noodles', station: 'wok' })).body.id;
      await refused(hub.api.delete('/v1/stations/wok'), 409, 'resource_conflict', 'is_active');
      await hub.api.patch(`/v1/menu_categories/${cat}`, { station: 'kitchen' });
      const off = await hub.api.delete('/v1/stations/wok');
      expect(off.body).toMatchObject({ key: 'wok', is_active: false });
      await refused(hub.api.patch(`/v1/menu_categories/${cat}`, { station: 'wok' }), 400, 'unknown_station', 'station');
    });

    it.each([
      ['a duplicate key', { key: 'kitchen' }, 409, 'resource_conflict'],
      ['an invalid key', { key: 'Big Grill!' }, 400, 'parameter_invalid'],
      ['a missing key', { name: 'x' }, 400, 'parameter_missing'],
      ['a 300-character name', { key: 'ok', name: long }, 400, 'parameter_invalid'],
    ])('refuses %s', async (_l, body, status, code) => {
      await refused(hub.api.post('/v1/stations', body), status, code);
    });

    it('does not resolve another restaurant\'s station', async () => {
      const theirs = await hub.server.services.db.selectFrom('stations').select('id').where('restaurant_id', '!=', hub.restaurant.id).executeTakeFirstOrThrow();
      await refused(hub.api.get(`/v1/stations/${theirs.id}`), 404, 'resource_missing');
      await refused(hub.api.patch(`/v1/stations/${theirs.id}`, { name: 'x' }), 404, 'resource_missing');
    });
  });

  describe('settings', () => {
    it('reads and patches only the fields sent', async () => {
      const before = (await hub.api.get('/v1/settings')).body;
      expect(before).toMatchObject({ object: 'settings', timezone: 'Europe/Berlin', currency: 'eur', slot_duration_minutes: 30 });
      const r = await hub.api.patch('/v1/settings', { opening_hours: { friday: [{ open: '18:00', close: '02:00' }] }, waitlist: { enabled: true } });
      expect(r.status).toBe(200);
      expect(r.body.opening_hours).toEqual({ friday: [{ open: '18:00', close: '02:00' }] });
      expect(r.body.waitlist).toMatchObject({ enabled: true, max_party_size: before.waitlist.max_party_size });
      expect(r.body.timezone).toBe('Europe/Berlin');
    });

    it.each([
      ['an unknown timezone', { timezone: 'Mars/Olympus' }, 'timezone'],
      ['a currency in capitals', { currency: 'EUR' }, 'currency'],
      ['tax 1.5', { default_tax_rate: 1.5 }, 'default_tax_rate'],
      ['25:00', { opening_hours: { monday: [{ open: '25:00', close: '26:00' }] } }, 'opening_hours.monday[0].open'],
      ['a made-up weekday', { opening_hours: { funday: [] } }, 'opening_hours.funday', 'parameter_unknown'],
      ['2026-02-30', { closed_dates: ['2026-02-30'] }, 'closed_dates[0]'],
    ])('refuses %s', async (_l, body, param, code = 'parameter_invalid') => {
      await refused(hub.api.patch('/v1/settings', body), 400, code, param);
    });
  });
});
