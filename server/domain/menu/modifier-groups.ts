import type { Executor } from '../../db/records.ts';
import { lockMenu } from './lock.ts';
import { deleteRecord, insertRecord, updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import type { Modifier } from '../../model/menu.ts';

export interface ModifierInput {
  name: string;
  price_adjustment?: number;
  is_default?: boolean;
  is_available?: boolean;
  sort_order?: number;
}

export interface ModifierGroupInput {
  name: string;
  required?: boolean;
  min_selections?: number;
  max_selections?: number;
  modifiers?: ModifierInput[];
}

export function normalizeModifiers(list: ModifierInput[]): Modifier[] {
  const names = new Set<string>();
  return list.map((m, i) => {
    const key = m.name.toLowerCase();
    if (names.has(key)) {
      throw new ApiError('parameter_invalid', `Modifier names must be unique in a group ('${m.name}' twice).`, `modifiers[${i}].name`);
    }
    names.add(key);
    return {
      name: m.name,
      price_adjustment: m.price_adjustment ?? 0,
      is_default: m.is_default ?? false,
      is_available: m.is_available ?? true,
      sort_order: m.sort_order ?? i,
    };
  });
}

/**
 * Selection bounds, decided once: `required` means at least one pick, so min_selections
 * becomes at least 1; max_selections defaults to the number of modifiers (pick any).
 */
export function resolveBounds(required: boolean, min: number | undefined, max: number | undefined, count: number) {
  const minSel = Math.max(min ?? 0, required ? 1 : 0);
  const maxSel = max ?? Math.max(count, minSel, 1);
  if (maxSel < minSel) {
    throw new ApiError('parameter_invalid', 'max_selections must be at least min_selections.', 'max_selections');
  }
  if (minSel > count) {
    throw new ApiError('parameter_invalid', `min_selections (${minSel}) is more than the ${count} modifiers offered.`, 'min_selections');
  }
  return { min_selections: minSel, max_selections: maxSel };
}

export async function findModifierGroup(db: Executor, restaurantId: string, id: string) {
  return db
    .selectFrom('modifier_groups')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function createModifierGroup(trx: Executor, actor: Actor, input: ModifierGroupInput) {
  await lockMenu(trx, actor.restaurantId);
  const modifiers = normalizeModifiers(input.modifiers ?? []);
  const required = input.required ?? false;
  const bounds = resolveBounds(required, input.min_selections, input.max_selections, modifiers.length);
  const now = seconds(actor);
  return insertRecord(trx, 'modifier_groups', {
    id: newId(PREFIXES.modifierGroup, actor.now),
    restaurant_id: actor.restaurantId,
    name: input.name,
    required: required ? 1 : 0,
    ...bounds,
    modifiers: JSON.stringify(modifiers),
    created: now,
    updated: now,
  });
}

/** One update reaches every item using the group: items hold the group's id, not a copy. */
export async function updateModifierGroup(trx: Executor, actor: Actor, id: string, input: Partial<ModifierGroupInput>) {
  await lockMenu(trx, actor.restaurantId);
  const current = await findModifierGroup(trx, actor.restaurantId, id);
  if (!current) throw notFound('modifier group', id);
  const modifiers = input.modifiers ? normalizeModifiers(input.modifiers) : (JSON.parse(current.modifiers) as Modifier[]);
  const required = input.required ?? current.required === 1;
  // Bounds are re-derived from what is sent and what stays, so they can never contradict.
  const bounds = resolveBounds(
    required,
    input.min_selections ?? (input.required !== undefined || input.modifiers ? undefined : current.min_selections),
    input.max_selections ?? (input.modifiers ? undefined : current.max_selections),
    modifiers.length,
  );
  return (await updateRecord(trx, 'modifier_groups', current, {
    ...(input.name !== undefined && { name: input.name }),
    required: required ? 1 : 0,
    ...bounds,
    modifiers: JSON.stringify(modifiers),
    updated: seconds(actor),
  }))!;
}

/** Truly deletes the group and takes it off every menu item that listed it. */
export async function deleteModifierGroup(trx: Executor, actor: Actor, id: string) {
  await lockMenu(trx, actor.restaurantId);
  const group = await findModifierGroup(trx, actor.restaurantId, id);
  if (!group) throw notFound('modifier group', id);
  const users = await trx
    .selectFrom('menu_items')
    .select(['id', 'restaurant_id', 'modifier_group_ids'])
    .where('restaurant_id', '=', actor.restaurantId)
    .where('modifier_group_ids', 'like', `%"${id}"%`)
    .execute();
  const removedFrom: string[] = [];
  for (const item of users) {
    const ids = (JSON.parse(item.modifier_group_ids) as string[]).filter((g) => g !== id);
    await updateRecord(trx, 'menu_items', item, { modifier_group_ids: JSON.stringify(ids), updated: seconds(actor) });
    removedFrom.push(item.id);
  }
  await deleteRecord(trx, 'modifier_groups', group);
  return { group, removedFrom };
}
