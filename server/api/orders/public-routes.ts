import { sql } from 'kysely';
import { changeLineStatus, changeOrderStatus } from '../../domain/orders/change-status.ts';
import { createOrder } from '../../domain/orders/create-order.ts';
import { fleetFor, type Tracking } from '../../domain/orders/fleets.ts';
import { modeOf } from '../../domain/modes.ts';
import { findOrder } from '../../domain/orders/find-order.ts';
import { loadItemsFor } from '../../domain/orders/load.ts';
import { OPEN_STATUSES, ORDER_STATUSES, ORDER_TRANSITIONS } from '../../model/orders.ts';
import { findStation } from '../../domain/menu/stations.ts';
import { ApiError, notFound, mustExist } from '../../errors.ts';
import { defineRoute, idParam, type Call, type RouteSpec } from '../../http/route.ts';
import { orderContext } from './context.ts';
import { cachedJson } from '../../http/cached-json.ts';
import { stationOf } from '../../http/screen-keys.ts';
import { parseFieldList } from '../../http/fields-param.ts';
import {
  ALL_FIELDS,
  DEFAULT_FIELDS,
  project,
  PublicOrderPage,
  PublicOrderSchema,
  PublicOrderScreen,
  SCREEN_FIELDS,
  TICKET_FIELDS,
  TrackingSchema,
  type FieldName,
} from '../../presenters/public-orders.ts';
import { FieldsOnly, KitchenQuery, LineParams, LineStatus, PUBLIC_PAGE, PublicCreate, PublicList, PublicStatus, SORTABLE } from './public-schema.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

const tag = 'Operational orders';
/** Where an expo screen may move an order (http/screen-keys.ts). */
const PASS_STATUSES = new Set(['preparing', 'ready', 'served']);

/**
 * `created` as an expression, not a column: the planner then finds the few open orders
 * through the status index and sorts them, instead of walking every order ever made in
 * creation order (years of history) looking for the open ones.
 */
const BY_CREATED_VIA_STATUS = sql`orders.created + 0`;
/** Statuses few orders are in at any time; final ones hold the whole history. */
const TRANSIENT = new Set<string>(ORDER_STATUSES.filter((s) => ORDER_TRANSITIONS[s].length > 0));
const NUMERIC_SORTS = new Set<string>(['created', 'updated', 'placed_at', 'total']);
/** Lists a screen shows at once are bounded; a live screen never needs more. */
const SCREEN_CAP = 500;

const withItems = async (c: Call<any, any, any>, orders: OrderRow[], fields: FieldName[], station?: string) => {
  if (!fields.includes('items') && !fields.includes('itemCount')) return orders.map((order) => ({ order, items: [] as OrderItemRow[] }));
  const items = await loadItemsFor(c.db, orders.map((o) => o.id));
  return orders.map((order) => {
    // the screens show what the stations have: not a held course (until fired), not a voided line
    const all = (items.get(order.id) ?? []).filter((l) => l.held !== 1 && !l.voided_at);
    return { order, items: station ? all.filter((l) => l.station === station) : all };
  });
};

/** A live-screen view, answered from the change-log-versioned cache (see http/cached-json.ts). */
// cachedJson already keys by restaurant and mode; `key` names the view and its parameters.
const screen = (c: Call<any, any, any>, key: string, compute: () => Promise<unknown>) => cachedJson(c, key, compute);

/** The open orders of the caller's restaurant and mode, oldest first, as many as a screen shows. */
const openOrders = (c: Call<any, any, any>) => {
  const actor = c.actor();
  return c.db
    .selectFrom('orders')
    .selectAll()
    .where('restaurant_id', '=', actor.restaurantId)
    .where('livemode', '=', modeOf(actor))
    .where('status', 'in', OPEN_STATUSES)
    .orderBy(BY_CREATED_VIA_STATUS)
    .orderBy('id')
    .limit(SCREEN_CAP);
};

/** What the caller may read: a paired screen sees no guest contact details. */
const readable = (c: Call<any, any, any>) => (c.caller?.screen ? SCREEN_FIELDS : ALL_FIELDS);
const fieldsOf = (c: Call<any, any, any>, defaults: FieldName[]) => parseFieldList(c.query.fields, ALL_FIELDS, defaults, readable(c));

const one = async (c: Call<any, any, any>, r: { order: OrderRow; items: OrderItemRow[] }, fields: FieldName[] = readable(c)) =>
  (await project(c.db, [r], fields))[0];

const TRACKING_FIELDS = [
  'orderId',
  'orderNumber',
  'provider',
  'status',
  'address',
  'courier',
  'dispatchedAt',
  'pickedUpAt',
  'deliveredAt',
  'estimatedArrivalAt',
  'location',
] as const satisfies readonly (keyof Tracking)[];

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/public/orders',
    response: PublicOrderPage,
    summary: `Orders of the key's restaurant, projected to fields; page/limit (default ${PUBLIC_PAGE.defaultLimit}, max ${PUBLIC_PAGE.maxLimit})`,
    tag,
    auth: 'widget',
    sandbox: 'own_mode',
    scope: 'orders:read',
    query: PublicList,
    handler: async (c) => {
      const fields = parseFieldList(c.query.fields, ALL_FIELDS, DEFAULT_FIELDS);
      const actor = c.actor();
      let qb = c.db.selectFrom('orders').where('restaurant_id', '=', actor.restaurantId).where('livemode', '=', modeOf(actor));
      if (c.query.status) qb = qb.where('status', '=', c.query.status);
      if (c.query.type) qb = qb.where('type', '=', c.query.type);
      const page = c.query.page ?? 1;
      const limit = c.query.limit ?? PUBLIC_PAGE.defaultLimit;
      const column = SORTABLE[c.query.sort ?? 'createdAt'];
      const direction = c.query.order ?? 'desc';
      // Filtering on a transient status: reach its few rows through the status index (numeric
      // sort columns only; text sorts keep their column).
      const viaStatus = Boolean(c.query.status && TRANSIENT.has(c.query.status) && NUMERIC_SORTS.has(column));
      let sorted = qb.selectAll();
      // Order numbers restart every business day and are text ("9", "17", "C3"): by day, then
      // shorter before longer, so 9 comes before 17 as the numbers are called out.
      if (column === 'order_number') sorted = sorted.orderBy('business_date', direction).orderBy(sql`length(order_number)`, direction);
      const [{ n }, rows] = await Promise.all([
        qb.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
        sorted
          .orderBy(viaStatus ? sql`${sql.ref(column)} + 0` : sql.ref(column), direction)
          .orderBy('id', direction)
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
      ]);
      const total = Number(n);
      return {
        data: await project(c.db, await withItems(c, rows, fields), fields),
        paging: { page, limit, total, totalPages: Math.ceil(total / limit), hasMore: page * limit < total },
      };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/public/orders/active',
    response: PublicOrderScreen,
    summary: 'Orders in play (placed, preparing, ready, served), oldest first',
    tag,
    auth: 'widget',
    screens: 'expo',
    sandbox: 'own_mode',
    scope: 'orders:read',
    query: FieldsOnly,
    handler: async (c) => {
      const fields = fieldsOf(c, DEFAULT_FIELDS);
      return screen(c, `active|${fields}`, async () => {
        const rows = await openOrders(c).execute();
        return { data: await project(c.db, await withItems(c, rows, fields), fields) };
      });
    },
  }),

  defineRoute({
    method: 'get',
    path: '/public/orders/kitchen',
    errors: ['unknown_station'],
    response: PublicOrderScreen,
    summary: 'Kitchen view: open orders with lines still to cook (pending or preparing); with station, only that station\'s lines',
    tag,
    auth: 'widget',
    screens: 'station',
    sandbox: 'own_mode',
    scope: 'orders:read',
    query: KitchenQuery,
    handler: async (c) => {
      const fields = fieldsOf(c, TICKET_FIELDS);
      const { restaurantId } = c.actor();
      // a station's screen sees its own station, asked or not
      const station = stationOf(c.caller?.screen, c.query.station);
      return screen(c, `kitchen|${station ?? ''}|${fields}`, async () => {
        // checked when the page is made: a station added, renamed or removed moves the
        // restaurant's version, so a page kept for a station never outlives it (and an
        // unknown station's refusal is never kept)
        if (station) {
          const s = await findStation(c.db, restaurantId, station);
          if (!s || s.key !== station) throw new ApiError('unknown_station', `'${station}' is not a kitchen station of this restaurant.`, 'station');
        }
        const rows = await openOrders(c)
          .where((eb) =>
            eb.exists(
              eb
                .selectFrom('order_items')
                .select(sql.lit(1).as('one'))
                .whereRef('order_items.order_id', '=', 'orders.id')
                .where('order_items.status', 'in', ['pending', 'preparing'])
                .where('order_items.held', '=', 0)
                .where('order_items.voided_at', 'is', null)
                .$if(Boolean(station), (q) => q.where('order_items.station', '=', station!)),
            ),
          )
          .execute();
        return { data: await project(c.db, await withItems(c, rows, fields, station), fields) };
      });
    },
  }),

  defineRoute({
    method: 'get',
    path: '/public/orders/delivery/active',
    response: PublicOrderScreen,
    summary: 'Delivery orders out or waiting to go out, oldest first',
    tag,
    auth: 'widget',
    sandbox: 'own_mode',
    scope: 'orders:read',
    query: FieldsOnly,
    handler: async (c) => {
      const fields = parseFieldList(c.query.fields, ALL_FIELDS, [...DEFAULT_FIELDS, 'deliveryAddress', 'customerName', 'customerPhone', 'placedAt']);
      return screen(c, `delivery|${fields}`, async () => {
        const rows = await openOrders(c).where('type', '=', 'delivery').execute();
        return { data: await project(c.db, await withItems(c, rows, fields), fields) };
      });
    },
  }),

  defineRoute({
    method: 'get',
    path: '/public/orders/delivery/:id/track',
    errors: ['state_conflict', 'fleet_unavailable'],
    response: TrackingSchema,
    summary: 'Where a delivery order is, as the delivery fleet reports it',
    tag,
    auth: 'widget',
    sandbox: 'own_mode',
    scope: 'orders:read',
    params: idParam('ord_ id'),
    query: FieldsOnly,
    handler: async (c) => {
      const fields = parseFieldList<keyof Tracking>(c.query.fields, TRACKING_FIELDS, TRACKING_FIELDS);
      const found = await findOrder(c.db, c.actor(), c.params.id);
      const order = found?.order;
      if (!order || order.type !== 'delivery') throw notFound('delivery order', c.params.id);
      const fleet = c.services.deliveryFleet;
      const delivery = await c.db.selectFrom('deliveries').selectAll().where('order_id', '=', order.id).executeTakeFirst();
      if (!fleet || !delivery) {
        throw new ApiError('state_conflict', fleet ? 'This delivery order has not been placed yet; nothing is dispatched.' : 'This restaurant does not dispatch couriers.');
      }
      const tracking = await fleetFor(delivery, fleet).track(c.db, delivery, order);
      return Object.fromEntries(fields.map((f) => [f, tracking[f]]));
    },
  }),

  defineRoute({
    method: 'get',
    path: '/public/orders/:id',
    response: PublicOrderSchema,
    summary: 'One order of the key\'s restaurant (every field unless fields narrows it)',
    tag,
    auth: 'widget',
    sandbox: 'own_mode',
    scope: 'orders:read',
    params: idParam('ord_ id'),
    query: FieldsOnly,
    handler: async (c) => {
      const fields = parseFieldList(c.query.fields, ALL_FIELDS, ALL_FIELDS);
      const found = mustExist(await findOrder(c.db, c.actor(), c.params.id), 'order', c.params.id);
      return one(c, found, fields);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/orders',
    errors: ['resource_missing', 'menu_item_unavailable', 'modifier_invalid', 'delivery_address_required'],
    response: PublicOrderSchema,
    summary: 'Create an order from a screen; it is placed at once so the kitchen sees it',
    tag,
    auth: 'widget',
    sandbox: 'own_mode',
    scope: 'orders:write',
    body: PublicCreate,
    idempotent: true,
    status: 201,
    handler: async (c) => {
      const b = c.body;
      const created = await createOrder(c.db, c.actor(), orderContext(c.services), {
        type: b.type,
        items: b.items.map((l) => ({ menu_item: l.menuItemId, quantity: l.quantity, modifiers: l.modifiers, notes: l.notes })),
        table: b.tableId,
        customer_name: b.customerName,
        customer_phone: b.customerPhone,
        customer_email: b.customerEmail,
        delivery_address: b.deliveryAddress,
        notes: b.notes,
        source: 'pos',
        status: 'placed',
      });
      return one(c, created);
    },
  }),

  defineRoute({
    method: 'patch',
    path: '/public/orders/:id/status',
    errors: ['invalid_transition'],
    response: PublicOrderSchema,
    summary: 'Move the whole order (placed, preparing, ready, served, completed, cancelled with cancelReason)',
    tag,
    auth: 'widget',
    screens: 'expo',
    sandbox: 'own_mode',
    scope: 'orders:write',
    params: idParam('ord_ id'),
    body: PublicStatus,
    handler: async (c) => {
      // the pass moves orders along; cancelling and completing are the till's
      if (c.caller?.screen && !PASS_STATUSES.has(c.body.status)) {
        throw new ApiError('insufficient_scope', `An expo screen moves orders to ${[...PASS_STATUSES].join(', ')}; '${c.body.status}' is done at the till.`, 'status');
      }
      if (c.body.status === 'cancelled' && !c.body.cancelReason) {
        throw new ApiError('parameter_missing', 'cancelReason is required when cancelling an order.', 'cancelReason');
      }
      // the venue's widget key stands for the owner who made it, as a secret key does (screens never cancel, above)
      const ownerApproves = async () => null;
      const saved = await c.services.tx.run((trx) =>
        changeOrderStatus(trx, c.actor(), orderContext(c.services), c.params.id, { status: c.body.status, cancel_reason: c.body.cancelReason }, ownerApproves),
      );
      return one(c, saved);
    },
  }),

  defineRoute({
    method: 'patch',
    path: '/public/orders/:id/items/:itemIndex/status',
    errors: ['invalid_transition', 'order_not_open', 'state_conflict'],
    response: PublicOrderSchema,
    summary: 'Move one line (pending, preparing, ready, served); the order follows its lines',
    tag,
    auth: 'widget',
    screens: 'station',
    sandbox: 'own_mode',
    scope: 'orders:write',
    params: LineParams,
    body: LineStatus,
    handler: async (c) => {
      const saved = await c.services.tx.run((trx) =>
        changeLineStatus(trx, c.actor(), orderContext(c.services), c.params.id, c.params.itemIndex, c.body.status, stationOf(c.caller?.screen, c.body.station)),
      );
      return one(c, saved);
    },
  }),
];
