import { createHash, randomInt } from 'node:crypto';
import { createApiKey } from '../keys/create-key.ts';
import { updateRecord, type Executor } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { findStation } from '../menu/stations.ts';

/** A pairing code lives this long: typed on a tablet across the kitchen, not kept for later. */
export const PAIRING_TTL_SECONDS = 10 * 60;

const hashCode = (code: string) => createHash('sha256').update(`pairing:${code}`).digest('hex');

/**
 * Makes a six-digit code a tablet can trade for its own widget key. Codes are unique among
 * the unexpired ones of every restaurant on this node, since the tablet names no restaurant.
 */
export async function makePairingCode(trx: Executor, actor: Actor, input: { name: string; station?: string | null }) {
  const now = Math.floor(actor.now / 1000);
  let station: string | null = null;
  if (input.station) {
    const found = await findStation(trx, actor.restaurantId, input.station);
    if (!found) throw new ApiError('unknown_station', `No such station: '${input.station}'`, 'station');
    station = found.key;
  }
  for (let attempt = 0; ; attempt++) {
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const taken = await trx
      .selectFrom('device_pairings')
      .select('id')
      .where('code_hash', '=', hashCode(code))
      .where('expires_at', '>', now)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (taken && attempt < 20) continue;
    if (taken) throw new ApiError('rate_limited', 'Too many pairing codes are open at once; try again in a few minutes.');
    const row = {
      id: newId('pair', actor.now),
      restaurant_id: actor.restaurantId,
      code_hash: hashCode(code),
      name: input.name,
      station,
      created: now,
      expires_at: now + PAIRING_TTL_SECONDS,
      used_at: null,
      api_key_id: null,
    };
    await trx.insertInto('device_pairings').values(row).execute();
    return { ...row, code };
  }
}

/** Spends a code: the device gets a live widget key named after it (the only time it is shown). */
export async function redeemPairingCode(trx: Executor, nowMs: number, code: string) {
  const now = Math.floor(nowMs / 1000);
  const pairing = await trx
    .selectFrom('device_pairings')
    .selectAll()
    .where('code_hash', '=', hashCode(code))
    .where('expires_at', '>', now)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  // unknown, expired and used codes look the same: a guesser learns nothing
  if (!pairing) throw new ApiError('resource_missing', 'This pairing code is not valid (wrong, used, or older than 10 minutes). Make a new one in Settings.', 'code');
  const key = await createApiKey(trx, nowMs, { restaurantId: pairing.restaurant_id, kind: 'widget', livemode: true, name: pairing.name });
  const spent = await trx
    .updateTable('device_pairings')
    .set({ used_at: now, api_key_id: key.id })
    .where('id', '=', pairing.id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  // two tablets typing the same code at once: the second one's key is rolled back with its transaction
  if (Number(spent.numUpdatedRows) !== 1) throw new ApiError('resource_missing', 'This pairing code was just used.', 'code');
  return { pairing: { ...pairing, used_at: now, api_key_id: key.id }, key: key.key };
}

/** Revokes a paired device's key (it stops working within the key cache's few seconds). */
export async function revokeDevice(trx: Executor, actor: Actor, keyId: string) {
  const pairing = await trx
    .selectFrom('device_pairings')
    .selectAll()
    .where('restaurant_id', '=', actor.restaurantId)
    .where('api_key_id', '=', keyId)
    .executeTakeFirst();
  if (!pairing) throw notFound('device', keyId);
  const key = await trx.selectFrom('api_keys').selectAll().where('id', '=', keyId).where('restaurant_id', '=', actor.restaurantId).executeTakeFirstOrThrow();
  const now = Math.floor(actor.now / 1000);
  const row = key.revoked_at === null ? (await updateRecord(trx, 'api_keys', { id: key.id, restaurant_id: actor.restaurantId }, { revoked_at: now, updated: now }))! : key;
  return { pairing, key: row };
}
