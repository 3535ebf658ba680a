import type { Executor } from '../../db/records.ts';
import { lockMenu } from './lock.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { WEEKDAYS, type Weekday } from '../../model/weekdays.ts';
import { newId, normalizeCategoryId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import { assertActiveStation } from './stations.ts';

export interface CategoryInput {
  name: string;
  description?: string | null;
  parent_category?: string | null;
  sort_order?: number;
  station?: string;
  image_url?: string | null;
  available_from?: string | null;
  available_until?: string | null;
  available_days?: Weekday[];
  translations?: Record<string, unknown>;
  is_active?: boolean;
}

export async function findCategory(db: Executor, restaurantId: string, id: string) {
  return db
    .selectFrom('menu_categories')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where('id', '=', normalizeCategoryId(id))
    .executeTakeFirst();
}

/** How many ancestors a category may have: a root is at depth 0, its child at depth 1, … */
export const MAX_CATEGORY_DEPTH = 16;

const tooDeep = () =>
  new ApiError('parameter_invalid', `Categories nest at most ${MAX_CATEGORY_DEPTH} levels deep.`, 'parent_category');

/**
 * A parent must exist here, a category may not become its own ancestor, and no category of
 * the branch placed under the parent (just the new one on create; on a move, the moved
 * category and everything below it) may end up more than MAX_CATEGORY_DEPTH levels deep.
 */
async function checkParent(db: Executor, restaurantId: string, selfId: string | null, parentId: string) {
  const parent = normalizeCategoryId(parentId);
  const branch = selfId ? await branchOf(db, restaurantId, selfId) : { ids: new Set<string>(), height: 0 };
  if (parent === selfId || branch.ids.has(parent)) {
    throw new ApiError('parameter_invalid', 'A category cannot be nested inside itself.', 'parent_category');
  }
  let cursor: string | null = parent;
  // `depth` is the depth the branch's top gets if `cursor` is the root.
  for (let depth = 1; cursor; depth++) {
    if (cursor === selfId) {
      throw new ApiError('parameter_invalid', 'A category cannot be nested inside itself.', 'parent_category');
    }
    const row = await findCategory(db, restaurantId, cursor);
    if (!row) throw notFound('menu category', parentId, 'parent_category');
    if (depth + branch.height > MAX_CATEGORY_DEPTH) throw tooDeep();
    cursor = row.parent_category_id;
  }
}

/**
 * The categories below `id` and how many levels they span (0 for a leaf), followed at most
 * one level past the limit.
 */
async function branchOf(db: Executor, restaurantId: string, id: string) {
  const ids = new Set<string>();
  let level = [id];
  let height = 0;
  while (height <= MAX_CATEGORY_DEPTH) {
    const rows = await db
      .selectFrom('menu_categories')
      .select('id')
      .where('restaurant_id', '=', restaurantId)
      .where('parent_category_id', 'in', level)
      .execute();
    level = rows.map((r) => r.id).filter((c) => c !== id && !ids.has(c));
    if (level.length === 0) break;
    for (const c of level) ids.add(c);
    height++;
  }
  return { ids, height };
}

export async function createCategory(trx: Executor, actor: Actor, input: CategoryInput) {
  await lockMenu(trx, actor.restaurantId);
  const station = input.station ?? 'kitchen';
  await assertActiveStation(trx, actor.restaurantId, station);
  if (input.parent_category) await checkParent(trx, actor.restaurantId, null, input.parent_category);
  const now = seconds(actor);
  return insertRecord(trx, 'menu_categories', {
    id: newId(PREFIXES.menuCategory, actor.now),
    restaurant_id: actor.restaurantId,
    name: input.name,
    description: input.description || null,
    parent_category_id: input.parent_category ? normalizeCategoryId(input.parent_category) : null,
    sort_order: input.sort_order ?? 0,
    is_active: input.is_active === false ? 0 : 1,
    station,
    image_url: input.image_url || null,
    available_from: input.available_from ?? null,
    available_until: input.available_until ?? null,
    available_days: JSON.stringify(input.available_days ?? WEEKDAYS),
    translations: JSON.stringify(input.translations ?? {}),
    created: now,
    updated: now,
  });
}

export async function updateCategory(trx: Executor, actor: Actor, id: string, input: Partial<CategoryInput>) {
  await lockMenu(trx, actor.restaurantId);
  const current = await findCategory(trx, actor.restaurantId, id);
  if (!current) throw notFound('menu category', id);
  // An active category must route to an active station: check it when the station changes,
  // and whenever the result is active and either the station was sent or the category is
  // being switched back on (its station may have been turned off meanwhile).
  const station = input.station ?? current.station;
  const willBeActive = input.is_active ?? current.is_active === 1;
  const reactivating = input.is_active === true && current.is_active !== 1;
  if (station !== current.station || (willBeActive && (reactivating || input.station !== undefined))) {
    await assertActiveStation(trx, actor.restaurantId, station);
  }
  if (input.parent_category) await checkParent(trx, actor.restaurantId, current.id, input.parent_category);
  const patch: Record<string, unknown> = { updated: seconds(actor) };
  if (input.name !== undefined) patch.name = input.name;
  if (input.description !== undefined) patch.description = input.description || null;
  if (input.parent_category !== undefined)
    patch.parent_category_id = input.parent_category ? normalizeCategoryId(input.parent_category) : null;
  if (input.sort_order !== undefined) patch.sort_order = input.sort_order;
  if (input.station !== undefined) patch.station = input.station;
  if (input.image_url !== undefined) patch.image_url = input.image_url || null;
  if (input.available_from !== undefined) patch.available_from = input.available_from;
  if (input.available_until !== undefined) patch.available_until = input.available_until;
  if (input.available_days !== undefined) patch.available_days = JSON.stringify(input.available_days);
  if (input.translations !== undefined) patch.translations = JSON.stringify(input.translations);
  if (input.is_active !== undefined) patch.is_active = input.is_active ? 1 : 0;
  return (await updateRecord(trx, 'menu_categories', current, patch))!;
}

/** Soft delete: orders and items keep pointing at it. */
export async function deactivateCategory(trx: Executor, actor: Actor, id: string) {
  await lockMenu(trx, actor.restaurantId);
  return updateCategory(trx, actor, id, { is_active: false });
}
