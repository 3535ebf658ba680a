import { describe, expect, it } from 'vitest';
import { orderContext } from '../../server/api/orders/context.ts';
import { updateMenuItem } from '../../server/domain/menu/items.ts';
import { createOrder } from '../../server/domain/orders/create-order.ts';
import { DIALECTS } from '../helpers/db.ts';
import type { TestHub } from '../helpers/server.ts';
import { hubWithMenu, type Menu } from './fixtures.ts';

/**
 * Orders are priced from a catalogue cached per menu version. On the hub, units of work that
 * arrive together share one transaction (group commit): a menu change earlier in the group
 * must price the orders after it, and a change that rolled back must never price anything.
 */
describe.each(DIALECTS)('the pricing catalogue among concurrent units of work on %s', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  hubWithMenu(dialect, (t) => ({ hub, menu } = t));

  const actor = () => ({ restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() });
  const order = () =>
    hub.server.services.tx.run((trx) =>
      createOrder(trx, actor(), orderContext(hub.server.services), { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }], source: 'api', status: 'draft' }),
    );
  const setPrice = (price: number) => hub.server.services.tx.run((trx) => updateMenuItem(trx, actor(), menu.water, { price }));

  it('prices each order from the menu as the units before it left it, never from a change that rolled back', async () => {
    // the catalogue is cached at the current price first
    expect((await order()).items[0].unit_price).toBe(333);
    const [, first, , , second] = await Promise.allSettled([
      setPrice(400),
      order(),
      // prices an order at 999 inside its unit, then rolls back: the catalogue it cached names
      // a change-log position the next unit's menu change takes again
      hub.server.services.tx.run(async (trx) => {
        await updateMenuItem(trx, actor(), menu.water, { price: 999 });
        const o = await createOrder(trx, actor(), orderContext(hub.server.services), { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }], source: 'api', status: 'draft' });
        expect(o.items[0].unit_price).toBe(999);
        throw new Error('changed my mind');
      }),
      setPrice(450),
      order(),
    ]);
    const prices = [first, second].map((r) => (r.status === 'fulfilled' ? (r.value as Awaited<ReturnType<typeof order>>).items[0].unit_price : r.reason));
    // the rolled-back 999 never priced an order, whatever ran side by side
    expect(prices.every((p) => [333, 400, 450].includes(p))).toBe(true);
    // the hub runs the units of a group in arrival order: each order sees the changes before it
    if (dialect === 'sqlite') expect(prices).toEqual([400, 450]);
    expect((await order()).items[0].unit_price).toBe(450);
  });
});
