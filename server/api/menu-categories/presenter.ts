import type { Selectable } from 'kysely';
import type { MenuCategoriesTable } from '../../db/tables/menu-categories.table.ts';

export function presentCategory(row: Selectable<MenuCategoriesTable>) {
  return {
    id: row.id,
    object: 'menu_category' as const,
    created: row.created,
    updated: row.updated,
    name: row.name,
    description: row.description,
    parent_category: row.parent_category_id as string | object | null,
    sort_order: row.sort_order,
    is_active: row.is_active === 1,
    station: row.station,
    image_url: row.image_url,
    available_from: row.available_from,
    available_until: row.available_until,
    available_days: JSON.parse(row.available_days) as string[],
    translations: JSON.parse(row.translations) as Record<string, unknown>,
  };
}
