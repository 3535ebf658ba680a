import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateCategory, createCategory } from '../../server/domain/menu/categories.ts';
import { createMenuItem } from '../../server/domain/menu/items.ts';
import { deleteModifierGroup } from '../../server/domain/menu/modifier-groups.ts';
import { updateStation } from '../../server/domain/menu/stations.ts';
import { DIALECTS } from '../helpers/db.ts';
import { raceOnPostgres } from '../helpers/race.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/**
 * Two menu writes at once on PostgreSQL, each checking the menu before it writes (the hub's
 * SQLite runs one unit of work at a time): the second must check against the first's result.
 */
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`menu writes at the same moment on ${dialect}`, () => {
    let hub: TestHub;
    beforeAll(async () => {
      hub = await startHub(dialect);
    });
    afterAll(() => hub?.close());
    const actor = () => ({ restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() });
    const race = (first: Parameters<typeof raceOnPostgres>[1], second: Parameters<typeof raceOnPostgres>[2]) =>
      raceOnPostgres(hub.server.services.db, first, second);

    it('two categories made each other’s parent at once: the second is refused, no loop', async () => {
      const a = (await hub.api.post('/v1/menu_categories', { name: 'A' })).body.id;
      const b = (await hub.api.post('/v1/menu_categories', { name: 'B' })).body.id;
      const outcome = await race(
        (trx) => updateCategory(trx, actor(), a, { parent_category: b }),
        (trx) => updateCategory(trx, actor(), b, { parent_category: a }),
      );
      expect(outcome).toMatchObject({ status: 400 });
      expect((await hub.api.get(`/v1/menu_categories/${b}`)).body.parent_category).toBeNull();
    });

    it('a station switched off while a category is made on it: the category is refused', async () => {
      expect((await hub.api.post('/v1/stations', { key: 'smoker' })).status).toBe(201);
      const outcome = await race(
        (trx) => updateStation(trx, actor(), 'smoker', { is_active: false }),
        (trx) => createCategory(trx, actor(), { name: 'Smoked', station: 'smoker' }),
      );
      expect(outcome).toMatchObject({ code: 'unknown_station' });
    });

    it('a modifier group deleted while an item is made with it: the item is refused', async () => {
      const cat = (await hub.api.post('/v1/menu_categories', { name: 'Burgers' })).body.id;
      const group = (await hub.api.post('/v1/modifier_groups', { name: 'Cheese', modifiers: [{ name: 'Cheddar', price_adjustment: 100 }] })).body.id;
      const outcome = await race(
        (trx) => deleteModifierGroup(trx, actor(), group),
        (trx) => createMenuItem(trx, actor(), { name: 'Burger', category: cat, price: 1200, modifier_groups: [group] }),
      );
      expect(outcome).toMatchObject({ status: 404 });
      const items = await hub.server.services.db.selectFrom('menu_items').select('modifier_group_ids').where('name', '=', 'Burger').execute();
      expect(items).toEqual([]);
    });
  });
}
