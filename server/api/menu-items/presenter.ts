import type { Selectable } from 'kysely';
import type { MenuItemsTable } from '../../db/tables/menu-items.table.ts';

export function presentMenuItem(row: Selectable<MenuItemsTable>) {
  return {
    id: row.id,
    object: 'menu_item' as const,
    created: row.created,
    updated: row.updated,
    name: row.name,
    description: row.description,
    category: row.category_id as string | object,
    price: row.price,
    cost: row.cost,
    sku: row.sku,
    image_url: row.image_url,
    is_active: row.is_active === 1,
    is_available: row.is_available === 1,
    preparation_time_minutes: row.preparation_time_minutes,
    nutrition: row.nutrition ? (JSON.parse(row.nutrition) as Record<string, number>) : null,
    allergens: JSON.parse(row.allergens) as string[],
    tags: JSON.parse(row.tags) as string[],
    modifier_groups: JSON.parse(row.modifier_group_ids) as (string | object)[],
    sort_order: row.sort_order,
    tax_rate: row.tax_rate,
    translations: JSON.parse(row.translations) as Record<string, unknown>,
  };
}
