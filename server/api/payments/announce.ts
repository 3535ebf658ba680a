import type { Executor } from '../../db/records.ts';
import { emitEvent, type EventHooks } from '../../domain/events/emit.ts';
import { refundsOf } from '../../domain/payments/list.ts';
import type { PaymentAnnouncer } from '../../domain/payments/take-payment.ts';
import { presentOrder } from '../../presenters/orders.ts';
import { presentPayment, presentRefund } from '../../presenters/payments.ts';
import type { PaymentRow } from '../../db/tables/payments.table.ts';

const asPresented = async (trx: Executor, p: PaymentRow) => presentPayment(p, (await refundsOf(trx, [p.id])).get(p.id) ?? []);

/** The events of payments, outbox rows written in the payment's own transaction, with the server's event hooks. */
export const paymentEvents = (hooks: EventHooks): PaymentAnnouncer => ({
  async paymentSucceeded(trx, actor, payment) {
    await emitEvent(trx, hooks, actor, 'payment.succeeded', await asPresented(trx, payment));
  },
  async paymentRefunded(trx, actor, payment, refund) {
    await emitEvent(trx, hooks, actor, 'payment.refunded', await asPresented(trx, payment), { refund: presentRefund(refund) });
  },
  async orderPaid(trx, actor, { order, items }) {
    await emitEvent(trx, hooks, actor, 'order.paid', presentOrder(order, items));
  },
});
