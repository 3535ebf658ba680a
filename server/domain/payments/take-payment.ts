import { insertRecord, updateRecord, type Executor } from '../../db/records.ts';
import type { PaymentsTable } from '../../db/tables/payments.table.ts';
import { ApiError, notFound } from '../../errors.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { catalogueOf } from '../menu/catalogue.ts';
import { businessDate } from '../orders/business-date.ts';
import { changeOrderStatus } from '../orders/change-status.ts';
import { findOrder } from '../orders/find-order.ts';
import type { OrderContext } from '../orders/record-change.ts';
import { OPEN_STATUSES } from '../../model/orders.ts';
import { seconds } from '../time.ts';
import { readSettings } from '../../model/settings.ts';
import { billsById, chargeFor, countPaid, linePayments, linesPaidBy, type ItemShare } from './balance.ts';
import { balanceOf } from '../../model/payments.ts';
import { kickCashDrawers } from './drawer.ts';
import { providerFor } from './providers.ts';
import { paymentEvents } from './announce.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

export type PaymentMethod = PaymentsTable['method'];

export type PaymentContext = OrderContext;

export interface NewPayment {
  method: PaymentMethod;
  /** ids of the order's lines: pays exactly those */
  items?: string[];
  /** lines of which this pays one of `parts` equal shares (the next one not yet paid) */
  item_shares?: { item: string; parts: number }[];
  amount?: number;
  tip_amount?: number;
  tendered_amount?: number | null;
  reference?: string | null;
  /** the staff member taking it (usr_…), when a person signed in takes it */
  takenBy?: string | null;
  /**
   * Asked only when the tip is above the venue's bound: the approving manager's id, null for a
   * key (it stands for the owner who made it); throws approval_required when nobody approves.
   */
  approveTip?: () => Promise<string | null>;
}

/** The most a tip may be without a manager's approval: `max_tip_percent` of the amount paid. */
export const tipBound = (amount: number, maxTipPercent: number) => Math.floor((amount * maxTipPercent) / 100);

/** Statuses in which an order takes payment: sent to the kitchen, or finished and still owing. */
const PAYABLE: readonly OrderRow['status'][] = [...OPEN_STATUSES, 'completed'];

/** Works out what a payment by lines, shares of lines or by amount pays, refusing what the bill does not owe. */
async function amountOf(trx: Executor, current: { order: OrderRow; items: OrderItemRow[] }, input: NewPayment, due: number): Promise<{ amount: number; items: string[] | null; shares: ItemShare[] | null }> {
  const byLines = input.items !== undefined || input.item_shares !== undefined;
  if (byLines === (input.amount !== undefined)) {
    throw new ApiError('parameter_invalid', 'Give either items or item_shares (what to pay for) or amount, not both.', byLines ? 'amount' : 'items');
  }
  if (input.amount !== undefined) {
    if (input.amount > due) throw overpaid(input.amount, due, 'amount');
    return { amount: input.amount, items: null, shares: null };
  }
  const net = new Map([...billsById(current.order, current.items)].map(([id, b]) => [id, b.net_amount]));
  const state = linesPaidBy(await linePayments(trx, current.order.id));
  const ask = { items: input.items ?? [], shares: input.item_shares ?? [] };
  const charge = chargeFor(current.items, net, state, ask, due);
  if (charge.amount > due) throw overpaid(charge.amount, due, ask.shares.length ? 'item_shares' : 'items');
  return { amount: charge.amount, items: charge.items, shares: charge.shares.length ? charge.shares : null };
}

const overpaid = (amount: number, due: number, param: string) =>
  new ApiError('amount_too_large', `This payment (${amount}) is more than the order still owes (${due}); tips go in tip_amount.`, param);

/**
 * Records a payment against an order. The order is locked first, so two tills paying the
 * same check at once cannot both pay what was owed once. A dine-in order paid in full is
 * completed: its table is free again.
 */
export async function takePayment(trx: Executor, actor: Actor, ctx: PaymentContext, orderId: string, input: NewPayment) {
  const current = await findOrder(trx, actor, orderId, { forUpdate: true });
  if (!current) throw notFound('order', orderId);
  const { order } = current;
  if (!PAYABLE.includes(order.status)) {
    throw new ApiError('order_not_open', `This order is '${order.status}'; only a placed or completed order takes payment.`, 'status');
  }
  const due = balanceOf(order).amount_due;
  if (due <= 0) throw new ApiError('state_conflict', 'This order is already paid in full.', 'id');
  const { amount, items, shares } = await amountOf(trx, current, input, due);
  if (amount <= 0) throw new ApiError('parameter_invalid', 'amount must be more than 0.', 'amount');
  const tip = input.tip_amount ?? 0;
  const tendered = input.tendered_amount ?? null;
  if (tendered !== null && input.method !== 'cash') {
    throw new ApiError('parameter_invalid', 'tendered_amount is for cash: what the guest handed over.', 'tendered_amount');
  }
  if (tendered !== null && tendered < amount + tip) {
    throw new ApiError('parameter_invalid', `tendered_amount (${tendered}) is less than amount and tip (${amount + tip}).`, 'tendered_amount');
  }
  const { restaurant } = await catalogueOf(trx, actor.restaurantId);
  let tipApprovedBy: string | null = null;
  if (tip > tipBound(amount, readSettings(restaurant).max_tip_percent)) {
    if (!input.approveTip) throw new ApiError('approval_required', `A tip of ${tip} on ${amount} is above the venue's bound: a manager must approve it.`, 'tip_amount');
    tipApprovedBy = await input.approveTip();
  }
  const provider = providerFor(input.method);
  const charged = await provider.charge({ orderId, method: input.method, amount, tipAmount: tip, currency: order.currency, reference: input.reference ?? null });
  const payment = await insertRecord(trx, 'payments', {
    id: newId(PREFIXES.payment, actor.now),
    restaurant_id: actor.restaurantId,
    order_id: order.id,
    livemode: order.livemode,
    method: input.method,
    provider: provider.name,
    amount,
    tip_amount: tip,
    tip_approved_by: tipApprovedBy,
    currency: order.currency,
    tendered_amount: tendered,
    change_amount: tendered === null ? null : tendered - amount - tip,
    items: items ? JSON.stringify(items) : null,
    item_shares: shares ? JSON.stringify(shares) : null,
    reference: charged.reference,
    status: charged.status,
    server_id: input.takenBy ?? order.server_id,
    business_date: businessDate(actor.now, restaurant.timezone),
    created: seconds(actor),
  });
  const saved = (await updateRecord(trx, 'orders', order, { ...(await countPaid(trx, order.id)), updated: seconds(actor) }))!;
  await paymentEvents.paymentSucceeded(trx, ctx.hooks, actor, payment);
  let after = { order: saved, items: current.items };
  if (balanceOf(saved).payment_status === 'paid') {
    await paymentEvents.orderPaid(trx, ctx.hooks, actor, after);
    // the guests have paid and gone: a dine-in check closes and its table is free
    if (saved.type === 'dine_in' && OPEN_STATUSES.includes(saved.status)) after = await changeOrderStatus(trx, actor, ctx, order.id, { status: 'completed' });
  }
  if (input.method === 'cash') await kickCashDrawers(trx, actor, order.livemode === 1);
  return { payment, ...after };
}
