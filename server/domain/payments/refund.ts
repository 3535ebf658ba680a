import { insertRecord, updateRecord, type Executor } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { modeOf } from '../modes.ts';
import { catalogueOf } from '../menu/catalogue.ts';
import { businessDate } from '../orders/business-date.ts';
import { findOrder } from '../orders/find-order.ts';
import { seconds } from '../time.ts';
import { countPaid, refundedByPayment } from './balance.ts';
import type { PaymentContext } from './take-payment.ts';
import { paymentEvents } from './announce.ts';
import type { PaymentRow } from '../../db/tables/payments.table.ts';

/** A payment as one key sees it: of its restaurant and its mode. */
export async function findPayment(db: Executor, actor: Pick<Actor, 'restaurantId' | 'livemode'>, id: string): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('restaurant_id', '=', actor.restaurantId)
    .where('livemode', '=', modeOf(actor))
    .where('id', '=', id)
    .executeTakeFirst();
}

/**
 * Gives money back on a payment: all that is left of it, or `amount` of it (tips aside, they
 * stay with the staff). The refund is a record of its own, the payment is never edited. On an
 * open check it corrects a payment: the amount goes back on the order's amount_due. On a
 * completed check it is a return: the check stays completed, owing nothing, and the day the
 * refund is given counts it against its net sales (payments/day-close.ts). The order is locked as for a payment, so two
 * refunds at once cannot give back more than was paid.
 */
export async function refundPayment(
  trx: Executor,
  actor: Actor,
  ctx: PaymentContext,
  id: string,
  input: { amount?: number; reason?: string | null; by: string | null },
) {
  const found = await findPayment(trx, actor, id);
  if (!found) throw notFound('payment', id);
  const current = await findOrder(trx, actor, found.order_id, { forUpdate: true });
  if (!current) throw notFound('order', found.order_id);
  const left = Number(found.amount) - ((await refundedByPayment(trx, [found.id])).get(found.id) ?? 0);
  if (left <= 0) throw new ApiError('state_conflict', 'This payment has already been refunded in full.', 'id');
  const amount = input.amount ?? left;
  if (amount <= 0) throw new ApiError('parameter_invalid', 'amount must be more than 0.', 'amount');
  if (amount > left) throw new ApiError('amount_too_large', `Only ${left} of this payment is left to refund.`, 'amount');
  const { restaurant } = await catalogueOf(trx, actor.restaurantId);
  const refund = await insertRecord(trx, 'payment_refunds', {
    id: newId(PREFIXES.refund, actor.now),
    restaurant_id: actor.restaurantId,
    payment_id: found.id,
    order_id: found.order_id,
    livemode: found.livemode,
    amount,
    currency: found.currency || current.order.currency,
    // given on a completed check, it is a return: the check stays closed and owes nothing for it
    is_return: current.order.status === 'completed' ? 1 : 0,
    reason: input.reason?.trim() || null,
    refunded_by: input.by,
    business_date: businessDate(actor.now, restaurant.timezone),
    created: seconds(actor),
  });
  const order = (await updateRecord(trx, 'orders', current.order, { ...(await countPaid(trx, found.order_id)), updated: seconds(actor) }))!;
  await paymentEvents.paymentRefunded(trx, actor, found, refund);
  return { payment: found, refund, order, items: current.items };
}
