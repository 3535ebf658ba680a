import type { ReportContext } from './context.ts';
import { fromMilli } from '../../model/inventory.ts';

/** Stock value in cents: Σ quantity × unit cost, exact, rounded half up to the cent once. */
export function stockValue(items: { quantity_milli: number; unit_cost: number }[]): number {
  const milliCents = items.reduce((n, i) => n + BigInt(i.quantity_milli) * BigInt(i.unit_cost), 0n);
  return Number((milliCents + 500n) / 1000n);
}

export async function inventoryReport(ctx: ReportContext) {
  const items = await ctx.db
    .selectFrom('inventory_items')
    .selectAll()
    .where('restaurant_id', '=', ctx.restaurantId)
    .orderBy('name')
    .orderBy('id')
    .execute();
  return {
    object: 'analytics.inventory' as const,
    low_stock_items: items
      .filter((i) => Number(i.quantity_milli) <= Number(i.reorder_level_milli))
      .map((i) => ({
        id: i.id,
        name: i.name,
        sku: i.sku,
        unit: i.unit,
        quantity: fromMilli(i.quantity_milli),
        reorder_level: fromMilli(i.reorder_level_milli),
        unit_cost: Number(i.unit_cost),
      })),
    total_value: stockValue(items),
    item_count: items.length,
  };
}
