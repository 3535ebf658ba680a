import type { Executor } from '../../db/records.ts';
import { deleteRecord, insertRecord, updateRecord } from '../../db/records.ts';
import { notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';

export interface InventoryInput {
  name?: string;
  sku?: string | null;
  unit?: string;
  quantity?: number;
  unit_cost?: number;
  reorder_level?: number;
}

const milli = (n: number) => Math.round(n * 1000);

export async function findInventoryItem(db: Executor, restaurantId: string, id: string) {
  return db.selectFrom('inventory_items').selectAll().where('restaurant_id', '=', restaurantId).where('id', '=', id).executeTakeFirst();
}

export async function createInventoryItem(trx: Executor, actor: Actor, input: InventoryInput & { name: string; unit: string; quantity: number; unit_cost: number }) {
  const now = seconds(actor);
  return insertRecord(trx, 'inventory_items', {
    id: newId(PREFIXES.inventoryItem, actor.now),
    restaurant_id: actor.restaurantId,
    name: input.name,
    sku: input.sku || null,
    unit: input.unit,
    quantity_milli: milli(input.quantity),
    unit_cost: input.unit_cost,
    reorder_level_milli: milli(input.reorder_level ?? 0),
    created: now,
    updated: now,
  });
}

export async function updateInventoryItem(trx: Executor, actor: Actor, id: string, input: InventoryInput) {
  const patch: Record<string, unknown> = { updated: seconds(actor) };
  if (input.name !== undefined) patch.name = input.name;
  if (input.sku !== undefined) patch.sku = input.sku || null;
  if (input.unit !== undefined) patch.unit = input.unit;
  if (input.quantity !== undefined) patch.quantity_milli = milli(input.quantity);
  if (input.unit_cost !== undefined) patch.unit_cost = input.unit_cost;
  if (input.reorder_level !== undefined) patch.reorder_level_milli = milli(input.reorder_level);
  const row = await updateRecord(trx, 'inventory_items', { id, restaurant_id: actor.restaurantId }, patch);
  if (!row) throw notFound('inventory item', id);
  return row;
}

export async function deleteInventoryItem(trx: Executor, actor: Actor, id: string) {
  const row = await deleteRecord(trx, 'inventory_items', { id, restaurant_id: actor.restaurantId });
  if (!row) throw notFound('inventory item', id);
  return row;
}
