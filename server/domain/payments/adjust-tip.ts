import { updateRecord, type Executor } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import type { Actor } from '../../services.ts';
import { catalogueOf } from '../menu/catalogue.ts';
import { businessDate } from '../orders/business-date.ts';
import { seconds } from '../time.ts';
import { findPayment } from './refund.ts';

/**
 * Corrects a payment's tip (the slip said 5.00, 50.00 was keyed). A manager approves every
 * correction, since it moves money to or from a server; it is allowed until the payment's
 * business day is over, after which that day's close stands as printed.
 */
export async function adjustTip(trx: Executor, actor: Actor, id: string, tipAmount: number, approve: () => Promise<string | null>) {
  const payment = await findPayment(trx, actor, id);
  if (!payment) throw notFound('payment', id);
  const { restaurant } = await catalogueOf(trx, actor.restaurantId);
  if (payment.business_date !== businessDate(actor.now, restaurant.timezone)) {
    throw new ApiError('state_conflict', `The business day ${payment.business_date} is closed: its tips stand as its close reported them.`, 'id');
  }
  const approvedBy = await approve();
  if (tipAmount === Number(payment.tip_amount)) return payment;
  return (await updateRecord(trx, 'payments', payment, { tip_amount: tipAmount, tip_approved_by: approvedBy }))!;
}
