import type { Executor } from '../../db/records.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';

export interface TableInput {
  number: number;
  capacity: number;
  min_capacity?: number | null;
  zone?: string | null;
  is_active?: boolean;
  plan_x?: number | null;
  plan_y?: number | null;
  plan_width?: number | null;
  plan_height?: number | null;
  shape?: 'square' | 'round' | 'rect' | null;
}

const PLAN = ['plan_x', 'plan_y', 'plan_width', 'plan_height', 'shape'] as const;

export async function findTable(db: Executor, restaurantId: string, id: string) {
  return db.selectFrom('tables').selectAll().where('restaurant_id', '=', restaurantId).where('id', '=', id).executeTakeFirst();
}

function checkCapacities(capacity: number, min: number | null) {
  if (min !== null && min > capacity) {
    throw new ApiError('parameter_invalid', `min_capacity (${min}) must not exceed capacity (${capacity}).`, 'min_capacity');
  }
}

// The unique index would refuse it too, but only after the change log write; asking first
// gives a clear 409 naming the field.
async function checkNumberFree(db: Executor, restaurantId: string, number: number, exceptId?: string) {
  let q = db.selectFrom('tables').select('id').where('restaurant_id', '=', restaurantId).where('number', '=', number);
  if (exceptId) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) {
    throw new ApiError('resource_conflict', `Table number ${number} is already used.`, 'number');
  }
}

export async function createTable(trx: Executor, actor: Actor, input: TableInput) {
  const min = input.min_capacity ?? null;
  checkCapacities(input.capacity, min);
  await checkNumberFree(trx, actor.restaurantId, input.number);
  const now = seconds(actor);
  return insertRecord(trx, 'tables', {
    id: newId(PREFIXES.table, actor.now),
    restaurant_id: actor.restaurantId,
    number: input.number,
    capacity: input.capacity,
    min_capacity: min,
    zone: input.zone ?? null,
    status: 'available',
    is_active: input.is_active === false ? 0 : 1,
    ...Object.fromEntries(PLAN.map((k) => [k, input[k] ?? null])),
    created: now,
    updated: now,
  });
}

export async function updateTable(trx: Executor, actor: Actor, id: string, input: Partial<TableInput>) {
  const current = await findTable(trx, actor.restaurantId, id);
  if (!current) throw notFound('table', id);
  const capacity = input.capacity ?? current.capacity;
  const min = input.min_capacity !== undefined ? input.min_capacity : current.min_capacity;
  checkCapacities(capacity, min);
  if (input.number !== undefined && input.number !== current.number) {
    await checkNumberFree(trx, actor.restaurantId, input.number, current.id);
  }
  const patch: Record<string, unknown> = { updated: seconds(actor) };
  if (input.number !== undefined) patch.number = input.number;
  if (input.capacity !== undefined) patch.capacity = input.capacity;
  if (input.min_capacity !== undefined) patch.min_capacity = input.min_capacity;
  if (input.zone !== undefined) patch.zone = input.zone;
  if (input.is_active !== undefined) patch.is_active = input.is_active ? 1 : 0;
  for (const k of PLAN) if (input[k] !== undefined) patch[k] = input[k];
  return (await updateRecord(trx, 'tables', current, patch))!;
}

/** Soft delete: past orders and reservations keep pointing at the table. */
export async function deactivateTable(trx: Executor, actor: Actor, id: string) {
  return updateTable(trx, actor, id, { is_active: false });
}
