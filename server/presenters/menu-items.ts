import type { Selectable } from 'kysely';
import { z } from 'zod';
import type { MenuItemsTable } from '../db/tables/menu-items.table.ts';
import { named, ref, Translations, unix } from '../model/schemas.ts';
import { MenuCategorySchema } from './menu-categories.ts';
import { ModifierGroupSchema } from './modifier-groups.ts';

export const MenuItemSchema = named(
  'MenuItem',
  z.object({
    id: z.string(),
    object: z.literal('menu_item'),
    created: unix(),
    updated: unix(),
    name: z.string(),
    description: z.string().nullable(),
    category: ref(MenuCategorySchema),
    price: z.number().int(),
    cost: z.number().int().nullable(),
    sku: z.string().nullable(),
    image_url: z.string().nullable(),
    is_active: z.boolean(),
    is_available: z.boolean(),
    preparation_time_minutes: z.number().int().nullable(),
    nutrition: z.record(z.string(), z.number()).nullable(),
    allergens: z.array(z.string()),
    tags: z.array(z.string()),
    modifier_groups: z.array(ref(ModifierGroupSchema)),
    sort_order: z.number().int(),
    /** the station its lines go to; null: its category's */
    station: z.string().nullable(),
    tax_rate: z.number().nullable(),
    translations: Translations,
  }),
);
export type MenuItem = z.output<typeof MenuItemSchema>;

export function presentMenuItem(row: Selectable<MenuItemsTable>): MenuItem {
  return {
    id: row.id,
    object: 'menu_item',
    created: row.created,
    updated: row.updated,
    name: row.name,
    description: row.description,
    category: row.category_id,
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
    modifier_groups: JSON.parse(row.modifier_group_ids) as string[],
    sort_order: row.sort_order,
    station: row.station ?? null,
    tax_rate: row.tax_rate,
    translations: JSON.parse(row.translations) as MenuItem['translations'],
  };
}
