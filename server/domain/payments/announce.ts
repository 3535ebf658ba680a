import type { Executor } from '../../db/records.ts';
import { emitEvent } from '../events/emit.ts';
import { refundsOf } from './list.ts';
import type { Actor } from '../../services.ts';
import type { RefundRow } from '../../db/tables/payment-refunds.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import { presentOrder } from '../../presenters/orders.ts';
import { presentPayment, presentRefund } from '../../presenters/payments.ts';
import type { PaymentRow } from '../../db/tables/payments.table.ts';

const asPresented = async (trx: Executor, p: PaymentRow) => presentPayment(p, (await refundsOf(trx, [p.id])).get(p.id) ?? []);

/**
 * The events of payments, outbox rows written in the payment's own transaction, shaped by the
 * presenters like every other command's events (docs/contributors/architecture.md).
 */
export const paymentEvents = {
  async paymentSucceeded(trx: Executor, actor: Actor, payment: PaymentRow): Promise<void> {
    await emitEvent(trx, actor, 'payment.succeeded', await asPresented(trx, payment));
  },
  async paymentRefunded(trx: Executor, actor: Actor, payment: PaymentRow, refund: RefundRow): Promise<void> {
    await emitEvent(trx, actor, 'payment.refunded', await asPresented(trx, payment), { refund: presentRefund(refund) });
  },
  async orderPaid(trx: Executor, actor: Actor, { order, items }: { order: OrderRow; items: OrderItemRow[] }): Promise<void> {
    await emitEvent(trx, actor, 'order.paid', presentOrder(order, items));
  },
};
