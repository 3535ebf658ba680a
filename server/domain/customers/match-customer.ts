// the full metadata: the small default one takes any 5 digits for a German number
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { Executor } from '../../db/records.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { LOCKS, lockKey } from '../../db/row-locks.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';

/**
 * Phones are compared in E.164 so "+49 30 1234567" and "0049301234567" are one guest.
 * A number without a country code is read in the restaurant's default region. Anything
 * libphonenumber does not hold for a real number is null: kept as typed, "12345" from two
 * guests would make them one customer with one no-show history.
 */
export function normalizePhone(raw: string | null | undefined, defaultRegion = 'DE'): string | null {
  if (!raw) return null;
  const typed = raw.trim();
  // digits and the usual separators only: libphonenumber would fish a number out of any text
  if (!/^\+?[\d\s().\/-]+$/.test(typed)) return null;
  const parsed = parsePhoneNumberFromString(typed.replace(/^00/, '+'), defaultRegion as any);
  return parsed?.isValid() ? parsed.number : null;
}

/**
 * Finding a customer and creating it when missing is one step per restaurant: on PostgreSQL
 * two requests for a new guest would otherwise both find nothing and make two.
 */
export const lockCustomers = (trx: Executor, restaurantId: string): Promise<void> => lockKey(trx, LOCKS.customers, restaurantId);

export const normalizeEmail = (raw: string | null | undefined): string | null => (raw ? raw.trim().toLowerCase() : null);

/**
 * The customer a guest's email or phone belongs to at this restaurant, created on first
 * sight. Email is tried before phone; a match learns the contact detail it lacked.
 * Returns null when neither is given (a walk-in without details stays anonymous), and for
 * sandbox work (`sk_test_` keys): customers have no mode, so a test order or booking must
 * not appear in the owner's guest list, visit counts or loyalty points.
 */
export async function findOrCreateCustomer(
  trx: Executor,
  actor: Actor,
  guest: { name?: string | null; email?: string | null; phone?: string | null },
) {
  if (!actor.livemode) return null;
  const email = normalizeEmail(guest.email);
  const phone = normalizePhone(guest.phone);
  if (!email && !phone) return null;
  await lockCustomers(trx, actor.restaurantId);
  const base = trx.selectFrom('customers').selectAll().where('restaurant_id', '=', actor.restaurantId);
  const byEmail = email ? await base.where('email', '=', email).orderBy('created').executeTakeFirst() : undefined;
  const byPhone = phone ? await base.where('phone', '=', phone).orderBy('created').executeTakeFirst() : undefined;
  const existing = byEmail ?? byPhone;
  if (existing) {
    const patch: Record<string, unknown> = {};
    // a detail is learned only when no other customer has it: each stays unique
    if (!existing.email && email && !byEmail) patch.email = email;
    if (!existing.phone && phone && !byPhone) patch.phone = phone;
    if (!existing.name && guest.name) patch.name = guest.name;
    if (Object.keys(patch).length === 0) return existing;
    return (await updateRecord(trx, 'customers', existing, { ...patch, updated: seconds(actor) }))!;
  }
  const now = seconds(actor);
  return insertRecord(trx, 'customers', {
    id: newId(PREFIXES.customer, actor.now),
    restaurant_id: actor.restaurantId,
    name: guest.name ?? null,
    email,
    phone,
    loyalty_points: 0,
    first_seen: now,
    created: now,
    updated: now,
  });
}
