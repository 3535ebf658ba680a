import type { Selectable } from 'kysely';
import type { InventoryItemsTable } from '../../db/tables/inventory-items.table.ts';
import { fromMilli } from '../../domain/analytics/inventory.ts';

export function presentInventoryItem(row: Selectable<InventoryItemsTable>) {
  return {
    id: row.id,
    object: 'inventory_item' as const,
    created: row.created,
    updated: row.updated,
    name: row.name,
    sku: row.sku,
    unit: row.unit,
    quantity: fromMilli(row.quantity_milli),
    unit_cost: Number(row.unit_cost),
    reorder_level: fromMilli(row.reorder_level_milli),
    /** at or below the reorder level */
    low_stock: Number(row.quantity_milli) <= Number(row.reorder_level_milli),
  };
}
