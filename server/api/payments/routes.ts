import { modeOf } from '../../domain/modes.ts';
import { refundsOf } from '../../domain/payments/list.ts';
import { findPayment, refundPayment } from '../../domain/payments/refund.ts';
import { takePayment } from '../../domain/payments/take-payment.ts';
import { mustExist } from '../../errors.ts';
import type { Executor } from '../../db/records.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { listOf } from '../../model/schemas.ts';
import { paymentContext } from './context.ts';
import { PaymentSchema, presentPayment } from '../../presenters/payments.ts';
import { AdjustTip, CreatePayment, ListPayments, RefundPayment } from './schema.ts';
import { adjustTip } from '../../domain/payments/adjust-tip.ts';
import type { PaymentRow } from '../../db/tables/payments.table.ts';

const tag = 'Payments';

async function present(db: Executor, rows: PaymentRow[]) {
  const refunds = await refundsOf(db, rows.map((r) => r.id));
  return rows.map((r) => presentPayment(r, refunds.get(r.id) ?? []));
}

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'post',
    path: '/v1/orders/:id/payments',
    errors: ['resource_missing', 'order_not_open', 'amount_too_large', 'state_conflict', 'approval_required'],
    response: PaymentSchema,
    summary: "Record a payment against an order: its lines (items), one equal share of a line guests share (item_shares) or an amount, with tip and cash tendered; a tip above the venue's max_tip_percent needs a manager's approval",
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'payments:write',
    params: idParam('ord_ id'),
    body: CreatePayment,
    idempotent: true,
    status: 201,
    approval: true,
    handler: async (c) => {
      const { payment } = await takePayment(c.db, c.actor(), paymentContext(c.services), c.params.id, {
        ...c.body,
        takenBy: c.caller?.staff?.id ?? null,
        approveTip: c.approve,
      });
      return (await present(c.db, [payment]))[0];
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/payments',
    response: listOf(PaymentSchema),
    summary: 'List payments, newest first (by order, business day, method or server)',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'payments:read',
    query: ListPayments,
    handler: async (c) => {
      const actor = c.actor();
      let qb = c.db.selectFrom('payments').selectAll().where('restaurant_id', '=', actor.restaurantId).where('livemode', '=', modeOf(actor));
      if (c.query.order) qb = qb.where('order_id', '=', c.query.order);
      if (c.query.date) qb = qb.where('business_date', '=', c.query.date);
      if (c.query.method) qb = qb.where('method', '=', c.query.method);
      if (c.query.server) qb = qb.where('server_id', '=', c.query.server);
      if (c.query['created.gte'] !== undefined) qb = qb.where('created', '>=', c.query['created.gte']);
      if (c.query['created.lte'] !== undefined) qb = qb.where('created', '<=', c.query['created.lte']);
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('payments'), url: '/v1/payments' });
      return mapPage(page, (rows) => present(c.db, rows));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/payments/:id',
    response: PaymentSchema,
    summary: 'Retrieve a payment, with its refunds',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'payments:read',
    params: idParam('pay_ id'),
    handler: async (c) => {
      const found = mustExist(await findPayment(c.db, c.actor(), c.params.id), 'payment', c.params.id);
      return (await present(c.db, [found]))[0];
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/payments/:id/refund',
    errors: ['resource_missing', 'amount_too_large', 'state_conflict'],
    response: PaymentSchema,
    summary:
      "Give money back on a payment (all that is left, or amount). On an open check it goes back on the order's amount_due; on a completed check it is a return (is_return): the check stays closed and the day's net sales go down by it",
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'payments:manage',
    params: idParam('pay_ id'),
    body: RefundPayment,
    idempotent: true,
    handler: async (c) => {
      const by = c.caller?.staff?.id ?? c.caller?.keyId ?? null;
      const { payment } = await refundPayment(c.db, c.actor(), paymentContext(c.services), c.params.id, { ...c.body, by });
      return (await present(c.db, [payment]))[0];
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/payments/:id/tip',
    errors: ['resource_missing', 'state_conflict', 'approval_required'],
    response: PaymentSchema,
    summary: "Correct a payment's tip until its business day is over (a manager approves it; a server sends manager_pin)",
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'payments:write',
    params: idParam('pay_ id'),
    body: AdjustTip,
    idempotent: true,
    approval: true,
    handler: async (c) => {
      const payment = await adjustTip(c.db, c.actor(), c.params.id, c.body.tip_amount, c.approve);
      return (await present(c.db, [payment]))[0];
    },
  }),
];
