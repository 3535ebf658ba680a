import { createHash, randomInt } from 'node:crypto';
import { holdsAll } from '../../auth/roles.ts';
import { WIDGET_SCOPES } from '../../auth/scopes.ts';
import { createApiKey } from '../keys/create-key.ts';
import { updateRecord, type Executor } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { findStation } from '../menu/stations.ts';

/** A pairing code lives this long: typed on a tablet across the kitchen, not kept for later. */
export const PAIRING_TTL_SECONDS = 10 * 60;
/** Tries a code takes (wrong ones, and the right one) before it pairs nothing more. */
export const PAIRING_MAX_TRIES = 5;

/**
 * A code is digits: a locator (unique among the open codes of this node, so a try names the
 * code it is aimed at and each code counts its own tries) and a secret. The hub is reached
 * from its LAN only and keeps six digits, easy to type (10⁴ secrets, five tries: one chance in
 * 2,000 per code); the cloud, open to the internet and shared by many restaurants, uses twelve
 * (10⁸ secrets).
 */
export interface CodeShape {
  locatorDigits: number;
  secretDigits: number;
}
export const codeShapeFor = (role: 'hub' | 'cloud'): CodeShape => (role === 'cloud' ? { locatorDigits: 4, secretDigits: 8 } : { locatorDigits: 2, secretDigits: 4 });

const hashCode = (code: string) => createHash('sha256').update(`pairing:${code}`).digest('hex');
const digits = (n: number) => Array.from({ length: n }, () => String(randomInt(10))).join('');

/** What a device key holds; whoever makes a pairing code must hold it all (a code is a key handed out later). */
export const DEVICE_SCOPES = WIDGET_SCOPES;

/**
 * Makes a code a tablet can trade for its own widget key. Codes are told apart by their
 * locator among the open ones of every restaurant on this node, since the tablet names no
 * restaurant.
 */
export async function makePairingCode(
  trx: Executor,
  actor: Actor,
  input: { name: string; station?: string | null },
  opts: { shape: CodeShape; grantedBy: ReadonlySet<string> },
) {
  if (!holdsAll(opts.grantedBy, DEVICE_SCOPES)) {
    throw new ApiError('insufficient_scope', `A paired device holds ${DEVICE_SCOPES.join(', ')}: only a caller holding them may make its code.`);
  }
  const now = Math.floor(actor.now / 1000);
  let station: string | null = null;
  if (input.station) {
    const found = await findStation(trx, actor.restaurantId, input.station);
    if (!found) throw new ApiError('unknown_station', `No such station: '${input.station}'`, 'station');
    station = found.key;
  }
  for (let attempt = 0; ; attempt++) {
    const locator = digits(opts.shape.locatorDigits);
    const taken = await openByLocator(trx, locator, now).select('id').executeTakeFirst();
    if (taken && attempt < 50) continue;
    if (taken) throw new ApiError('rate_limited', 'Too many pairing codes are open at once; try again in a few minutes.');
    const code = locator + digits(opts.shape.secretDigits);
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
      locator,
      failures: 0,
    };
    await trx.insertInto('device_pairings').values(row).execute();
    return { ...row, code };
  }
}

function openByLocator(db: Executor, locator: string, now: number) {
  return db
    .selectFrom('device_pairings')
    .where('locator', '=', locator)
    .where('expires_at', '>', now)
    .where('used_at', 'is', null)
    .where('failures', '<', PAIRING_MAX_TRIES);
}

/** The restaurant whose open code a typed code aims at (its locator), or null: whose pairing a wrong try counts against. */
export async function pairingRestaurantOf(db: Executor, nowMs: number, code: string, shape: CodeShape): Promise<string | null> {
  if (code.length !== shape.locatorDigits + shape.secretDigits) return null;
  const open = await openByLocator(db, code.slice(0, shape.locatorDigits), Math.floor(nowMs / 1000)).select('restaurant_id').executeTakeFirst();
  return open?.restaurant_id ?? null;
}

/**
 * Takes one try at the open code a typed code names, before the code is checked: the count
 * is committed on its own (a wrong try fails its request, whose transaction writes nothing)
 * and taken atomically, so tries sent at once cannot pass the cap together. Returns the
 * pairing's id and whether it still has a try, or null when no open code has that locator.
 */
export async function takePairingTry(db: Executor, nowMs: number, code: string, shape: CodeShape): Promise<{ id: string; locator: string } | null> {
  if (code.length !== shape.locatorDigits + shape.secretDigits) return null;
  const now = Math.floor(nowMs / 1000);
  const locator = code.slice(0, shape.locatorDigits);
  const open = await openByLocator(db, locator, now).select('id').executeTakeFirst();
  if (!open) return null;
  const took = await db
    .updateTable('device_pairings')
    .set((eb) => ({ failures: eb('failures', '+', 1) }))
    .where('id', '=', open.id)
    .where('used_at', 'is', null)
    .where('failures', '<', PAIRING_MAX_TRIES)
    .executeTakeFirst();
  return Number(took.numUpdatedRows) === 1 ? { id: open.id, locator } : null;
}

const invalid = () =>
  new ApiError('resource_missing', 'This pairing code is not valid (wrong, used, or older than 10 minutes). Make a new one in Settings.', 'code');

/**
 * Spends a code whose try was taken (takePairingTry): the device gets a live widget key named
 * after it (the only time it is shown). Unknown, expired, used and worn-out codes look the
 * same: a guesser learns nothing.
 */
export async function redeemPairingCode(trx: Executor, nowMs: number, pairingId: string, code: string) {
  const now = Math.floor(nowMs / 1000);
  const pairing = await trx
    .selectFrom('device_pairings')
    .selectAll()
    .where('id', '=', pairingId)
    .where('expires_at', '>', now)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  if (!pairing || pairing.code_hash !== hashCode(code)) throw invalid();
  // the pairing code's maker held these scopes (makePairingCode)
  const key = await createApiKey(trx, nowMs, {
    restaurantId: pairing.restaurant_id,
    kind: 'widget',
    livemode: true,
    name: pairing.name,
    grantedBy: 'operator',
    // bound to what it was paired for: its station's lines, or every station for an expo screen
    screen: pairing.station ?? '*',
  });
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

export { invalid as invalidPairingCode };

/** Revokes a paired device's key; its open sockets are closed by the live feed when it reads the change. */
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
