import type { Selectable } from 'kysely';
import type { Executor } from '../../db/records.ts';
import type { MenuCategoriesTable } from '../../db/tables/menu-categories.table.ts';
import type { MenuItemsTable } from '../../db/tables/menu-items.table.ts';
import type { ModifierGroupsTable } from '../../db/tables/modifier-groups.table.ts';
import { perDatabase } from '../../db/versioned-cache.ts';
import { versionsOf } from '../../db/versions.ts';
import { getRestaurant } from '../restaurants/restaurants.ts';
import { readSettings } from '../../model/settings.ts';
import type { Modifier } from '../../model/menu.ts';

/** The tables a menu is made of: a cached menu stays valid until one of them changes. */
export const MENU_TABLES = ['menu_items', 'menu_categories', 'modifier_groups'] as const;
const CATALOGUE_TABLES = [...MENU_TABLES, 'restaurants'] as const;

export type CatalogueItem = Selectable<MenuItemsTable> & { station: string | null };
export type CatalogueGroup = Selectable<ModifierGroupsTable> & { list: Modifier[] };

/** Everything an order is priced from, as one restaurant's records say now. Read-only. */
export interface Catalogue {
  restaurant: Awaited<ReturnType<typeof getRestaurant>>;
  items: Map<string, CatalogueItem>;
  groups: Map<string, CatalogueGroup>;
  categories: Map<string, Selectable<MenuCategoriesTable>>;
  /** the restaurant's `prices_include_tax` setting */
  pricesIncludeTax: boolean;
}

async function load(db: Executor, restaurantId: string): Promise<Catalogue> {
  const [restaurant, categories, items, groups] = await Promise.all([
    getRestaurant(db, restaurantId),
    db.selectFrom('menu_categories').selectAll().where('restaurant_id', '=', restaurantId).execute(),
    db.selectFrom('menu_items').selectAll().where('restaurant_id', '=', restaurantId).execute(),
    db.selectFrom('modifier_groups').selectAll().where('restaurant_id', '=', restaurantId).execute(),
  ]);
  const catById = new Map(categories.map((c) => [c.id, c]));
  return {
    restaurant,
    pricesIncludeTax: readSettings(restaurant).prices_include_tax,
    categories: catById,
    // A line goes to its item's own station, else to its category's.
    items: new Map(items.map((i) => [i.id, { ...i, station: i.station ?? catById.get(i.category_id)?.station ?? null }])),
    groups: new Map(groups.map((g) => [g.id, { ...g, list: JSON.parse(g.modifiers) as Modifier[] }])),
  };
}

const catalogues = perDatabase<Catalogue>(64);

/**
 * Orders are priced far more often than the menu changes: the whole catalogue of a
 * restaurant is read once per version of its menu and settings and then served from memory,
 * inside the order's own transaction (a menu change in the same unit of work counts).
 */
export function catalogueOf(db: Executor, restaurantId: string): Promise<Catalogue> {
  return catalogues(versionsOf(db)).through(db, restaurantId, restaurantId, () => load(db, restaurantId), CATALOGUE_TABLES);
}
