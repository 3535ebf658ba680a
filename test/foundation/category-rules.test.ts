import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { categoryAvailable } from '../../server/domain/orders/menu-availability.ts';
import type { WallClock } from '../../server/domain/wall-clock.ts';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('category rules on %s', (dialect) => {
  let hub: TestHub;

  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  /** Runs a refused request and proves no change-log row was written. */
  async function refused(req: Promise<any>, status: number, code: string, param: string | null) {
    const before = await countRows(hub, 'change_log');
    expectError(await req, status, code, param);
    expect(await countRows(hub, 'change_log')).toBe(before);
  }

  /** A chain of `n` categories, each the child of the one before; returns their ids, root first. */
  async function chain(prefix: string, n: number, under?: string) {
    const ids: string[] = [];
    let parent = under;
    for (let i = 0; i < n; i++) {
      const r = await hub.api.post('/v1/menu_categories', { name: `${prefix}${i}`, ...(parent && { parent_category: parent }) });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      parent = r.body.id as string;
      ids.push(parent);
    }
    return ids;
  }

  describe('station of a reactivated category', () => {
    it('refuses to switch a category back on while its station is off', async () => {
      expect((await hub.api.post('/v1/stations', { key: 'grill' })).status).toBe(201);
      const cat = (await hub.api.post('/v1/menu_categories', { name: 'Grill', station: 'grill' })).body.id;
      const item = (await hub.api.post('/v1/menu_items', { name: 'Steak', category: cat, price: 2500 })).body.id;
      expect((await hub.api.delete(`/v1/menu_categories/${cat}`)).status).toBe(200);
      expect((await hub.api.delete('/v1/stations/grill')).body.is_active).toBe(false);

      await refused(hub.api.patch(`/v1/menu_categories/${cat}`, { is_active: true }), 400, 'unknown_station', 'station');
      await refused(hub.api.patch(`/v1/menu_categories/${cat}`, { is_active: true, station: 'grill' }), 400, 'unknown_station', 'station');
      expect((await hub.api.get(`/v1/menu_categories/${cat}`)).body).toMatchObject({ is_active: false, station: 'grill' });

      // Editing it while it stays off is fine; so is switching it on at an active station.
      expect((await hub.api.patch(`/v1/menu_categories/${cat}`, { name: 'Grill (off)' })).status).toBe(200);
      const moved = await hub.api.patch(`/v1/menu_categories/${cat}`, { is_active: true, station: 'kitchen' });
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ is_active: true, station: 'kitchen' });
      const order = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: item, quantity: 1 }] });
      expect(order.status, JSON.stringify(order.body)).toBe(201);
      expect(order.body.items[0].station).toBe('kitchen');
    });

    it('switches a category back on once its station is on again', async () => {
      await hub.api.post('/v1/stations', { key: 'smoker' });
      const cat = (await hub.api.post('/v1/menu_categories', { name: 'Smoked', station: 'smoker' })).body.id;
      await hub.api.delete(`/v1/menu_categories/${cat}`);
      await hub.api.delete('/v1/stations/smoker');
      await refused(hub.api.patch(`/v1/menu_categories/${cat}`, { is_active: true }), 400, 'unknown_station', 'station');
      expect((await hub.api.patch('/v1/stations/smoker', { is_active: true })).status).toBe(200);
      const r = await hub.api.patch(`/v1/menu_categories/${cat}`, { is_active: true });
      expect(r.status).toBe(200);
      expect(r.body).toMatchObject({ is_active: true, station: 'smoker' });
    });
  });

  describe('item reactivated inside an inactive category', () => {
    it('is refused as creating an item there is', async () => {
      const cat = (await hub.api.post('/v1/menu_categories', { name: 'Seasonal' })).body.id;
      const item = (await hub.api.post('/v1/menu_items', { name: 'Pumpkin soup', category: cat, price: 700 })).body.id;
      await hub.api.delete(`/v1/menu_items/${item}`);
      await hub.api.delete(`/v1/menu_categories/${cat}`);

      await refused(hub.api.post('/v1/menu_items', { name: 'Chestnuts', category: cat, price: 500 }), 400, 'parameter_invalid', 'category');
      await refused(hub.api.patch(`/v1/menu_items/${item}`, { is_active: true }), 400, 'parameter_invalid', 'is_active');
      await refused(hub.api.patch(`/v1/menu_items/${item}`, { is_active: true, category: cat }), 400, 'parameter_invalid', 'is_active');
      expect((await hub.api.get(`/v1/menu_items/${item}`)).body.is_active).toBe(false);

      // Other edits of the inactive item still go through, and it comes back with its category.
      expect((await hub.api.patch(`/v1/menu_items/${item}`, { price: 750 })).status).toBe(200);
      expect((await hub.api.patch(`/v1/menu_categories/${cat}`, { is_active: true })).status).toBe(200);
      const back = await hub.api.patch(`/v1/menu_items/${item}`, { is_active: true });
      expect(back.status).toBe(200);
      expect(back.body).toMatchObject({ is_active: true, price: 750 });
    });
  });

  describe('nesting limit', () => {
    it('allows 16 levels below a root on create and refuses a 17th', async () => {
      const ids = await chain('n', 17); // depths 0..16
      await refused(hub.api.post('/v1/menu_categories', { name: 'too deep', parent_category: ids[16] }), 400, 'parameter_invalid', 'parent_category');
    });

    it('refuses a move that puts the moved branch past the limit', async () => {
      const c = await chain('c', 10);
      const d = await chain('d', 10);
      await refused(hub.api.patch(`/v1/menu_categories/${d[0]}`, { parent_category: c[9] }), 400, 'parameter_invalid', 'parent_category');
      // Under c7 (depth 7) d9 would land at depth 17; under c6 it lands exactly on 16.
      await refused(hub.api.patch(`/v1/menu_categories/${d[0]}`, { parent_category: c[7] }), 400, 'parameter_invalid', 'parent_category');
      expect((await hub.api.get(`/v1/menu_categories/${d[0]}`)).body.parent_category).toBeNull();
      const ok = await hub.api.patch(`/v1/menu_categories/${d[0]}`, { parent_category: c[6] });
      expect(ok.status).toBe(200);
      expect(ok.body.parent_category).toBe(c[6]);
      // d9 is now at depth 16: nothing more fits under it.
      await refused(hub.api.post('/v1/menu_categories', { name: 'x', parent_category: d[9] }), 400, 'parameter_invalid', 'parent_category');
    });

    it('counts the deepest path of a branching subtree', async () => {
      const target = await chain('t', 8); // t7 at depth 7
      const [top] = await chain('b', 1);
      await chain('shallow', 2, top);
      await chain('deep', 9, top); // 9 levels below `top`
      // top at depth 8, its deepest descendant at 17
      await refused(hub.api.patch(`/v1/menu_categories/${top}`, { parent_category: target[7] }), 400, 'parameter_invalid', 'parent_category');
      expect((await hub.api.patch(`/v1/menu_categories/${top}`, { parent_category: target[6] })).status).toBe(200);
    });
  });
});

describe('categoryAvailable', () => {
  const at: WallClock = { utcMinute: 0, minute: 12 * 60, today: '2026-03-02', weekday: 'monday', yesterday: '2026-03-01', yesterdayWeekday: 'sunday' };
  const days = JSON.stringify(['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']);
  const cat = (id: string, parent: string | null) => ({
    id,
    is_active: 1,
    parent_category_id: parent,
    available_from: null,
    available_until: null,
    available_days: days,
  });
  const chainMap = (n: number) => {
    const m = new Map<string, ReturnType<typeof cat>>();
    for (let i = 0; i < n; i++) m.set(`c${i}`, cat(`c${i}`, i === 0 ? null : `c${i - 1}`));
    return m;
  };

  it('walks all 16 ancestors of the deepest allowed category, and is false past the limit or in a loop', () => {
    const m = chainMap(17);
    expect(categoryAvailable(m, 'c16', at)).toBe(true);
    m.get('c0')!.is_active = 0;
    expect(categoryAvailable(m, 'c16', at)).toBe(false);
    expect(categoryAvailable(chainMap(18), 'c17', at)).toBe(false);
    expect(categoryAvailable(chainMap(30), 'c29', at)).toBe(false);
    const loop = new Map([
      ['a', cat('a', 'b')],
      ['b', cat('b', 'a')],
    ]);
    expect(categoryAvailable(loop, 'a', at)).toBe(false);
  });
});
