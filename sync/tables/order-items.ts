import type { SlotBatch, Slots, TouchRule } from '../table-behaviour.ts';
import { noteOrder } from '../touched.ts';

type Row = Record<string, unknown>;

const slotOf = (row: Row) => `${row.order_id}|${row.idx}`;

/**
 * A line's position on its check. A new line whose place another line holds here, or a line
 * the other side moved (a merge, its own placing) to such a place, steps aside (below any place
 * a node steps lines to), and the check's lines are put in their places after the batch
 * (server/domain/orders/positions.ts, sync/follow-ups/orders.ts).
 */
export function linePositions(b: SlotBatch): Slots {
  const taken = new Set<string>();
  let aside = -1_000_000;
  return {
    async load(fresh) {
      const orderIds = [...new Set(fresh.filter((c) => c.table === 'order_items').map((c) => String(c.data.order_id)))];
      for (let i = 0; i < orderIds.length; i += 500) {
        const rows = await b.trx.selectFrom('order_items').select(['order_id', 'idx']).where('order_id', 'in', orderIds.slice(i, i + 500)).execute();
        for (const r of rows) taken.add(slotOf(r));
      }
    },
    async onInsert(row) {
      if (taken.has(slotOf(row))) row.idx = aside--;
      taken.add(slotOf(row));
    },
    async onPatch(local, patch) {
      if (!('idx' in patch || 'order_id' in patch)) return;
      const orderId = String(patch.order_id ?? local.order_id);
      const idx = Number(patch.idx ?? local.idx);
      await b.flush();
      const holder = await b.trx.selectFrom('order_items').select('id').where('order_id', '=', orderId).where('idx', '=', idx).where('id', '!=', String(local.id)).executeTakeFirst();
      if (holder) patch.idx = aside--;
      b.touched.placed.add(orderId);
      b.touched.placed.add(String(local.order_id));
    },
  };
}

export const orderItemsTouched: TouchRule = {
  before(t, c) {
    noteOrder(t, String(c.data.order_id));
  },
  after(t, c, row, inserted, local) {
    // a line's check here, which is not the one the change names when this side merged it away
    const o = noteOrder(t, String(row.order_id));
    (inserted ? o.newItemIds : o.changedItemIds).push(c.row_id);
    // a held course the other side fired: its lines go to their stations here too
    if (local && Number(local.held) === 1 && Number(row.held) === 0) o.firedItemIds.push(c.row_id);
    // voided on the other side: a ticket this node printed of it is taken back (printers/taken-back.ts)
    if (local && local.voided_at == null && row.voided_at != null) o.voidedItemIds.push(c.row_id);
  },
};
