import { z } from 'zod';
import { approver } from '../../http/approval.ts';
import { discountCheck, discountLine, fireCourse, holdCourse, moveLines, quoteDiscount, setCovers, transferOrder, voidLine } from '../../domain/orders/service.ts';
import { ApiError } from '../../errors.ts';
import { expanded } from '../../http/expand.ts';
import { f } from '../../model/fields.ts';
import { defineRoute, idParam, type Call, type RouteSpec } from '../../http/route.ts';
import { q } from '../../http/query.ts';
import { DiscountQuoteSchema, presentDiscountQuote } from '../../presenters/discount-quote.ts';
import { mergeChecks } from '../../domain/orders/merge-checks.ts';
import { orderContext } from './context.ts';
import { OrderSchema, presentOrder, type Order } from '../../presenters/orders.ts';
import { courseNumber, covers, managerPin, seatAndCourse } from './schema.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

/**
 * Service at the table: actions on an open check, routed like cancel (POST /v1/orders/{id}/…),
 * each one command and one event. Voids and discounts are role-gated: a manager's or owner's
 * session does them; a server's needs a manager's PIN in `manager_pin` (recorded as the
 * approver); a secret key stands for the owner who made it.
 */
const tag = 'Orders';

/** A change's result carries the order as its event presented it (record-change.ts): answered as is. */
const present = async (c: Call<any, any, any>, r: { order: OrderRow; items: OrderItemRow[]; presented?: Order }) =>
  (await expanded(c, 'order', [r.presented ?? presentOrder(r.order, r.items)]))[0]!;


const reason = () => z.string().trim().min(1, 'must say why').max(500);
const lineParams = z.object({ id: z.string().min(1).max(64), index: z.string().regex(/^\d{1,3}$/, 'must be a zero-based line number').transform(Number) });
const discount = z
  .object({
    amount: z.number().int().min(0).optional(),
    percent: z.number().min(0).max(100).optional(),
    reason: reason(),
    manager_pin: managerPin(),
  })
  .refine((d) => (d.amount === undefined) !== (d.percent === undefined), { message: 'give exactly one of amount or percent', path: ['amount'] });

/** A discount asked before it is applied (GET …/discount): the amount or percent the POST's body would give; neither asks only the base. */
const discountAsked = z
  .object({
    amount: q.int({ min: 0 }).optional(),
    percent: q.number({ min: 0, max: 100 }).optional(),
  })
  .refine((d) => d.amount === undefined || d.percent === undefined, { message: 'give amount or percent, not both', path: ['amount'] });
const quoting = { tag, auth: 'secret' as const, sandbox: 'own_mode' as const, scope: 'orders:read' as const, response: DiscountQuoteSchema };

const common = { tag, auth: 'secret' as const, sandbox: 'own_mode' as const, scope: 'orders:write' as const, response: OrderSchema, expand: 'order' as const };

export const routes: RouteSpec[] = [
  defineRoute({
    ...common,
    method: 'post',
    path: '/v1/orders/:id/fire',
    errors: ['order_not_open', 'state_conflict'],
    summary: 'Fire a held course: its lines go to their stations (tickets, screens) now',
    params: idParam('ord_ id'),
    body: z.object({ course: courseNumber() }),
    handler: async (c) => present(c, await c.services.tx.run((trx) => fireCourse(trx, c.actor(), orderContext(c.services), c.params.id, c.body.course, c.caller?.staff?.id ?? null))),
  }),

  defineRoute({
    ...common,
    method: 'post',
    path: '/v1/orders/:id/hold',
    errors: ['order_not_open', 'state_conflict'],
    summary: 'Hold a course not yet sent: its lines wait for POST /v1/orders/{id}/fire',
    params: idParam('ord_ id'),
    body: z.object({ course: courseNumber() }),
    handler: async (c) => present(c, await c.services.tx.run((trx) => holdCourse(trx, c.actor(), orderContext(c.services), c.params.id, c.body.course))),
  }),

  defineRoute({
    ...common,
    method: 'post',
    path: '/v1/orders/:id/items/:index/void',
    errors: ['order_not_open', 'approval_required', 'state_conflict'],
    summary: 'Void a line with a reason: billed nowhere, taken off the screens, a void ticket to its station (manager approval)',
    params: lineParams,
    body: z.object({ reason: reason(), manager_pin: managerPin() }),
    handler: async (c) => {
      const by = await approver(c, c.body.manager_pin);
      return present(c, await c.services.tx.run((trx) =>
        voidLine(trx, c.actor(), orderContext(c.services), c.params.id, c.params.index, { reason: c.body.reason, by: by ?? c.caller?.staff?.id ?? null }),
      ));
    },
  }),

  defineRoute({
    ...quoting,
    method: 'get',
    errors: ['order_not_open', 'state_conflict'],
    path: '/v1/orders/:id/items/:index/discount',
    summary: 'What a discount of one line is taken from (its subtotal) and what an amount or a percent would take off, by the rule the POST records it by; nothing is written',
    params: lineParams,
    query: discountAsked,
    handler: async (c) => presentDiscountQuote(await quoteDiscount(c.db, c.actor(), c.params.id, c.params.index, c.query)),
  }),

  defineRoute({
    ...quoting,
    method: 'get',
    errors: ['order_not_open', 'state_conflict'],
    path: '/v1/orders/:id/discount',
    summary: 'What a discount of the whole check is taken from (check_discount_base) and what an amount or a percent would take off, by the rule the POST records it by; nothing is written',
    params: idParam('ord_ id'),
    query: discountAsked,
    handler: async (c) => presentDiscountQuote(await quoteDiscount(c.db, c.actor(), c.params.id, null, c.query)),
  }),

  defineRoute({
    ...common,
    method: 'post',
    path: '/v1/orders/:id/items/:index/discount',
    errors: ['order_not_open', 'approval_required', 'state_conflict'],
    summary: 'Discount one line by an amount or a percent (100: a comp), with a reason (manager approval); 0 removes it',
    params: lineParams,
    body: discount,
    handler: async (c) => {
      const approvedBy = await approver(c, c.body.manager_pin);
      return present(c, await c.services.tx.run((trx) =>
        discountLine(trx, c.actor(), orderContext(c.services), c.params.id, c.params.index, { ...c.body, approvedBy }),
      ));
    },
  }),

  defineRoute({
    ...common,
    method: 'post',
    path: '/v1/orders/:id/discount',
    errors: ['order_not_open', 'approval_required', 'state_conflict'],
    summary: 'Discount the whole check by an amount or a percent, with a reason (manager approval); 0 removes it',
    params: idParam('ord_ id'),
    body: discount,
    handler: async (c) => {
      const approvedBy = await approver(c, c.body.manager_pin);
      return present(c, await c.services.tx.run((trx) => discountCheck(trx, c.actor(), orderContext(c.services), c.params.id, { ...c.body, approvedBy })));
    },
  }),

  defineRoute({
    ...common,
    method: 'post',
    path: '/v1/orders/:id/move_items',
    errors: ['order_not_open'],
    summary: 'Move lines to another seat and/or course',
    params: idParam('ord_ id'),
    body: z
      .object({ items: z.array(z.number().int().min(0).max(999)).min(1).max(100), ...seatAndCourse })
      .refine((b) => b.seat !== undefined || b.course !== undefined, { message: 'give seat or course', path: ['seat'] }),
    handler: async (c) => present(c, await c.services.tx.run((trx) => moveLines(trx, c.actor(), orderContext(c.services), c.params.id, c.body))),
  }),

  defineRoute({
    ...common,
    method: 'post',
    path: '/v1/orders/:id/covers',
    errors: ['order_not_open'],
    summary: 'Say or correct the party size (covers) of an open check; null when unknown',
    params: idParam('ord_ id'),
    body: z.object({ covers: covers().nullable() }),
    handler: async (c) => present(c, await c.services.tx.run((trx) => setCovers(trx, c.actor(), orderContext(c.services), c.params.id, c.body.covers))),
  }),

  defineRoute({
    ...common,
    method: 'post',
    path: '/v1/orders/:id/transfer',
    errors: ['order_not_open', 'state_conflict'],
    summary: 'Take the check to another table (refused when that table has an open check of its own)',
    params: idParam('ord_ id'),
    body: z.object({ table: f.id() }),
    handler: async (c) => present(c, await c.services.tx.run((trx) => transferOrder(trx, c.actor(), orderContext(c.services), c.params.id, c.body.table))),
  }),

  defineRoute({
    ...common,
    method: 'post',
    path: '/v1/orders/:id/merge',
    errors: ['order_not_open', 'state_conflict'],
    summary: 'Merge another open check into this one: its lines (seats numbered on), payments and discounts move here; it is closed as merged; nothing is sent to the kitchen again',
    params: idParam('ord_ id'),
    body: z.object({ from: f.id() }),
    handler: async (c) => present(c, await c.services.tx.run((trx) => mergeChecks(trx, c.actor(), orderContext(c.services), c.params.id, c.body.from))),
  }),
];
