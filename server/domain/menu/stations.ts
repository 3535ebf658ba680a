import type { Executor } from '../../db/records.ts';
import { lockMenu } from './lock.ts';
import { insertRecord, updateRecord } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import { DEFAULT_LATE_MINUTES, DEFAULT_WARN_MINUTES } from '../../model/stations.ts';

export const DEFAULT_STATIONS = [
  { key: 'kitchen', name: 'Kitchen' },
  { key: 'bar', name: 'Bar' },
  { key: 'dessert', name: 'Dessert' },
  { key: 'other', name: 'Other' },
] as const;

export async function createDefaultStations(trx: Executor, actor: Actor) {
  for (const s of DEFAULT_STATIONS) await createStation(trx, actor, s);
}

export async function findStation(db: Executor, restaurantId: string, keyOrId: string) {
  return db
    .selectFrom('stations')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where((eb) => eb.or([eb('key', '=', keyOrId), eb('id', '=', keyOrId)]))
    .executeTakeFirst();
}

/** Routing needs a station that exists and is switched on. */
export async function assertActiveStation(db: Executor, restaurantId: string, key: string, param = 'station') {
  const s = await findStation(db, restaurantId, key);
  if (!s || s.key !== key || !s.is_active) {
    throw new ApiError('unknown_station', `'${key}' is not an active kitchen station of this restaurant.`, param);
  }
}

export async function createStation(trx: Executor, actor: Actor, input: { key: string; name?: string }) {
  await lockMenu(trx, actor.restaurantId);
  if (await findStation(trx, actor.restaurantId, input.key)) {
    throw new ApiError('resource_conflict', `A station with key '${input.key}' already exists.`, 'key');
  }
  const now = seconds(actor);
  return insertRecord(trx, 'stations', {
    id: newId(PREFIXES.station, actor.now),
    restaurant_id: actor.restaurantId,
    key: input.key,
    name: input.name ?? input.key.charAt(0).toUpperCase() + input.key.slice(1),
    is_active: 1,
    created: now,
    updated: now,
  });
}

/** The kitchen screen's ticket ages (minutes) for amber and red when a station sets none. */

/** A restaurant's stations in the kitchen's order: by position, then oldest first. */
export function stationsInOrder(db: Executor, restaurantId: string) {
  return db.selectFrom('stations').selectAll().where('restaurant_id', '=', restaurantId).orderBy('position').orderBy('created').orderBy('id');
}

export async function updateStation(
  trx: Executor,
  actor: Actor,
  keyOrId: string,
  patch: { name?: string; is_active?: boolean; warn_after_minutes?: number | null; late_after_minutes?: number | null; position?: number },
) {
  await lockMenu(trx, actor.restaurantId);
  const station = await findStation(trx, actor.restaurantId, keyOrId);
  if (!station) throw notFound('station', keyOrId);
  if (patch.is_active === false && station.is_active) {
    // Deactivating a station that active categories route to would silently lose their tickets.
    const users = await trx
      .selectFrom('menu_categories')
      .select('id')
      .where('restaurant_id', '=', actor.restaurantId)
      .where('station', '=', station.key)
      .where('is_active', '=', 1)
      .execute();
    // …and so would items that name it themselves
    const items = await trx
      .selectFrom('menu_items')
      .select('id')
      .where('restaurant_id', '=', actor.restaurantId)
      .where('station', '=', station.key)
      .where('is_active', '=', 1)
      .execute();
    if (items.length > 0) {
      throw new ApiError(
        'resource_conflict',
        `Station '${station.key}' still receives ${items.length} active menu item${items.length === 1 ? '' : 's'} (${items
          .slice(0, 5)
          .map((u) => u.id)
          .join(', ')}); move them to another station first.`,
        'is_active',
      );
    }
    if (users.length > 0) {
      throw new ApiError(
        'resource_conflict',
        `Station '${station.key}' still receives ${users.length} active categor${users.length === 1 ? 'y' : 'ies'} (${users
          .slice(0, 5)
          .map((u) => u.id)
          .join(', ')}); move them to another station first.`,
        'is_active',
      );
    }
  }
  // amber must come before red, whichever of the two is left at its default
  const warn = (patch.warn_after_minutes !== undefined ? patch.warn_after_minutes : station.warn_after_minutes) ?? DEFAULT_WARN_MINUTES;
  const late = (patch.late_after_minutes !== undefined ? patch.late_after_minutes : station.late_after_minutes) ?? DEFAULT_LATE_MINUTES;
  if (late <= warn) throw new ApiError('parameter_invalid', `late_after_minutes (${late}) must be more than warn_after_minutes (${warn}).`, 'late_after_minutes');
  return (await updateRecord(trx, 'stations', station, {
    ...(patch.name !== undefined && { name: patch.name }),
    ...(patch.is_active !== undefined && { is_active: patch.is_active ? 1 : 0 }),
    ...(patch.warn_after_minutes !== undefined && { warn_after_minutes: patch.warn_after_minutes }),
    ...(patch.late_after_minutes !== undefined && { late_after_minutes: patch.late_after_minutes }),
    ...(patch.position !== undefined && { position: patch.position }),
    updated: seconds(actor),
  }))!;
}
