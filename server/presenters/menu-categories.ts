import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { MenuCategoriesTable } from '../db/tables/menu-categories.table.ts';
import { named, Translations, unix } from '../model/schemas.ts';

export const MenuCategorySchema = named(
  'MenuCategory',
  z.object({
    id: z.string(),
    object: z.literal('menu_category'),
    created: unix(),
    updated: unix(),
    name: z.string(),
    description: z.string().nullable(),
    /** the parent's id, or the parent itself with expand=parent_category */
    get parent_category() {
      return z.union([z.string(), MenuCategorySchema]).nullable();
    },
    sort_order: z.number().int(),
    is_active: z.boolean(),
    station: z.string(),
    image_url: z.string().nullable(),
    available_from: z.string().nullable(),
    available_until: z.string().nullable(),
    available_days: z.array(z.string()),
    translations: Translations,
  }),
);
export type MenuCategory = z.output<typeof MenuCategorySchema>;

export function presentCategory(row: Selectable<MenuCategoriesTable>): MenuCategory {
  return {
    id: row.id,
    object: 'menu_category',
    created: row.created,
    updated: row.updated,
    name: row.name,
    description: row.description,
    parent_category: row.parent_category_id,
    sort_order: row.sort_order,
    is_active: row.is_active === 1,
    station: row.station,
    image_url: row.image_url,
    available_from: row.available_from,
    available_until: row.available_until,
    available_days: JSON.parse(row.available_days) as string[],
    translations: JSON.parse(row.translations) as MenuCategory['translations'],
  };
}
