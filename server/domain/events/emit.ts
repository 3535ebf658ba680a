import type { Executor } from '../../db/records.ts';
import { insertRecord } from '../../db/records.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';

export type EventHook = (trx: Executor, event: { id: string; type: string; livemode: boolean; restaurantId: string }) => Promise<void>;

const hooks: EventHook[] = [];

/** Lets delivery (webhooks) fan an event out to its endpoints inside the same transaction. */
export function onEventEmitted(hook: EventHook): void {
  hooks.push(hook);
}

/**
 * Records an event in the outbox, inside the caller's transaction: it commits with the
 * change it describes or not at all. `object` is the full resource as the API shows it.
 */
export async function emitEvent(
  trx: Executor,
  actor: Actor,
  type: string,
  object: unknown,
  extra: Record<string, unknown> = {},
) {
  const now = seconds(actor);
  const row = await insertRecord(trx, 'events', {
    id: newId(PREFIXES.event, actor.now),
    restaurant_id: actor.restaurantId,
    type,
    livemode: actor.livemode ? 1 : 0,
    data: JSON.stringify({ object, ...extra }),
    status: 'pending',
    created: now,
    updated: now,
  });
  for (const hook of hooks) await hook(trx, { id: row.id, type, livemode: actor.livemode, restaurantId: actor.restaurantId });
  return row;
}
