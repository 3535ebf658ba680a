import { presentOrder } from '../../server/presenters/orders.ts';
import type { Executor } from '../../server/db/records.ts';
import { insertRecord, updateRecord } from '../../server/db/records.ts';
import { emitEvent } from '../../server/domain/events/emit.ts';
import { createStation } from '../../server/domain/menu/stations.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import type { Actor, Services } from '../../server/services.ts';
import type { OrderItemRow } from '../../server/db/tables/order-items.table.ts';
import type { OrderRow } from '../../server/db/tables/orders.table.ts';

/**
 * Writes orders the way the order commands do (records.ts inside one transaction, with the
 * command's event), so the live feed sees exactly what it will see in production.
 */
export function actorFor(services: Services, restaurantId: string, livemode = true): Actor {
  return { restaurantId, livemode, now: services.clock.now() };
}

let counter = 0;

export interface NewOrder {
  lines: { station: string; name?: string; notes?: string }[];
  tableId?: string | null;
  qrCodeId?: string | null;
  notes?: string | null;
}

export async function placeOrder(services: Services, actor: Actor, input: NewOrder): Promise<{ order: OrderRow; items: OrderItemRow[] }> {
  return services.tx.run(async (trx) => {
    const now = Math.floor(actor.now / 1000);
    counter++;
    const order = await insertRecord(trx, 'orders', {
      id: newId(PREFIXES.order, actor.now),
      restaurant_id: actor.restaurantId,
      order_number: `RT-${process.pid}-${counter}`,
      business_date: '2026-11-02',
      type: 'dine_in',
      status: 'placed',
      source: 'test',
      table_id: input.tableId ?? null,
      server_id: null,
      customer_id: null,
      customer_name: null,
      customer_phone: null,
      customer_email: null,
      delivery_address: null,
      estimated_time_minutes: null,
      subtotal: 1000 * input.lines.length,
      tax_amount: 0,
      discount_amount: 0,
      tip_amount: 0,
      delivery_fee: 0,
      amount_paid: 0,
      total: 1000 * input.lines.length,
      currency: 'EUR',
      notes: input.notes ?? null,
      placed_at: now,
      completed_at: null,
      cancelled_at: null,
      cancel_reason: null,
      is_self_service: input.qrCodeId ? 1 : 0,
      is_virtual_table: 0,
      virtual_table_label: null,
      qr_code_id: input.qrCodeId ?? null,
      livemode: actor.livemode ? 1 : 0,
      created: now,
      updated: now,
    });
    const items: OrderItemRow[] = [];
    for (const [idx, line] of input.lines.entries()) {
      items.push(
        await insertRecord(trx, 'order_items', {
          id: newId(PREFIXES.orderItem, actor.now),
          restaurant_id: actor.restaurantId,
          order_id: order.id,
          idx,
          menu_item_id: 'mi_test',
          name: line.name ?? `Dish ${idx}`,
          quantity: 1,
          unit_price: 1000,
          modifiers: '[]',
          line_subtotal: 1000,
          tax_rate: 0,
          tax_amount: 0,
          notes: line.notes ?? null,
          status: 'pending',
          station: line.station,
          round: 1,
          sent_to_kitchen_at: now,
          ready_at: null,
          created: now,
          updated: now,
        }),
      );
    }
    await emitEvent(trx, services.registry.hooks, actor, 'order.created', presentOrder(order, items));
    return { order, items };
  });
}

/** Moves one line, stamps the order, emits order.updated: one command, one transaction. */
export async function setItemStatus(services: Services, actor: Actor, orderId: string, idx: number, status: OrderItemRow['status']) {
  return services.tx.run(async (trx) => {
    const now = Math.floor(actor.now / 1000);
    const item = await trx.selectFrom('order_items').select('id').where('order_id', '=', orderId).where('idx', '=', idx).executeTakeFirstOrThrow();
    await updateRecord(trx, 'order_items', { id: item.id, restaurant_id: actor.restaurantId }, { status, ready_at: status === 'ready' ? now : null, updated: now });
    const order = (await updateRecord(trx, 'orders', { id: orderId, restaurant_id: actor.restaurantId }, { updated: now }))!;
    const items = await itemsOf(trx, orderId);
    await emitEvent(trx, services.registry.hooks, actor, 'order.updated', presentOrder(order, items));
    return { order, items };
  });
}

const itemsOf = (db: Executor, orderId: string) => db.selectFrom('order_items').selectAll().where('order_id', '=', orderId).orderBy('idx').execute();

export async function addStation(services: Services, actor: Actor, key: string): Promise<void> {
  await services.tx.run((trx) => createStation(trx, actor, { key }));
}
