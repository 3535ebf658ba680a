import { z } from 'zod';
import type { Executor } from '../db/records.ts';
import { named, unix } from '../model/schemas.ts';
import { LINE_STATUSES, ORDER_STATUSES, ORDER_TYPES } from '../model/orders.ts';
import type { OrderItemRow } from '../db/tables/order-items.table.ts';
import type { OrderRow } from '../db/tables/orders.table.ts';

export const PublicOrderLineSchema = named(
  'PublicOrderLine',
  z.object({
    index: z.number().int(),
    menuItemId: z.string(),
    name: z.string(),
    quantity: z.number().int(),
    unitPrice: z.number().int(),
    modifiers: z.array(z.object({ group: z.string(), name: z.string(), priceAdjustment: z.number().int() })),
    notes: z.string().nullable(),
    status: z.enum(LINE_STATUSES),
    station: z.string(),
    round: z.number().int(),
    seat: z.number().int().nullable(),
    course: z.number().int().nullable(),
    sentToKitchenAt: unix().nullable(),
    /** the staff member (`usr_` id) who sent the line's round; null from a guest or a key */
    sentBy: z.string().nullable(),
    readyAt: unix().nullable(),
  }),
);
export type PublicOrderLine = z.output<typeof PublicOrderLineSchema>;

/** An order of the operational surface: every field, or those `fields` selects. */
export const PublicOrderSchema = named(
  'PublicOrder',
  z
    .object({
      id: z.string(),
      orderNumber: z.string(),
      type: z.enum(ORDER_TYPES),
      status: z.enum(ORDER_STATUSES),
      total: z.number().int(),
      createdAt: unix(),
      updatedAt: unix(),
      source: z.string(),
      table: z.string().nullable(),
      tableId: z.string().nullable(),
      tableNumber: z.number().int().nullable(),
      server: z.string().nullable(),
      serverId: z.string().nullable(),
      customer: z.object({ name: z.string().nullable(), phone: z.string().nullable(), email: z.string().nullable() }),
      customerName: z.string().nullable(),
      customerPhone: z.string().nullable(),
      customerEmail: z.string().nullable(),
      deliveryAddress: z.string().nullable(),
      estimatedTimeMinutes: z.number().int().nullable(),
      items: z.array(PublicOrderLineSchema),
      itemCount: z.number().int(),
      subtotal: z.number().int(),
      taxAmount: z.number().int(),
      discountAmount: z.number().int(),
      tipAmount: z.number().int(),
      deliveryFee: z.number().int(),
      currency: z.string(),
      notes: z.string().nullable(),
      placedAt: unix().nullable(),
      completedAt: unix().nullable(),
      cancelledAt: unix().nullable(),
      cancelReason: z.string().nullable(),
      isSelfService: z.boolean(),
      isVirtualTable: z.boolean(),
      virtualTableLabel: z.string().nullable(),
      livemode: z.boolean(),
    })
    .partial(),
);
type PublicOrder = Required<z.output<typeof PublicOrderSchema>>;

/** `GET /public/orders`: a page by number. */
export const PublicOrderPage = named(
  'PublicOrderPage',
  z.object({
    data: z.array(PublicOrderSchema),
    paging: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int(), totalPages: z.number().int(), hasMore: z.boolean() }),
  }),
);

/** A live screen's view (active, kitchen, delivery): every order at once, oldest first. */
export const PublicOrderScreen = named('PublicOrderScreen', z.object({ data: z.array(PublicOrderSchema) }));

/** Where a delivery is (`fields` selects among these). */
export const TrackingSchema = named(
  'DeliveryTracking',
  z
    .object({
      orderId: z.string(),
      orderNumber: z.string(),
      provider: z.string(),
      status: z.enum(['awaiting_dispatch', 'dispatched', 'picked_up', 'delivered', 'cancelled']),
      address: z.string(),
      courier: z.object({ name: z.string().nullable(), phone: z.string().nullable() }).nullable(),
      dispatchedAt: unix().nullable(),
      pickedUpAt: unix().nullable(),
      deliveredAt: unix().nullable(),
      estimatedArrivalAt: unix().nullable(),
      location: z.object({ lat: z.number(), lng: z.number() }).nullable(),
    })
    .partial(),
);

/** A guest's order as the QR pages show it. */
export const GuestOrderSchema = named(
  'GuestOrder',
  PublicOrderSchema.required().pick({
    id: true,
    orderNumber: true,
    type: true,
    status: true,
    tableNumber: true,
    items: true,
    subtotal: true,
    taxAmount: true,
    total: true,
    currency: true,
    customerName: true,
    notes: true,
    placedAt: true,
    createdAt: true,
    updatedAt: true,
  }),
);
export const GUEST_FIELDS = Object.keys(GuestOrderSchema.shape) as FieldName[];

/** A line on the operational and guest surfaces (camelCase, like the rest of /public). */
export const projectLine = (l: OrderItemRow): PublicOrderLine => ({
  index: l.idx,
  menuItemId: l.menu_item_id,
  name: l.name,
  quantity: l.quantity,
  unitPrice: l.unit_price,
  modifiers: (JSON.parse(l.modifiers) as { group: string; name: string; price_adjustment: number }[]).map((m) => ({
    group: m.group,
    name: m.name,
    priceAdjustment: m.price_adjustment,
  })),
  notes: l.notes,
  status: l.status,
  station: l.station,
  round: l.round,
  seat: l.seat,
  course: l.course,
  sentToKitchenAt: l.sent_to_kitchen_at,
  sentBy: l.sent_by,
  readyAt: l.ready_at,
});

interface Row {
  order: OrderRow;
  items: OrderItemRow[];
  tableNumber: number | null;
}

/** Every selectable field of the operational surface: the camelCase twin of each order field. */
const FIELDS = {
  id: (r: Row) => r.order.id,
  orderNumber: (r: Row) => r.order.order_number,
  type: (r: Row) => r.order.type,
  status: (r: Row) => r.order.status,
  total: (r: Row) => r.order.total,
  createdAt: (r: Row) => r.order.created,
  updatedAt: (r: Row) => r.order.updated,
  source: (r: Row) => r.order.source,
  table: (r: Row) => r.order.table_id,
  tableId: (r: Row) => r.order.table_id,
  tableNumber: (r: Row) => r.tableNumber,
  server: (r: Row) => r.order.server_id,
  serverId: (r: Row) => r.order.server_id,
  customer: (r: Row) => ({ name: r.order.customer_name, phone: r.order.customer_phone, email: r.order.customer_email }),
  customerName: (r: Row) => r.order.customer_name,
  customerPhone: (r: Row) => r.order.customer_phone,
  customerEmail: (r: Row) => r.order.customer_email,
  deliveryAddress: (r: Row) => r.order.delivery_address,
  estimatedTimeMinutes: (r: Row) => r.order.estimated_time_minutes,
  items: (r: Row) => r.items.map(projectLine),
  itemCount: (r: Row) => r.items.reduce((s, l) => s + l.quantity, 0),
  subtotal: (r: Row) => r.order.subtotal,
  taxAmount: (r: Row) => r.order.tax_amount,
  discountAmount: (r: Row) => r.order.discount_amount,
  tipAmount: (r: Row) => r.order.tip_amount,
  deliveryFee: (r: Row) => r.order.delivery_fee,
  currency: (r: Row) => r.order.currency,
  notes: (r: Row) => r.order.notes,
  placedAt: (r: Row) => r.order.placed_at,
  completedAt: (r: Row) => r.order.completed_at,
  cancelledAt: (r: Row) => r.order.cancelled_at,
  cancelReason: (r: Row) => r.order.cancel_reason,
  isSelfService: (r: Row) => r.order.is_self_service === 1,
  isVirtualTable: (r: Row) => r.order.is_virtual_table === 1,
  virtualTableLabel: (r: Row) => r.order.virtual_table_label,
  livemode: (r: Row) => r.order.livemode === 1,
} as const satisfies { [K in keyof PublicOrder]: (r: Row) => PublicOrder[K] };

export type FieldName = keyof typeof FIELDS;
export const ALL_FIELDS = Object.keys(FIELDS) as FieldName[];
export const DEFAULT_FIELDS: FieldName[] = ['id', 'orderNumber', 'type', 'status', 'total', 'createdAt'];
/** What a kitchen or dispatch screen needs without asking. */
export const TICKET_FIELDS: FieldName[] = [...DEFAULT_FIELDS, 'tableNumber', 'placedAt', 'notes', 'customerName', 'items'];

/** What a paired screen may read: everything but a guest's contact details (http/screen-keys.ts). */
export const SCREEN_FIELDS: FieldName[] = ALL_FIELDS.filter((f) => !['customer', 'customerPhone', 'customerEmail', 'deliveryAddress'].includes(f));

/** Projects orders to `fields`; table numbers are read in one query, and only when asked. */
export async function project(db: Executor, rows: { order: OrderRow; items: OrderItemRow[] }[], fields: FieldName[]): Promise<z.output<typeof PublicOrderSchema>[]> {
  const numbers = new Map<string, number>();
  const tableIds = fields.includes('tableNumber') ? [...new Set(rows.flatMap((r) => r.order.table_id ?? []))] : [];
  if (tableIds.length) {
    const tables = await db.selectFrom('tables').select(['id', 'number']).where('id', 'in', tableIds).execute();
    for (const t of tables) numbers.set(t.id, t.number);
  }
  return rows.map((r) => {
    const row: Row = { ...r, tableNumber: r.order.table_id ? (numbers.get(r.order.table_id) ?? null) : null };
    return Object.fromEntries(fields.map((f) => [f, FIELDS[f](row)]));
  });
}
