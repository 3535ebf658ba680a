import type { Executor } from '../../db/records.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { normalizeEmail } from '../customers/match-customer.ts';
import { seconds } from '../time.ts';

/** owner, manager, server and kitchen are the back office's roles (auth/roles.ts); the rest are older job titles it maps onto them. */
export const STAFF_ROLES = ['owner', 'manager', 'server', 'kitchen', 'cook', 'host', 'bartender', 'runner', 'staff'] as const;

export interface StaffInput {
  name?: string;
  email?: string | null;
  role?: (typeof STAFF_ROLES)[number];
  hourly_rate?: number | null;
  is_active?: boolean;
  language?: string | null;
}

export async function findStaff(db: Executor, restaurantId: string, id: string) {
  return db.selectFrom('users').selectAll().where('restaurant_id', '=', restaurantId).where('id', '=', id).executeTakeFirst();
}

async function assertEmailFree(db: Executor, restaurantId: string, email: string, self?: string) {
  let q = db.selectFrom('users').select('id').where('restaurant_id', '=', restaurantId).where('email', '=', email);
  if (self) q = q.where('id', '!=', self);
  if (await q.executeTakeFirst()) throw new ApiError('resource_conflict', 'Another staff user already has this email.', 'email');
}

/** The owner signs in to the back office with a password, so keeps an email; anyone else may be PIN-only. */
function assertEmailKept(role: string, email: string | null) {
  if (role === 'owner' && !email) throw new ApiError('parameter_missing', 'The owner needs an email to sign in.', 'email');
}

export async function createStaff(trx: Executor, actor: Actor, input: StaffInput & { name: string }) {
  const email = normalizeEmail(input.email ?? null);
  assertEmailKept(input.role ?? 'staff', email);
  if (email) await assertEmailFree(trx, actor.restaurantId, email);
  const now = seconds(actor);
  return insertRecord(trx, 'users', {
    id: newId(PREFIXES.user, actor.now),
    restaurant_id: actor.restaurantId,
    email,
    name: input.name,
    role: input.role ?? 'staff',
    password_hash: null,
    hourly_rate: input.hourly_rate ?? null,
    is_active: input.is_active === false ? 0 : 1,
    language: input.language ?? null,
    created: now,
    updated: now,
  });
}

export async function updateStaff(trx: Executor, actor: Actor, id: string, input: StaffInput) {
  const existing = await findStaff(trx, actor.restaurantId, id);
  if (!existing) throw notFound('staff user', id);
  const patch: Record<string, unknown> = { updated: seconds(actor) };
  if (input.email !== undefined) {
    patch.email = normalizeEmail(input.email);
    if (patch.email) await assertEmailFree(trx, actor.restaurantId, patch.email as string, id);
  }
  assertEmailKept(input.role ?? existing.role, input.email !== undefined ? (patch.email as string | null) : existing.email);
  if (input.name !== undefined) patch.name = input.name;
  if (input.role !== undefined) patch.role = input.role;
  if (input.hourly_rate !== undefined) patch.hourly_rate = input.hourly_rate;
  if (input.is_active !== undefined) patch.is_active = input.is_active ? 1 : 0;
  if (input.language !== undefined) patch.language = input.language;
  return (await updateRecord(trx, 'users', { id, restaurant_id: actor.restaurantId }, patch))!;
}
