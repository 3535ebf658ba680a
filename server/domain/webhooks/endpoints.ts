import { deleteRecord, insertRecord, updateRecord, type Executor } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import { cancelPendingForEndpoint } from './deliveries.ts';
import { newSigningSecret } from './signing.ts';

/** Endpoints per restaurant and mode: enough for every integration a venue runs. */
export const MAX_ENDPOINTS = 16;

export interface EndpointInput {
  url: string;
  enabled_events: string[];
  description?: string | null;
  status?: 'enabled' | 'disabled';
  sent_by?: 'cloud' | 'hub';
}

/** ['*'] stays as is; otherwise the types, each once, in the order given. */
export function normalizeEvents(types: string[]): string[] {
  return types.includes('*') ? ['*'] : [...new Set(types)];
}

export async function findEndpoint(db: Executor, actor: Actor, id: string) {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('restaurant_id', '=', actor.restaurantId)
    .where('livemode', '=', actor.livemode ? 1 : 0)
    .where('id', '=', id)
    .executeTakeFirst();
}

async function mustFind(db: Executor, actor: Actor, id: string) {
  const row = await findEndpoint(db, actor, id);
  if (!row) throw notFound('webhook endpoint', id);
  return row;
}

/** `url` has already passed checkEndpointUrl (it may resolve DNS, so it runs before the transaction). */
export async function createEndpoint(trx: Executor, actor: Actor, input: EndpointInput) {
  const count = await trx
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('restaurant_id', '=', actor.restaurantId)
    .where('livemode', '=', actor.livemode ? 1 : 0)
    .executeTakeFirstOrThrow();
  if (Number(count.n) >= MAX_ENDPOINTS) {
    throw new ApiError('resource_conflict', `A restaurant can have at most ${MAX_ENDPOINTS} webhook endpoints per mode.`);
  }
  const now = seconds(actor);
  return insertRecord(trx, 'webhook_endpoints', {
    id: newId(PREFIXES.webhookEndpoint, actor.now),
    restaurant_id: actor.restaurantId,
    url: input.url,
    description: input.description || null,
    enabled_events: JSON.stringify(normalizeEvents(input.enabled_events)),
    status: input.status ?? 'enabled',
    livemode: actor.livemode ? 1 : 0,
    secret: newSigningSecret(),
    previous_secret: null,
    previous_secret_expires: null,
    disabled_reason: null,
    sent_by: input.sent_by ?? 'cloud',
    created: now,
    updated: now,
  });
}

export async function updateEndpoint(trx: Executor, actor: Actor, id: string, patch: Partial<EndpointInput>) {
  const current = await mustFind(trx, actor, id);
  const set: Record<string, unknown> = { updated: seconds(actor) };
  if (patch.url !== undefined) set.url = patch.url;
  if (patch.description !== undefined) set.description = patch.description || null;
  if (patch.sent_by !== undefined) set.sent_by = patch.sent_by;
  if (patch.enabled_events !== undefined) set.enabled_events = JSON.stringify(normalizeEvents(patch.enabled_events));
  if (patch.status !== undefined) {
    set.status = patch.status;
    set.disabled_reason = null;
  }
  const row = await updateRecord(trx, 'webhook_endpoints', { id, restaurant_id: actor.restaurantId }, set);
  // A disabled endpoint gets nothing more: what was still waiting for it is cancelled
  // (and can be resent once it is enabled again).
  if (patch.status === 'disabled' && current.status !== 'disabled') await cancelPendingForEndpoint(trx, actor, id);
  return row!;
}

export async function deleteEndpoint(trx: Executor, actor: Actor, id: string) {
  await mustFind(trx, actor, id);
  await cancelPendingForEndpoint(trx, actor, id);
  return (await deleteRecord(trx, 'webhook_endpoints', { id, restaurant_id: actor.restaurantId }))!;
}

/**
 * Issues a new secret. With `expiresInSec` > 0 the old one keeps signing too (a second
 * signature in webhook-signature) until then, so a receiver can switch without a gap.
 */
export async function rollSecret(trx: Executor, actor: Actor, id: string, expiresInSec: number) {
  const current = await mustFind(trx, actor, id);
  const now = seconds(actor);
  const row = await updateRecord(
    trx,
    'webhook_endpoints',
    { id, restaurant_id: actor.restaurantId },
    {
      secret: newSigningSecret(),
      previous_secret: expiresInSec > 0 ? current.secret : null,
      previous_secret_expires: expiresInSec > 0 ? now + expiresInSec : null,
      updated: now,
    },
  );
  return row!;
}
