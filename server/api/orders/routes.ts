import { sql } from 'kysely';
import { cancelOrder, changeOrderStatus } from '../../domain/orders/change-status.ts';
import { addRound, createOrder } from '../../domain/orders/create-order.ts';
import { modeOf } from '../../domain/modes.ts';
import { findOrder } from '../../domain/orders/find-order.ts';
import { loadItemsFor } from '../../domain/orders/load.ts';
import { mustExist } from '../../errors.ts';
import { presentWith } from '../../http/expand.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../http/pagination.ts';
import { defineRoute, idParam, type Call, type RouteSpec } from '../../http/route.ts';
import { orderContext } from './context.ts';
import { OrderSchema, presentOrder } from '../../presenters/orders.ts';
import './refs.ts';
import { AddItems, CancelOrder, CreateOrder, ListOrders, UpdateOrder } from './schema.ts';
import { listOf } from '../../model/schemas.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

const present = presentWith('order', (r: { order: OrderRow; items: OrderItemRow[] }) => presentOrder(r.order, r.items));

const one = async (c: Call<any, any, any>, r: { order: OrderRow; items: OrderItemRow[] }) => (await present(c, [r]))[0];

const tag = 'Orders';

/** Lines of a held course are kept back from the stations until it is fired. */
const withHolds = <L extends { course?: number | null }>(items: L[], hold: number[] | undefined) =>
  items.map((l) => ({ ...l, held: !!hold && l.course != null && hold.includes(l.course) }));

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/orders',
    response: listOf(OrderSchema),
    summary: 'List orders, newest first',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'orders:read',
    query: ListOrders,
    expand: 'order',
    handler: async (c) => {
      const actor = c.actor();
      let qb = c.db.selectFrom('orders').selectAll().where('restaurant_id', '=', actor.restaurantId).where('livemode', '=', modeOf(actor));
      if (c.query.status) qb = qb.where('status', 'in', c.query.status);
      if (c.query.type) qb = qb.where('type', '=', c.query.type);
      if (c.query.table) qb = qb.where('table_id', '=', c.query.table);
      if (c.query['created.gte'] !== undefined) qb = qb.where('created', '>=', c.query['created.gte']);
      if (c.query['created.lte'] !== undefined) qb = qb.where('created', '<=', c.query['created.lte']);
      if (c.query.order_number) qb = qb.where('order_number', '=', c.query.order_number);
      if (c.query.customer) {
        const pattern = `%${c.query.customer.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
        qb = qb.where((eb) =>
          eb.or(['customer_name', 'customer_email', 'customer_phone'].map((col) => sql<boolean>`lower(${sql.ref(col)}) like ${pattern} escape '\\'`)),
        );
      }
      const page = await paginate(qb, { ...c.query, keys: NEWEST_FIRST('orders'), url: '/v1/orders' });
      return mapPage(page, async (rows) => {
        const items = await loadItemsFor(c.db, rows.map((r) => r.id));
        return present(c, rows.map((order) => ({ order, items: items.get(order.id) ?? [] })));
      });
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/orders/:id',
    response: OrderSchema,
    summary: 'Retrieve an order',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'orders:read',
    params: idParam('ord_ id'),
    expand: 'order',
    handler: async (c) => {
      const found = mustExist(await findOrder(c.db, c.actor(), c.params.id), 'order', c.params.id);
      return one(c, found);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/orders',
    errors: ['resource_missing', 'menu_item_unavailable', 'modifier_invalid', 'delivery_address_required'],
    response: OrderSchema,
    summary: 'Create an order (a draft, or placed at once with `status: placed`); names and prices come from the menu',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'orders:write',
    body: CreateOrder,
    expand: 'order',
    idempotent: true,
    status: 201,
    handler: async (c) =>
      one(
        c,
        await createOrder(c.db, c.actor(), orderContext(c.services), {
          ...c.body,
          items: withHolds(c.body.items, c.body.hold_courses),
          // a staff member ringing in an order is its server unless they name another
          server: c.body.server !== undefined ? c.body.server : (c.caller?.staff?.id ?? null),
          sender: c.caller?.staff?.id ?? null,
          source: c.caller?.staff ? 'staff' : 'api',
          status: c.body.status ?? 'draft',
        }),
      ),
  }),

  defineRoute({
    method: 'post',
    path: '/v1/orders/:id/items',
    errors: ['resource_missing', 'menu_item_unavailable', 'modifier_invalid', 'order_not_open'],
    response: OrderSchema,
    summary: 'Add a round of lines to an open order (with seat and course); they go to the kitchen at once',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'orders:write',
    params: idParam('ord_ id'),
    body: AddItems,
    expand: 'order',
    idempotent: true,
    status: 201,
    handler: async (c) => {
      const actor = c.actor();
      // locked: two rounds sent at once would otherwise both take the same line positions
      const found = mustExist(await findOrder(c.db, actor, c.params.id, { forUpdate: true }), 'order', c.params.id);
      return one(c, await addRound(c.db, actor, orderContext(c.services), found, withHolds(c.body.items, c.body.hold_courses), { sender: c.caller?.staff?.id ?? null }));
    },
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/orders/:id',
    errors: ['invalid_transition', 'approval_required'],
    response: OrderSchema,
    summary: 'Move an order to another status (cancel_reason required for cancelled)',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'orders:write',
    params: idParam('ord_ id'),
    body: UpdateOrder,
    expand: 'order',
    approval: true,
    handler: async (c) =>
      one(c, await c.services.tx.run((trx) => changeOrderStatus(trx, c.actor(), orderContext(c.services), c.params.id, c.body, c.approve))),
  }),

  defineRoute({
    method: 'post',
    path: '/v1/orders/:id/cancel',
    errors: ['invalid_transition', 'approval_required'],
    response: OrderSchema,
    summary: 'Cancel an order; cancelling a cancelled order returns it unchanged. With lines at the stations or money taken, a manager approves it (a server sends manager_pin)',
    tag,
    auth: 'secret',
    sandbox: 'own_mode',
    scope: 'orders:write',
    params: idParam('ord_ id'),
    body: CancelOrder,
    expand: 'order',
    approval: true,
    handler: async (c) =>
      one(c, await c.services.tx.run((trx) => cancelOrder(trx, c.actor(), orderContext(c.services), c.params.id, c.body.cancel_reason ?? null, c.approve))),
  }),
];
