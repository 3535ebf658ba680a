import type { Executor } from '../../db/records.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import { lockCustomers, normalizeEmail, normalizePhone } from './match-customer.ts';

export interface CustomerInput {
  name?: string | null;
  email?: string | null;
  phone?: string | null;
}

/** A customer with the lifetime figures the order hook keeps (0 before any sale). */
export async function loadCustomers(db: Executor, restaurantId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('customers as c')
    .leftJoin('analytics_customer_totals as t', 't.customer_id', 'c.id')
    .selectAll('c')
    .select(['t.visits', 't.total_spent'])
    .where('c.restaurant_id', '=', restaurantId)
    .where('c.id', 'in', ids)
    .execute();
}

export type CustomerWithTotals = Awaited<ReturnType<typeof loadCustomers>>[number];

export async function findCustomer(db: Executor, restaurantId: string, id: string) {
  return (await loadCustomers(db, restaurantId, [id]))[0];
}

function contact(input: CustomerInput) {
  const out: { email?: string | null; phone?: string | null } = {};
  if (input.email !== undefined) out.email = normalizeEmail(input.email);
  if (input.phone !== undefined) {
    out.phone = input.phone === null ? null : normalizePhone(input.phone);
    if (input.phone !== null && out.phone === null) throw new ApiError('parameter_invalid', 'phone is not a phone number.', 'phone');
  }
  return out;
}

/** Email and phone identify a guest, so two customers of one restaurant never share one. */
async function assertUnique(db: Executor, restaurantId: string, c: { email?: string | null; phone?: string | null }, self?: string) {
  if (c.email || c.phone) await lockCustomers(db, restaurantId);
  for (const field of ['email', 'phone'] as const) {
    const v = c[field];
    if (!v) continue;
    let q = db.selectFrom('customers').select('id').where('restaurant_id', '=', restaurantId).where(field, '=', v);
    if (self) q = q.where('id', '!=', self);
    if (await q.executeTakeFirst()) throw new ApiError('resource_conflict', `Another customer already has this ${field}.`, field);
  }
}

export async function createCustomer(trx: Executor, actor: Actor, input: CustomerInput) {
  const c = contact(input);
  if (!input.name && !c.email && !c.phone) throw new ApiError('parameter_missing', 'Give at least a name, an email or a phone.', 'name');
  await assertUnique(trx, actor.restaurantId, c);
  const now = seconds(actor);
  const row = await insertRecord(trx, 'customers', {
    id: newId(PREFIXES.customer, actor.now),
    restaurant_id: actor.restaurantId,
    name: input.name ?? null,
    email: c.email ?? null,
    phone: c.phone ?? null,
    loyalty_points: 0,
    first_seen: now,
    created: now,
    updated: now,
  });
  return (await findCustomer(trx, actor.restaurantId, row.id))!;
}

export async function updateCustomer(trx: Executor, actor: Actor, id: string, input: CustomerInput) {
  const existing = await findCustomer(trx, actor.restaurantId, id);
  if (!existing) throw notFound('customer', id);
  const c = contact(input);
  await assertUnique(trx, actor.restaurantId, c, id);
  const next = { name: input.name === undefined ? existing.name : input.name, email: c.email === undefined ? existing.email : c.email, phone: c.phone === undefined ? existing.phone : c.phone };
  if (!next.name && !next.email && !next.phone) throw new ApiError('parameter_invalid', 'A customer keeps at least a name, an email or a phone.', 'name');
  await updateRecord(trx, 'customers', { id, restaurant_id: actor.restaurantId }, { ...next, updated: seconds(actor) });
  return (await findCustomer(trx, actor.restaurantId, id))!;
}
