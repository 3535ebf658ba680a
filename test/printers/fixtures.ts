import { insertRecord, updateRecord } from '../../server/db/records.ts';
import { runOrderHooks } from '../../server/domain/orders/hooks.ts';
import { loadOrder } from '../../server/domain/orders/load.ts';
import { newId, PREFIXES } from '../../server/ids.ts';
import type { Actor } from '../../server/services.ts';
import { PrinterEmulator } from '../../printers/emulator.ts';
import type { TestHub } from '../helpers/server.ts';
import type { OrderItemRow } from '../../server/db/tables/order-items.table.ts';
import type { OrderRow } from '../../server/db/tables/orders.table.ts';

/**
 * Orders written the way the orders feature's commands write them: records through
 * insertRecord/updateRecord inside one transaction, then runOrderHooks in that same
 * transaction. The printers tests do not depend on the orders API.
 */

export interface Line {
  name: string;
  station: string;
  quantity?: number;
  unit_price?: number;
  tax_rate?: number;
  modifiers?: { group: string; name: string; price_adjustment: number }[];
  notes?: string | null;
}

export interface OrderSpec {
  lines: Line[];
  status?: OrderRow['status'];
  livemode?: boolean;
  notes?: string | null;
  tableId?: string | null;
  serverId?: string | null;
  type?: OrderRow['type'];
  customerName?: string | null;
  restaurantId?: string;
}

const actorOf = (hub: TestHub, livemode: boolean, restaurantId = hub.restaurant.id): Actor => ({
  restaurantId,
  livemode,
  now: hub.clock.now(),
});

let orderCounter = 0;

function itemRow(actor: Actor, orderId: string, idx: number, round: number, l: Line) {
  const unit = l.unit_price ?? 1000;
  const qty = l.quantity ?? 1;
  const mods = l.modifiers ?? [];
  const line_subtotal = (unit + mods.reduce((a, m) => a + m.price_adjustment, 0)) * qty;
  const tax_rate = l.tax_rate ?? 0.1;
  const now = Math.floor(actor.now / 1000);
  return {
    id: newId(PREFIXES.orderItem, actor.now),
    restaurant_id: actor.restaurantId,
    order_id: orderId,
    idx,
    menu_item_id: newId(PREFIXES.menuItem, actor.now),
    name: l.name,
    quantity: qty,
    unit_price: unit,
    modifiers: JSON.stringify(mods),
    line_subtotal,
    tax_rate,
    tax_amount: Math.round(line_subtotal * tax_rate),
    notes: l.notes ?? null,
    status: 'pending' as const,
    station: l.station,
    round,
    sent_to_kitchen_at: null,
    ready_at: null,
    created: now,
    updated: now,
  };
}

function totals(items: OrderItemRow[]) {
  const subtotal = items.reduce((a, i) => a + i.line_subtotal, 0);
  const tax_amount = items.reduce((a, i) => a + i.tax_amount, 0);
  return { subtotal, tax_amount, total: subtotal + tax_amount };
}

export async function createOrder(hub: TestHub, spec: OrderSpec): Promise<{ order: OrderRow; items: OrderItemRow[] }> {
  const livemode = spec.livemode ?? true;
  const actor = actorOf(hub, livemode, spec.restaurantId);
  const status = spec.status ?? 'placed';
  return hub.server.services.tx.run(async (trx) => {
    const id = newId(PREFIXES.order, actor.now);
    const now = Math.floor(actor.now / 1000);
    const items: OrderItemRow[] = [];
    for (const [i, l] of spec.lines.entries()) items.push(await insertRecord(trx, 'order_items', itemRow(actor, id, i, 1, l)));
    const order = await insertRecord(trx, 'orders', {
      id,
      restaurant_id: actor.restaurantId,
      order_number: String(++orderCounter + 100),
      business_date: '2026-11-02',
      type: spec.type ?? 'dine_in',
      status,
      source: 'pos',
      table_id: spec.tableId ?? null,
      server_id: spec.serverId ?? null,
      customer_id: null,
      customer_name: spec.customerName ?? null,
      customer_phone: null,
      customer_email: null,
      delivery_address: null,
      estimated_time_minutes: null,
      ...totals(items),
      discount_amount: 0,
      tip_amount: 0,
      delivery_fee: 0,
      amount_paid: 0,
      currency: 'EUR',
      notes: spec.notes ?? null,
      placed_at: status === 'draft' ? null : now,
      completed_at: null,
      cancelled_at: null,
      cancel_reason: null,
      is_self_service: 0,
      is_virtual_table: 0,
      virtual_table_label: null,
      qr_code_id: null,
      livemode: livemode ? 1 : 0,
      created: now,
      updated: now,
    });
    await runOrderHooks(trx, hub.server.services.registry.hooks.orders, { actor, order, items, previousStatus: null, newItemIds: items.map((i) => i.id), changedItemIds: [] });
    return { order, items };
  });
}

/** Appends a round of lines, as the orders feature's "add items" command will. */
export async function appendRound(hub: TestHub, orderId: string, lines: Line[]) {
  return hub.server.services.tx.run(async (trx) => {
    const { order, items } = (await loadOrder(trx, hub.restaurant.id, orderId))!;
    const actor = actorOf(hub, order.livemode === 1);
    const round = Math.max(...items.map((i) => i.round)) + 1;
    const added: OrderItemRow[] = [];
    for (const [i, l] of lines.entries()) added.push(await insertRecord(trx, 'order_items', itemRow(actor, order.id, items.length + i, round, l)));
    const all = [...items, ...added];
    const saved = (await updateRecord(trx, 'orders', order, { ...totals(all), updated: Math.floor(actor.now / 1000) }))!;
    await runOrderHooks(trx, hub.server.services.registry.hooks.orders, { actor, order: saved, items: all, previousStatus: order.status, newItemIds: added.map((a) => a.id), changedItemIds: [] });
    return { order: saved, items: all, added };
  });
}

export async function setStatus(hub: TestHub, orderId: string, status: OrderRow['status']) {
  return hub.server.services.tx.run(async (trx) => {
    const { order, items } = (await loadOrder(trx, hub.restaurant.id, orderId))!;
    const actor = actorOf(hub, order.livemode === 1);
    const now = Math.floor(actor.now / 1000);
    const saved = (await updateRecord(trx, 'orders', order, {
      status,
      updated: now,
      ...(status === 'placed' && { placed_at: now }),
      ...(status === 'completed' && { completed_at: now }),
    }))!;
    await runOrderHooks(trx, hub.server.services.registry.hooks.orders, { actor, order: saved, items, previousStatus: order.status, newItemIds: [], changedItemIds: [] });
    return saved;
  });
}

export async function addTable(hub: TestHub, number: number): Promise<string> {
  const actor = actorOf(hub, true);
  const now = Math.floor(actor.now / 1000);
  return hub.server.services.tx.run(async (trx) => {
    const row = await insertRecord(trx, 'tables', {
      id: newId(PREFIXES.table, actor.now),
      restaurant_id: actor.restaurantId,
      number,
      capacity: 4,
      min_capacity: null,
      zone: null,
      status: 'available',
      is_active: 1,
      created: now,
      updated: now,
    });
    return row.id;
  });
}

export async function addServer(hub: TestHub, name: string): Promise<string> {
  const actor = actorOf(hub, true);
  const now = Math.floor(actor.now / 1000);
  return hub.server.services.tx.run(async (trx) => {
    const row = await insertRecord(trx, 'users', {
      id: newId(PREFIXES.user, actor.now),
      restaurant_id: actor.restaurantId,
      email: `${name.toLowerCase()}@test.local`,
      name,
      role: 'server',
      password_hash: null,
      hourly_rate: null,
      is_active: 1,
      created: now,
      updated: now,
    });
    return row.id;
  });
}

/** A printer record pointing at an emulator. */
export async function addPrinter(
  hub: Pick<TestHub, 'api'>,
  emu: PrinterEmulator,
  fields: { name: string; stations?: string[]; backup_printer?: string; prints_receipts?: boolean; paper_width?: 58 | 80; language?: 'escpos' | 'starprnt' },
) {
  const res = await hub.api.post('/v1/printers', { transport: { type: 'tcp', host: emu.host, port: emu.port }, ...fields });
  if (res.status !== 201) throw new Error(`printer create failed: ${JSON.stringify(res.body)}`);
  return res.body as { id: string; name: string };
}

/** Works the print queue off now (what the commit wake-up and the sweep do) and waits for it. */
export const drain = (hub: TestHub) => hub.server.services.printQueue!.drain();

/** Print jobs as a key sees them (the live key by default: sandbox jobs are the sandbox key's). */
export async function jobsOf(hub: TestHub, query = '', key?: string) {
  const res = await hub.api.get(`/v1/print_jobs?limit=100${query}`, key ? { key } : undefined);
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body.data as any[];
}

export { PrinterEmulator };
