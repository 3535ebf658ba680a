import { z } from 'zod';
import { addRound, createOrder } from '../../domain/orders/create-order.ts';
import { findOrder } from '../../domain/orders/find-order.ts';
import { quoteLines } from '../../domain/orders/quote-lines.ts';
import { categoryAvailable, categoryWindowOpen } from '../../domain/orders/menu-availability.ts';
import { wallClock } from '../../domain/wall-clock.ts';
import { assertGuestOrder, resolveToken } from '../../domain/orders/qr-codes.ts';
import { getRestaurant } from '../../domain/restaurants/restaurants.ts';
import { readSettings } from '../../model/settings.ts';
import type { Modifier } from '../../model/menu.ts';
import type { Executor } from '../../db/records.ts';
import { f } from '../../model/fields.ts';
import { guestLookup, limitIp } from '../guest/guard.ts';
import { defineRoute, type Call, type RouteSpec } from '../../http/route.ts';
import type { Actor } from '../../services.ts';
import { orderContext } from './context.ts';
import { GUEST_FIELDS, GuestOrderSchema, project } from '../../presenters/public-orders.ts';
import { QrMenuSchema, QrPageSchema, QrQuoteSchema } from '../../presenters/guest-orders.ts';
import { lines, orderNotes } from './schema.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';
import type { OrderRow } from '../../db/tables/orders.table.ts';

const tag = 'Guest QR ordering';
const tokenParam = z.object({ token: z.string().min(1).max(100) });
const orderParam = z.object({ token: z.string().min(1).max(100), orderId: f.id() });

/** What a guest sees of an order: no contact data, no internal flags. */

const guestLines = () => lines({ menuItemId: f.id() });
const toLines = (items: z.infer<ReturnType<typeof guestLines>>) =>
  items.map((l) => ({ menu_item: l.menuItemId, quantity: l.quantity, modifiers: l.modifiers, notes: l.notes }));

/** Guest orders are real orders: live mode, scoped to the code's restaurant. */
const guestActor = (restaurantId: string, now: number): Actor => ({ restaurantId, livemode: true, now });

// projected to exactly the guest's fields, so every one of them is there
const guestView = async (db: Executor, r: { order: OrderRow; items: OrderItemRow[] }) =>
  (await project(db, [r], GUEST_FIELDS))[0] as z.output<typeof GuestOrderSchema>;

type QrCode = Awaited<ReturnType<typeof resolveToken>>;

/**
 * The code behind the token, after the guest rate limits (per IP, then per restaurant);
 * looked up once per request (the Idempotency-Key scope asks first, then the handler).
 */
const guestToken = async (c: Call<any, any, any>): Promise<QrCode> =>
  (c.ctx.state.qrCode ??= await guestLookup(c, (db) => resolveToken(db, c.params.token), (qr) => qr.restaurant_id));

/** A guest's Idempotency-Keys belong to the QR code they order from. */
const perQrCode = async (c: Call<any, any, any>) => {
  const qr = await guestToken(c);
  return { restaurantId: qr.restaurant_id, namespace: `qr:${qr.id}` };
};

async function context(c: Call<any, any, any>) {
  const qr = await guestToken(c);
  const restaurant = await getRestaurant(c.db, qr.restaurant_id);
  const table = qr.table_id
    ? await c.db.selectFrom('tables').select(['id', 'number']).where('id', '=', qr.table_id).executeTakeFirst()
    : undefined;
  return { qr, restaurant, table: table ?? null, at: wallClock(c.now, restaurant.timezone) };
}

async function activeCategories(db: Executor, restaurantId: string) {
  return db
    .selectFrom('menu_categories')
    .selectAll()
    .where('restaurant_id', '=', restaurantId)
    .where('is_active', '=', 1)
    .orderBy('sort_order')
    .orderBy('created')
    .execute();
}

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/public/qr/:token',
    response: QrPageSchema,
    preflight: limitIp,
    summary: 'Resolve a QR code: restaurant, table, ordering type and the menu categories',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    params: tokenParam,
    handler: async (c) => {
      const { qr, restaurant, table, at } = await context(c);
      const cats = await activeCategories(c.db, restaurant.id);
      const byId = new Map(cats.map((k) => [k.id, k]));
      return {
        qrCode: { token: qr.token, type: qr.type, label: qr.label },
        // language: the guest page's fallback when the phone's languages are none the venue speaks
        restaurant: { name: restaurant.name, slug: restaurant.slug, currency: restaurant.currency, timezone: restaurant.timezone, language: readSettings(restaurant).language },
        table: table ? { id: table.id, number: table.number } : null,
        orderingType: qr.type,
        categories: cats.map((k) => ({
          id: k.id,
          name: k.name,
          description: k.description,
          parentCategory: k.parent_category_id,
          sortOrder: k.sort_order,
          station: k.station,
          imageUrl: k.image_url,
          availableFrom: k.available_from,
          availableUntil: k.available_until,
          availableDays: JSON.parse(k.available_days) as string[],
          availableNow: categoryWindowOpen(k, at) && categoryAvailable(byId, k.id, at),
        })),
      };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/public/qr/:token/menu',
    response: QrMenuSchema,
    preflight: limitIp,
    summary: 'The live menu: active, available items of categories open now, each with its kitchen station',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    params: tokenParam,
    handler: async (c) => {
      const { restaurant, at } = await context(c);
      const cats = await activeCategories(c.db, restaurant.id);
      const byId = new Map(cats.map((k) => [k.id, k]));
      const open = cats.filter((k) => categoryAvailable(byId, k.id, at));
      const openIds = new Set(open.map((k) => k.id));
      const items = (
        await c.db
          .selectFrom('menu_items')
          .selectAll()
          .where('restaurant_id', '=', restaurant.id)
          .where('is_active', '=', 1)
          .where('is_available', '=', 1)
          .orderBy('sort_order')
          .orderBy('created')
          .execute()
      ).filter((i) => openIds.has(i.category_id));
      const groupIds = [...new Set(items.flatMap((i) => JSON.parse(i.modifier_group_ids) as string[]))];
      const groups = groupIds.length
        ? await c.db.selectFrom('modifier_groups').selectAll().where('restaurant_id', '=', restaurant.id).where('id', 'in', groupIds).execute()
        : [];
      const groupById = new Map(
        groups.map((g) => [
          g.id,
          {
            id: g.id,
            name: g.name,
            required: g.required === 1,
            minSelections: g.min_selections,
            maxSelections: g.max_selections,
            modifiers: (JSON.parse(g.modifiers) as Modifier[])
              .filter((m) => m.is_available)
              .map((m) => ({ name: m.name, priceAdjustment: m.price_adjustment, isDefault: m.is_default })),
          },
        ]),
      );
      const order = new Map(open.map((k, i) => [k.id, i]));
      items.sort((a, b) => order.get(a.category_id)! - order.get(b.category_id)!);
      return {
        currency: restaurant.currency,
        categories: open.map((k) => ({ id: k.id, name: k.name, parentCategory: k.parent_category_id, station: k.station })),
        items: items.map((i) => ({
          id: i.id,
          name: i.name,
          description: i.description,
          price: i.price,
          category: i.category_id,
          station: byId.get(i.category_id)?.station ?? 'kitchen',
          imageUrl: i.image_url,
          allergens: JSON.parse(i.allergens) as string[],
          tags: JSON.parse(i.tags) as string[],
          preparationTimeMinutes: i.preparation_time_minutes,
          modifierGroups: (JSON.parse(i.modifier_group_ids) as string[]).flatMap((id) => groupById.get(id) ?? []),
        })),
      };
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/qr/:token/quote',
    errors: ['menu_item_unavailable', 'modifier_invalid'],
    response: QrQuoteSchema,
    preflight: limitIp,
    summary: "What a guest's cart costs now, priced and checked as the order would be (each line's price and their sum); nothing is written",
    tag,
    auth: 'none',
    sandbox: 'keyless',
    params: tokenParam,
    body: z.object({ items: guestLines() }),
    handler: async (c) => {
      const qr = await guestToken(c);
      return quoteLines(c.db, qr.restaurant_id, c.now, toLines(c.body.items));
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/qr/:token/orders',
    errors: ['menu_item_unavailable', 'modifier_invalid'],
    response: GuestOrderSchema,
    preflight: limitIp,
    summary: "A guest's self-service order for the code's table; placed at once, priced from the menu",
    tag,
    auth: 'none',
    sandbox: 'keyless',
    params: tokenParam,
    body: z.object({ items: guestLines(), customerName: f.name().nullable().optional(), notes: orderNotes() }),
    idempotent: true,
    idempotencyScope: perQrCode,
    status: 201,
    handler: async (c) => {
      const qr = await guestToken(c);
      const created = await createOrder(c.db, guestActor(qr.restaurant_id, c.now), orderContext(c.services), {
        type: qr.type,
        table: qr.table_id,
        items: toLines(c.body.items),
        customer_name: c.body.customerName,
        notes: c.body.notes,
        source: 'qr',
        status: 'placed',
        is_self_service: true,
        qr_code_id: qr.id,
        guestMenu: true,
      });
      return guestView(c.db, created);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/qr/:token/orders/:orderId/items',
    errors: ['menu_item_unavailable', 'modifier_invalid', 'order_not_open'],
    response: GuestOrderSchema,
    preflight: limitIp,
    summary: 'Add a round to an open order of this table; the new lines start pending',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    params: orderParam,
    body: z.object({ items: guestLines() }),
    idempotent: true,
    idempotencyScope: perQrCode,
    status: 201,
    handler: async (c) => {
      const qr = await guestToken(c);
      // locked: two rounds sent at once would otherwise both take the same line positions
      const found = await findOrder(c.db, guestActor(qr.restaurant_id, c.now), c.params.orderId, { forUpdate: true });
      await assertGuestOrder(c.db, qr, found?.order, c.params.orderId);
      const saved = await addRound(c.db, guestActor(qr.restaurant_id, c.now), orderContext(c.services), found!, toLines(c.body.items), {
        guestMenu: true,
      });
      return guestView(c.db, saved);
    },
  }),

  defineRoute({
    method: 'get',
    path: '/public/qr/:token/orders/:orderId',
    response: GuestOrderSchema,
    preflight: limitIp,
    summary: 'The current state of an order placed from this table',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    params: orderParam,
    handler: async (c) => {
      const qr = await guestToken(c);
      const found = await findOrder(c.db, guestActor(qr.restaurant_id, c.now), c.params.orderId);
      await assertGuestOrder(c.db, qr, found?.order, c.params.orderId);
      return guestView(c.db, found!);
    },
  }),
];
