import type { Kysely } from 'kysely';

type Entry = [menuItemId: string, quantity: number, revenue: number];

const BATCH = 500;

/**
 * The product mix and Menu ABC count lines net of voids and comps since this change
 * (domain/analytics/rules.ts): a voided line nowhere, a line at its subtotal less its own
 * discount (a comp at 0). The roll-ups kept before counted such lines at their list price: each
 * counted order that has a voided or discounted line gets its item figures made again from its
 * lines, and the per-item day totals move by the difference. Only those orders are read. The
 * rule is written out here, since a migration never changes and the domain's rule may.
 */
export async function up(db: Kysely<any>): Promise<void> {
  let after = '';
  for (;;) {
    const facts: { order_id: string; restaurant_id: string; day: string; items: string }[] = await db
      .selectFrom('analytics_order_facts as f')
      .select(['f.order_id', 'f.restaurant_id', 'f.day', 'f.items'])
      .where('f.order_id', '>', after)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('order_items as l')
            .select('l.id')
            .whereRef('l.order_id', '=', 'f.order_id')
            .where((o) => o.or([o('l.voided_at', 'is not', null), o('l.discount_amount', '>', 0)])),
        ),
      )
      .orderBy('f.order_id')
      .limit(BATCH)
      .execute();
    if (facts.length === 0) return;
    after = facts[facts.length - 1].order_id;
    const lines: { order_id: string; menu_item_id: string; quantity: number; line_subtotal: number; discount_amount: number; voided_at: number | null }[] = await db
      .selectFrom('order_items')
      .select(['order_id', 'menu_item_id', 'quantity', 'line_subtotal', 'discount_amount', 'voided_at'])
      .where(
        'order_id',
        'in',
        facts.map((f) => f.order_id),
      )
      .execute();
    const sold = new Map<string, Map<string, Entry>>();
    for (const l of lines) {
      if (l.voided_at !== null) continue;
      const items = sold.get(l.order_id) ?? new Map<string, Entry>();
      const e = items.get(l.menu_item_id) ?? [l.menu_item_id, 0, 0];
      e[1] += Number(l.quantity);
      e[2] += Number(l.line_subtotal) - Number(l.discount_amount);
      items.set(l.menu_item_id, e);
      sold.set(l.order_id, items);
    }
    for (const f of facts) {
      const before = JSON.parse(f.items) as Entry[];
      const now = [...(sold.get(f.order_id)?.values() ?? [])].sort((a, b) => (a[0] < b[0] ? -1 : 1));
      if (JSON.stringify(before) === JSON.stringify(now)) continue;
      await db.updateTable('analytics_order_facts').set({ items: JSON.stringify(now) }).where('order_id', '=', f.order_id).execute();
      const was = new Map(before.map((e) => [e[0], e]));
      const is = new Map(now.map((e) => [e[0], e]));
      for (const id of new Set([...was.keys(), ...is.keys()])) {
        const [a, b] = [was.get(id), is.get(id)];
        const quantity = (b?.[1] ?? 0) - (a?.[1] ?? 0);
        const revenue = (b?.[2] ?? 0) - (a?.[2] ?? 0);
        const orders = (b ? 1 : 0) - (a ? 1 : 0);
        if (quantity === 0 && revenue === 0 && orders === 0) continue;
        await db
          .updateTable('analytics_item_daily')
          .set((eb) => ({ quantity: eb('quantity', '+', quantity), revenue: eb('revenue', '+', revenue), orders: eb('orders', '+', orders) }))
          .where('restaurant_id', '=', f.restaurant_id)
          .where('day', '=', f.day)
          .where('menu_item_id', '=', id)
          .execute();
      }
    }
  }
}

/** Nothing to undo: the list-price figures were wrong, and a rebuild makes the same as this. */
export async function down(): Promise<void> {}
