import type { Executor } from '../../db/records.ts';
import { insertRecord } from '../../db/records.ts';
import { notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { seconds } from '../time.ts';

export interface FeedbackInput {
  rating: number;
  comment?: string | null;
  orderId?: string | null;
}

/** Records a guest's feedback; an order reference must be one of this restaurant's orders. */
export async function recordFeedback(trx: Executor, actor: Actor, input: FeedbackInput) {
  if (input.orderId) {
    const order = await trx
      .selectFrom('orders')
      .select('id')
      .where('restaurant_id', '=', actor.restaurantId)
      .where('id', '=', input.orderId)
      .executeTakeFirst();
    if (!order) throw notFound('order', input.orderId, 'orderId');
  }
  const now = seconds(actor);
  return insertRecord(trx, 'feedback', {
    id: newId(PREFIXES.feedback, actor.now),
    restaurant_id: actor.restaurantId,
    rating: input.rating,
    comment: input.comment?.trim() ? input.comment.trim() : null,
    order_id: input.orderId ?? null,
    source: 'guest',
    created: now,
    updated: now,
  });
}
