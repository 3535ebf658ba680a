import type { Executor } from '../../db/records.ts';
import { lockMenu } from './lock.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, normalizeCategoryId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import { findCategory } from './categories.ts';
import { assertActiveStation } from './stations.ts';

export interface MenuItemInput {
  name: string;
  category: string;
  price: number;
  description?: string | null;
  cost?: number | null;
  sku?: string | null;
  image_url?: string | null;
  is_active?: boolean;
  is_available?: boolean;
  preparation_time_minutes?: number | null;
  nutrition?: Record<string, number> | null;
  allergens?: string[];
  tags?: string[];
  modifier_groups?: string[];
  sort_order?: number;
  station?: string | null;
  tax_rate?: number | null;
  translations?: Record<string, unknown>;
}

export async function findMenuItem(db: Executor, restaurantId: string, id: string) {
  return db.selectFrom('menu_items').selectAll().where('restaurant_id', '=', restaurantId).where('id', '=', id).executeTakeFirst();
}

async function checkCategory(db: Executor, restaurantId: string, id: string, param = 'category') {
  const cat = await findCategory(db, restaurantId, id);
  if (!cat) throw notFound('menu category', id, param);
  if (!cat.is_active) throw new ApiError('parameter_invalid', `Menu category '${id}' is inactive.`, param);
  return cat;
}

async function checkModifierGroups(db: Executor, restaurantId: string, ids: string[]) {
  if (new Set(ids).size !== ids.length) {
    throw new ApiError('parameter_invalid', 'modifier_groups lists the same group twice.', 'modifier_groups');
  }
  if (ids.length === 0) return;
  const found = await db
    .selectFrom('modifier_groups')
    .select('id')
    .where('restaurant_id', '=', restaurantId)
    .where('id', 'in', ids)
    .execute();
  const have = new Set(found.map((r) => r.id));
  const missing = ids.find((id) => !have.has(id));
  if (missing) throw notFound('modifier group', missing, 'modifier_groups');
}

export async function createMenuItem(trx: Executor, actor: Actor, input: MenuItemInput) {
  await lockMenu(trx, actor.restaurantId);
  const cat = await checkCategory(trx, actor.restaurantId, input.category);
  await checkModifierGroups(trx, actor.restaurantId, input.modifier_groups ?? []);
  if (input.station) await assertActiveStation(trx, actor.restaurantId, input.station);
  const now = seconds(actor);
  return insertRecord(trx, 'menu_items', {
    id: newId(PREFIXES.menuItem, actor.now),
    restaurant_id: actor.restaurantId,
    category_id: cat.id,
    name: input.name,
    description: input.description || null,
    price: input.price,
    cost: input.cost ?? null,
    sku: input.sku || null,
    image_url: input.image_url || null,
    is_active: input.is_active === false ? 0 : 1,
    is_available: input.is_available === false ? 0 : 1,
    preparation_time_minutes: input.preparation_time_minutes ?? null,
    nutrition: input.nutrition ? JSON.stringify(input.nutrition) : null,
    allergens: JSON.stringify(input.allergens ?? []),
    tags: JSON.stringify(input.tags ?? []),
    modifier_group_ids: JSON.stringify(input.modifier_groups ?? []),
    sort_order: input.sort_order ?? 0,
    station: input.station ?? null,
    tax_rate: input.tax_rate ?? null,
    translations: JSON.stringify(input.translations ?? {}),
    created: now,
    updated: now,
  });
}

export async function updateMenuItem(trx: Executor, actor: Actor, id: string, input: Partial<MenuItemInput>) {
  await lockMenu(trx, actor.restaurantId);
  const current = await findMenuItem(trx, actor.restaurantId, id);
  if (!current) throw notFound('menu item', id);
  const patch: Record<string, unknown> = { updated: seconds(actor) };
  if (input.category !== undefined && normalizeCategoryId(input.category) !== current.category_id) {
    patch.category_id = (await checkCategory(trx, actor.restaurantId, input.category)).id;
  } else if (input.is_active === true && current.is_active !== 1) {
    // Switching an item back on needs an active category, as creating one there does.
    await checkCategory(trx, actor.restaurantId, current.category_id, 'is_active');
  }
  if (input.modifier_groups !== undefined) {
    await checkModifierGroups(trx, actor.restaurantId, input.modifier_groups);
    patch.modifier_group_ids = JSON.stringify(input.modifier_groups);
  }
  if (input.station !== undefined && input.station !== current.station) {
    // its own station must take tickets; null hands the item back to its category's station
    if (input.station !== null) await assertActiveStation(trx, actor.restaurantId, input.station);
    patch.station = input.station;
  }
  const plain = ['name', 'price', 'cost', 'preparation_time_minutes', 'sort_order', 'tax_rate'] as const;
  for (const k of plain) if (input[k] !== undefined) patch[k] = input[k];
  const nullable = ['description', 'sku', 'image_url'] as const;
  for (const k of nullable) if (input[k] !== undefined) patch[k] = input[k] || null;
  if (input.is_active !== undefined) patch.is_active = input.is_active ? 1 : 0;
  if (input.is_available !== undefined) patch.is_available = input.is_available ? 1 : 0;
  if (input.nutrition !== undefined) patch.nutrition = input.nutrition ? JSON.stringify(input.nutrition) : null;
  if (input.allergens !== undefined) patch.allergens = JSON.stringify(input.allergens);
  if (input.tags !== undefined) patch.tags = JSON.stringify(input.tags);
  if (input.translations !== undefined) patch.translations = JSON.stringify(input.translations);
  return (await updateRecord(trx, 'menu_items', current, patch))!;
}

/** Soft delete: historical orders keep referencing the item. */
export async function deactivateMenuItem(trx: Executor, actor: Actor, id: string) {
  await lockMenu(trx, actor.restaurantId);
  return updateMenuItem(trx, actor, id, { is_active: false });
}
