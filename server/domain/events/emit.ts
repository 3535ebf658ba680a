import type { Executor } from '../../db/records.ts';
import { insertCompleteRecord } from '../../db/records.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';
import type { EventType } from '../../model/events.ts';

/** What a hook decides before the event is stored: its status, and what to write once it is. */
export interface EventPlan {
  status?: string;
  write?: () => Promise<void>;
}

export type EventHook = (trx: Executor, event: { id: string; type: string; livemode: boolean; restaurantId: string }) => Promise<EventPlan | void>;

const hooks: EventHook[] = [];

/**
 * Lets delivery (webhooks) fan an event out to its endpoints inside the same transaction:
 * the hook reads and plans before the event row is written, and writes after it.
 */
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
  type: EventType,
  object: unknown,
  extra: Record<string, unknown> = {},
) {
  const now = seconds(actor);
  const id = newId(PREFIXES.event, actor.now);
  // Hooks decide first, so the event is written once with its final status.
  const plans: (EventPlan | void)[] = [];
  for (const hook of hooks) plans.push(await hook(trx, { id, type, livemode: actor.livemode, restaurantId: actor.restaurantId }));
  const row = await insertCompleteRecord(trx, 'events', {
    id,
    restaurant_id: actor.restaurantId,
    type,
    livemode: actor.livemode ? 1 : 0,
    data: JSON.stringify({ object, ...extra }),
    status: plans.find((p) => p?.status)?.status ?? 'pending',
    created: now,
    updated: now,
  });
  for (const plan of plans) await plan?.write?.();
  return row;
}
