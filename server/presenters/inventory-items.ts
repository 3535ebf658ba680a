import type { Selectable } from 'kysely';
import type { InventoryItemsTable } from '../db/tables/inventory-items.table.ts';
import { fromMilli } from '../model/inventory.ts';
import { z } from 'zod';
import { deletedOf, named, unix } from '../model/schemas.ts';

export const InventoryItemSchema = named(
  'InventoryItem',
  z.object({
    id: z.string(),
    object: z.literal('inventory_item'),
    created: unix(),
    updated: unix(),
    name: z.string(),
    sku: z.string().nullable(),
    unit: z.string(),
    quantity: z.number(),
    unit_cost: z.number().int(),
    reorder_level: z.number(),
    low_stock: z.boolean().describe('at or below the reorder level'),
  }),
);
export type InventoryItem = z.output<typeof InventoryItemSchema>;
export const DeletedInventoryItemSchema = named('DeletedInventoryItem', deletedOf('inventory_item'));

export function presentInventoryItem(row: Selectable<InventoryItemsTable>): InventoryItem {
  return {
    id: row.id,
    object: 'inventory_item',
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
