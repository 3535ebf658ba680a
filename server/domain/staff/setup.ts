import { hashPassword } from '../../auth/passwords.ts';
import type { Executor } from '../../db/records.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import type { Transactor } from '../../db/transact.ts';
import { ApiError } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import { provisionRestaurant } from '../restaurants/provision.ts';
import { updateSettings } from '../restaurants/restaurants.ts';
import { changeSlug } from '../restaurants/slugs.ts';
import { pricesIncludeTaxByDefault } from '../../model/settings.ts';
import { normalizeEmail } from '../customers/match-customer.ts';

/** The hub needs its first owner: nobody can sign in as an owner yet. */
export async function setupNeeded(db: Executor): Promise<boolean> {
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'owner')
    .where('is_active', '=', 1)
    .where('password_hash', 'is not', null)
    .limit(1)
    .executeTakeFirst();
  return !owner;
}

export interface SetupInput {
  restaurant_name: string;
  timezone: string;
  currency: string;
  language?: 'en' | 'de' | 'fr' | 'es' | 'it';
  prices_include_tax?: boolean;
  slug?: string;
  default_tax_rate?: number;
  owner_name: string;
  owner_email: string;
  owner_password: string;
}

/** The address `comanda serve` gives the restaurant it makes on a first start, before setup names it. */
export const FIRST_START_SLUG = 'my-restaurant';

const slugOf = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .padEnd(2, '0');

/**
 * Names the restaurant and gives it its owner. The restaurant the first start made (or
 * `comanda init`) is taken over; an empty database gets a new one. Refused once an owner can
 * sign in, checked again inside the transaction so two browsers racing make one owner.
 */
export async function completeSetup(tx: Transactor, nowMs: number, input: SetupInput) {
  const passwordHash = await hashPassword(input.owner_password);
  const email = normalizeEmail(input.owner_email)!;
  const existing = await tx.run(async (trx) => {
    if (!(await setupNeeded(trx))) throw new ApiError('state_conflict', 'This hub already has an owner. Sign in instead.');
    const restaurants = await trx.selectFrom('restaurants').select('id').limit(2).execute();
    if (restaurants.length > 1) {
      throw new ApiError('state_conflict', 'This server holds several restaurants: set an owner with `comanda staff reset-password`.');
    }
    if (restaurants.length === 0) return null;
    const restaurantId = restaurants[0].id;
    const actor = { restaurantId, livemode: true, now: nowMs };
    const now = Math.floor(nowMs / 1000);
    await updateRecord(trx, 'restaurants', { id: restaurantId }, { name: input.restaurant_name, updated: now });
    // the address asked for, else the venue's own in place of the first start's placeholder
    const { slug } = await trx.selectFrom('restaurants').select('slug').where('id', '=', restaurantId).executeTakeFirstOrThrow();
    const wanted = input.slug ?? (slug === FIRST_START_SLUG ? slugOf(input.restaurant_name) : null);
    if (wanted) await changeSlug(trx, restaurantId, wanted, nowMs);
    await updateSettings(trx, actor, {
      timezone: input.timezone,
      currency: input.currency,
      ...(input.default_tax_rate !== undefined ? { default_tax_rate: input.default_tax_rate } : {}),
      prices_include_tax: input.prices_include_tax ?? pricesIncludeTaxByDefault(input.currency),
      ...(input.language ? { language: input.language } : {}),
    });
    const taken = await trx.selectFrom('users').select(['id', 'role']).where('restaurant_id', '=', restaurantId).where('email', '=', email).executeTakeFirst();
    const owner = taken ?? (await trx.selectFrom('users').select(['id', 'role']).where('restaurant_id', '=', restaurantId).where('role', '=', 'owner').orderBy('id').executeTakeFirst());
    const fields = { name: input.owner_name, email, role: 'owner', password_hash: passwordHash, is_active: 1, updated: now };
    const user = owner
      ? await updateRecord(trx, 'users', { id: owner.id, restaurant_id: restaurantId }, fields)
      : await insertRecord(trx, 'users', { id: newId(PREFIXES.user, nowMs), restaurant_id: restaurantId, hourly_rate: null, created: now, ...fields });
    return { restaurantId, userId: user!.id };
  });
  if (existing) return existing;
  // An empty database: a new restaurant (stations, keys) with this owner.
  const made = await provisionRestaurant(tx, nowMs, {
    name: input.restaurant_name,
    slug: input.slug ?? slugOf(input.restaurant_name),
    timezone: input.timezone,
    currency: input.currency,
    ownerEmail: email,
  });
  return tx.run(async (trx) => {
    const user = await trx.selectFrom('users').select('id').where('restaurant_id', '=', made.restaurant.id).where('role', '=', 'owner').executeTakeFirstOrThrow();
    const now = Math.floor(nowMs / 1000);
    await updateRecord(trx, 'users', { id: user.id, restaurant_id: made.restaurant.id }, { name: input.owner_name, password_hash: passwordHash, updated: now });
    await updateSettings(trx, { restaurantId: made.restaurant.id, livemode: true, now: nowMs }, {
      ...(input.default_tax_rate !== undefined ? { default_tax_rate: input.default_tax_rate } : {}),
      prices_include_tax: input.prices_include_tax ?? pricesIncludeTaxByDefault(input.currency),
      ...(input.language ? { language: input.language } : {}),
    });
    return { restaurantId: made.restaurant.id, userId: user.id };
  });
}
