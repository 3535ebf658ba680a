import type { Executor } from '../../db/records.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import { randomToken } from '../../auth/keys.ts';
import type { Actor } from '../../services.ts';
import { createDefaultStations } from '../menu/stations.ts';
import { restaurantBySlugOrFormer } from './slugs.ts';
import { seconds } from '../time.ts';
import { defaultSettings, readSettings, settingsShape, type Settings } from '../../model/settings.ts';

export interface NewRestaurant {
  name: string;
  slug: string;
  plan?: string;
  currency?: string;
  timezone?: string;
  default_tax_rate?: number;
  prices_include_tax?: boolean;
}

export async function createRestaurant(trx: Executor, nowMs: number, input: NewRestaurant) {
  // a slug another venue had before still leads guests there (see slugs.ts)
  const taken = await restaurantBySlugOrFormer(trx, input.slug);
  if (taken) throw new ApiError('resource_conflict', `The slug '${input.slug}' is already used.`, 'slug');
  const now = Math.floor(nowMs / 1000);
  const settings = defaultSettings(input);
  // a zone or currency the server cannot work with would only fail later, on every order
  for (const field of ['timezone', 'currency'] as const) {
    const r = settingsShape[field].safeParse(settings[field]);
    if (!r.success) throw new ApiError('parameter_invalid', `${field} ${r.error.issues[0].message}.`, field);
  }
  const restaurant = await insertRecord(trx, 'restaurants', {
    id: newId(PREFIXES.restaurant, nowMs),
    slug: input.slug,
    name: input.name,
    plan: input.plan ?? 'pro',
    currency: settings.currency,
    timezone: settings.timezone,
    default_tax_rate: settings.default_tax_rate,
    settings: JSON.stringify(settings),
    guest_secret: randomToken(43),
    created: now,
    updated: now,
  });
  await createDefaultStations(trx, { restaurantId: restaurant.id, livemode: true, now: nowMs });
  return restaurant;
}

export async function getRestaurant(db: Executor, id: string) {
  const row = await db.selectFrom('restaurants').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound('restaurant', id);
  return row;
}

export async function findRestaurantBySlugOrId(db: Executor, slugOrId: string) {
  return db
    .selectFrom('restaurants')
    .selectAll()
    .where((eb) => eb.or([eb('slug', '=', slugOrId), eb('id', '=', slugOrId)]))
    .executeTakeFirst();
}

export async function getSettings(db: Executor, restaurantId: string): Promise<Settings> {
  return readSettings(await getRestaurant(db, restaurantId));
}

/** Only the fields sent change; nested `waitlist` merges field by field too. */
export type SettingsPatch = Partial<Omit<Settings, 'waitlist'>> & { waitlist?: Partial<Settings['waitlist']> };

/**
 * Amounts are stored as bare integers of the restaurant's currency: once a live order or a
 * payment exists, a new currency would relabel them (euro cents read as yen), so it is refused.
 */
async function assertCurrencyFree(trx: Executor, restaurantId: string, current: string, next: string | undefined) {
  if (next === undefined || next === current) return;
  const money = await trx.selectFrom('orders').select('id').where('restaurant_id', '=', restaurantId).where('livemode', '=', 1).limit(1).executeTakeFirst();
  const paid = money ?? (await trx.selectFrom('payments').select('id').where('restaurant_id', '=', restaurantId).where('livemode', '=', 1).limit(1).executeTakeFirst());
  if (paid) {
    throw new ApiError('currency_locked', `The currency is ${current}: orders and payments already exist in it, and their amounts would be read as ${next}.`, 'currency');
  }
}

export async function updateSettings(trx: Executor, actor: Actor, patch: SettingsPatch) {
  const row = await getRestaurant(trx, actor.restaurantId);
  const current = readSettings(row);
  await assertCurrencyFree(trx, row.id, current.currency, patch.currency);
  const next: Settings = { ...current, ...patch, waitlist: { ...current.waitlist, ...patch.waitlist } } as Settings;
  const saved = await updateRecord(trx, 'restaurants', { id: row.id }, {
    settings: JSON.stringify(next),
    timezone: next.timezone,
    currency: next.currency,
    default_tax_rate: next.default_tax_rate,
    updated: seconds(actor),
  });
  return readSettings(saved!);
}
