import { z } from 'zod';
import { LINE_STATUSES, ORDER_STATUSES, ORDER_TYPES } from '../model/orders.ts';
import { named, ref, unix } from '../model/schemas.ts';
import { MenuItemSchema } from './menu-items.ts';
import { TableSchema } from './tables.ts';
import { balanceOf } from '../model/payments.ts';
import { checkDiscountOf, lineBills, type LineBill } from '../model/totals.ts';
import type { OrderItemRow } from '../db/tables/order-items.table.ts';
import type { OrderRow } from '../db/tables/orders.table.ts';

export const LineModifierSchema = named('LineModifier', z.object({ group: z.string(), name: z.string(), price_adjustment: z.number().int() }));

export const OrderItemSchema = named(
  'OrderItem',
  z.object({
    object: z.literal('order_item'),
    /** the line's id (oi_…): what a payment by `items` names */
    id: z.string(),
    index: z.number().int(),
    menu_item: ref(MenuItemSchema),
    name: z.string(),
    quantity: z.number().int(),
    unit_price: z.number().int(),
    modifiers: z.array(LineModifierSchema),
    notes: z.string().nullable(),
    status: z.enum(LINE_STATUSES),
    station: z.string(),
    /** 1 for the first lines, 2, 3 … for lines a later round added (the kitchen shows them as new) */
    round: z.number().int(),
    /** the guest's seat at the table (1, 2, …); null when nobody said */
    seat: z.number().int().nullable(),
    /** the course the line is served with (1 first); null when nobody said */
    course: z.number().int().nullable(),
    /** the line's course is held: the stations have not got it yet (fire the course to send it) */
    held: z.boolean(),
    /**
     * the line's price as rung in, before any discount: (unit_price + its modifiers'
     * price_adjustment) × quantity. What a discount of the line is taken from (a comp is all of
     * it); the order's subtotal is these summed, voided lines aside.
     */
    subtotal: z.number().int(),
    /** off this line, with why; a comp is the whole line */
    discount_amount: z.number().int(),
    discount_reason: z.string().nullable(),
    /** the whole line given away (a discount of all of it) */
    comped: z.boolean(),
    /** the line's share of the check's discount */
    check_discount_amount: z.number().int(),
    /** the line's tax, on what it costs after its discounts (inside net_amount where prices include tax) */
    tax_amount: z.number().int(),
    /**
     * what the guest pays for this line: its price less its own discount and its share of the
     * check's discount, plus its tax where tax is added on top; 0 when voided. The lines' net
     * amounts plus the tip and delivery fee make the order's total.
     */
    net_amount: z.number().int(),
    /** set when the line was voided: it stays listed and counts in no total */
    voided_at: unix().nullable(),
    void_reason: z.string().nullable(),
    sent_to_kitchen_at: unix().nullable(),
    /** the staff member (`usr_` id) who sent the line's round: rang it in or fired its course; null from a guest or a key */
    sent_by: z.string().nullable(),
    ready_at: unix().nullable(),
  }),
);
export type OrderItem = z.output<typeof OrderItemSchema>;

export const SeatTotalSchema = named(
  'SeatTotal',
  z.object({
    /** the seat (1, 2, …); null for the lines nobody put on a seat */
    seat: z.number().int().nullable(),
    /** the sum of the seat's lines' net amounts */
    net_amount: z.number().int(),
    tax_amount: z.number().int(),
    /** lines on the seat, voided ones aside */
    lines: z.number().int(),
  }),
);

/** An expanded `server`: the staff user without pay (orders:read must not reveal wages). */
export const OrderServerSchema = named(
  'OrderServer',
  z.object({ id: z.string(), object: z.literal('staff_user'), name: z.string(), email: z.string().nullable(), role: z.string() }),
);
export type OrderServer = z.output<typeof OrderServerSchema>;


export const OrderSchema = named(
  'Order',
  z.object({
    id: z.string(),
    object: z.literal('order'),
    created: unix(),
    updated: unix(),
    order_number: z.string(),
    type: z.enum(ORDER_TYPES),
    status: z.enum(ORDER_STATUSES),
    source: z.string(),
    table: ref(TableSchema).nullable(),
    /** the party's size, asked when the table was opened (POST /v1/orders/{id}/covers corrects it); null when nobody said */
    covers: z.number().int().nullable(),
    server: ref(OrderServerSchema).nullable(),
    customer: z.object({ name: z.string().nullable(), phone: z.string().nullable(), email: z.string().nullable() }),
    delivery_address: z.string().nullable(),
    estimated_time_minutes: z.number().int().nullable(),
    items: z.array(OrderItemSchema),
    subtotal: z.number().int(),
    tax_amount: z.number().int(),
    discount_amount: z.number().int(),
    tip_amount: z.number().int(),
    delivery_fee: z.number().int(),
    total: z.number().int(),
    /** true: the lines' prices include their tax (tax_amount is the part inside, not added to total) */
    prices_include_tax: z.boolean(),
    /** the check's own discount, the lines' own discounts aside (discount_amount is both): the sum of the lines' check_discount_amount */
    check_discount_amount: z.number().int(),
    /**
     * what a discount of the whole check is taken from: subtotal less the lines' own discounts
     * (voided lines aside). A percent off the check is of this, and an amount off it is at most this.
     */
    check_discount_base: z.number().int(),
    /** why the check (not a line) was discounted */
    discount_reason: z.string().nullable(),
    /** each seat's share of the check: the lines' net amounts by seat (they add up to total − tip_amount − delivery_fee) */
    seats: z.array(SeatTotalSchema),
    /** payments less refunds, tips aside */
    amount_paid: z.number().int(),
    /** refunds given after the check was completed (returns): the check owes nothing for them */
    amount_returned: z.number().int(),
    /** what the guest still owes: total − amount_returned − amount_paid, never below 0 */
    amount_due: z.number().int(),
    payment_status: z.enum(['unpaid', 'partially_paid', 'paid']),
    currency: z.string(),
    notes: z.string().nullable(),
    placed_at: unix().nullable(),
    completed_at: unix().nullable(),
    cancelled_at: unix().nullable(),
    cancel_reason: z.string().nullable(),
    /** the manager who approved cancelling a check with lines at the stations or money taken (null: by a key or not needed) */
    cancel_approved_by: z.string().nullable(),
    /** set on a check merged into another (POST /v1/orders/{id}/merge): the order that took its lines and payments */
    merged_into: z.string().nullable(),
    is_self_service: z.boolean(),
    is_virtual_table: z.boolean(),
    virtual_table_label: z.string().nullable(),
    livemode: z.boolean(),
  }),
);
export type Order = z.output<typeof OrderSchema>;

/** An order line as the API shows it. `modifiers`: [{ group, name, price_adjustment }]. */
export function presentOrderItem(row: OrderItemRow, bill: LineBill): OrderItem {
  return {
    object: 'order_item',
    id: row.id,
    index: row.idx,
    menu_item: row.menu_item_id,
    name: row.name,
    quantity: row.quantity,
    unit_price: row.unit_price,
    modifiers: JSON.parse(row.modifiers) as { group: string; name: string; price_adjustment: number }[],
    notes: row.notes,
    status: row.status,
    station: row.station,
    round: row.round,
    seat: row.seat,
    course: row.course,
    held: row.held === 1,
    subtotal: row.line_subtotal,
    discount_amount: row.discount_amount,
    discount_reason: row.discount_reason,
    comped: bill.comped,
    check_discount_amount: bill.check_discount,
    tax_amount: bill.tax,
    net_amount: bill.net_amount,
    voided_at: row.voided_at,
    void_reason: row.void_reason,
    sent_to_kitchen_at: row.sent_to_kitchen_at,
    sent_by: row.sent_by,
    ready_at: row.ready_at,
  };
}

/** The full order resource; the one shape used by the API, events and live screens. */
/** The lines' net amounts by seat, seats in order and the lines without a seat last. */
function seatTotals(items: OrderItemRow[], bills: LineBill[]) {
  const seats = new Map<number | null, { seat: number | null; net_amount: number; tax_amount: number; lines: number }>();
  items.forEach((l, i) => {
    const s = seats.get(l.seat) ?? { seat: l.seat, net_amount: 0, tax_amount: 0, lines: 0 };
    s.net_amount += bills[i]!.net_amount;
    s.tax_amount += bills[i]!.tax;
    if (!l.voided_at) s.lines++;
    seats.set(l.seat, s);
  });
  return [...seats.values()].sort((a, b) => (a.seat ?? Infinity) - (b.seat ?? Infinity));
}

export function presentOrder(order: OrderRow, items: OrderItemRow[]): Order {
  const bills = lineBills(items, order);
  return {
    id: order.id,
    object: 'order',
    created: order.created,
    updated: order.updated,
    order_number: order.order_number,
    type: order.type,
    status: order.status,
    source: order.source,
    table: order.table_id,
    covers: order.covers ?? null,
    server: order.server_id,
    customer: { name: order.customer_name, phone: order.customer_phone, email: order.customer_email },
    delivery_address: order.delivery_address,
    estimated_time_minutes: order.estimated_time_minutes,
    items: items.map((l, i) => presentOrderItem(l, bills[i]!)),
    subtotal: order.subtotal,
    tax_amount: order.tax_amount,
    discount_amount: order.discount_amount,
    tip_amount: order.tip_amount,
    delivery_fee: order.delivery_fee,
    total: order.total,
    prices_include_tax: order.prices_include_tax === 1,
    ...checkDiscountOf(bills),
    discount_reason: order.discount_reason,
    seats: seatTotals(items, bills),
    ...balanceOf(order),
    currency: order.currency,
    notes: order.notes,
    placed_at: order.placed_at,
    completed_at: order.completed_at,
    cancelled_at: order.cancelled_at,
    cancel_reason: order.cancel_reason,
    cancel_approved_by: order.cancel_approved_by ?? null,
    merged_into: order.merged_into ?? null,
    is_self_service: order.is_self_service === 1,
    is_virtual_table: order.is_virtual_table === 1,
    virtual_table_label: order.virtual_table_label,
    livemode: order.livemode === 1,
  };
}

export type PresentedOrder = ReturnType<typeof presentOrder>;
