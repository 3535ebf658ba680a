import type { OrderItemRow, OrderRow } from '../../domain/orders/hooks.ts';

/** An order line as the API shows it. `modifiers`: [{ group, name, price_adjustment }]. */
export function presentOrderItem(row: OrderItemRow) {
  return {
    object: 'order_item' as const,
    index: row.idx,
    menu_item: row.menu_item_id as string | object,
    name: row.name,
    quantity: row.quantity,
    unit_price: row.unit_price,
    modifiers: JSON.parse(row.modifiers) as { group: string; name: string; price_adjustment: number }[],
    notes: row.notes,
    status: row.status,
    station: row.station,
    // 1 for the first lines, 2, 3 … for lines a later round added (the kitchen shows them as new)
    round: row.round,
    sent_to_kitchen_at: row.sent_to_kitchen_at,
    ready_at: row.ready_at,
  };
}

/** The full order resource; the one shape used by the API, events and live screens. */
export function presentOrder(order: OrderRow, items: OrderItemRow[]) {
  return {
    id: order.id,
    object: 'order' as const,
    created: order.created,
    updated: order.updated,
    order_number: order.order_number,
    type: order.type,
    status: order.status,
    source: order.source,
    table: order.table_id as string | object | null,
    server: order.server_id as string | object | null,
    customer: { name: order.customer_name, phone: order.customer_phone, email: order.customer_email },
    delivery_address: order.delivery_address,
    estimated_time_minutes: order.estimated_time_minutes,
    items: items.map(presentOrderItem),
    subtotal: order.subtotal,
    tax_amount: order.tax_amount,
    discount_amount: order.discount_amount,
    tip_amount: order.tip_amount,
    delivery_fee: order.delivery_fee,
    total: order.total,
    currency: order.currency,
    notes: order.notes,
    placed_at: order.placed_at,
    completed_at: order.completed_at,
    cancelled_at: order.cancelled_at,
    cancel_reason: order.cancel_reason,
    is_self_service: order.is_self_service === 1,
    is_virtual_table: order.is_virtual_table === 1,
    virtual_table_label: order.virtual_table_label,
    livemode: order.livemode === 1,
  };
}

export type PresentedOrder = ReturnType<typeof presentOrder>;
