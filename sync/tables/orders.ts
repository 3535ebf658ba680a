import { sql } from 'kysely';
import { updateRecord, type Executor } from '../../server/db/records.ts';
import type { OrderRow } from '../../server/db/tables/orders.table.ts';
import type { SlotBatch, Slots, TouchRule } from '../table-behaviour.ts';
import { noteOrder } from '../touched.ts';
import { notesRepointedCustomer } from './customers.ts';

type Row = Record<string, unknown>;
type Counter = { business_date: string; node_tag: string; last: number };

const slotOf = (row: Row) => `${row.business_date}|${row.order_number}`;

/**
 * Order numbers are unique per business day. Each node numbers with its own tag, but a hub
 * restored from a backup numbers again from where the backup stood. Of two orders with one
 * number, the one with the lower id keeps it on every node and the other takes its id's last
 * characters as a suffix; this node's counter moves past every number it learns of.
 */
export function orderNumbers(b: SlotBatch): Slots {
  const taken = new Set<string>();
  const counters = new Map<string, Counter>();
  return {
    // almost every new order clashes with nothing, and its insert then stays in its table's multi-row run
    async load(fresh) {
      const numbers = [...new Set(fresh.filter((c) => c.table === 'orders').map((c) => String(c.data.order_number)))];
      for (let i = 0; i < numbers.length; i += 500) {
        const rows = await b.trx
          .selectFrom('orders')
          .select(['business_date', 'order_number'])
          .where('restaurant_id', '=', b.restaurantId)
          .where('order_number', 'in', numbers.slice(i, i + 500))
          .execute();
        for (const r of rows) taken.add(slotOf(r));
      }
    },
    async onInsert(row) {
      noteNumber(counters, row);
      if (taken.has(slotOf(row))) {
        await b.flush();
        await makeRoom(b, row);
      }
      taken.add(slotOf(row));
    },
    end: () => raiseCounters(b.trx, b.restaurantId, counters),
  };
}

async function makeRoom(b: SlotBatch, row: Row): Promise<void> {
  const clash = await b.trx
    .selectFrom('orders')
    .select(['id', 'restaurant_id', 'order_number'])
    .where('restaurant_id', '=', String(row.restaurant_id))
    .where('business_date', '=', String(row.business_date))
    .where('order_number', '=', String(row.order_number))
    .where('id', '!=', String(row.id))
    .executeTakeFirst();
  if (!clash) return;
  const suffixed = (id: string) => `${clash.order_number}-${id.slice(-4)}`;
  if (String(row.id) > clash.id) {
    row.order_number = suffixed(String(row.id));
  } else {
    const moved = await updateRecord(b.trx, 'orders', { id: clash.id, restaurant_id: clash.restaurant_id }, { order_number: suffixed(clash.id) });
    if (moved) b.current.set(`orders:${clash.id}`, moved as Row);
  }
}

/** The highest number of each day and node a batch brought: this node's counters move past them. */
function noteNumber(counters: Map<string, Counter>, row: Row): void {
  const [, tag, n] = /^(\D*)(\d+)/.exec(String(row.order_number)) ?? [];
  if (n === undefined) return;
  const key = `${row.business_date}|${tag}`;
  const seen = counters.get(key);
  if (!seen || seen.last < Number(n)) counters.set(key, { business_date: String(row.business_date), node_tag: tag, last: Number(n) });
}

async function raiseCounters(trx: Executor, restaurantId: string, counters: Map<string, Counter>): Promise<void> {
  for (const c of counters.values()) {
    await trx
      .insertInto('order_counters')
      .values({ restaurant_id: restaurantId, ...c })
      .onConflict((oc) =>
        oc.columns(['restaurant_id', 'business_date', 'node_tag']).doUpdateSet({ last: sql<number>`case when order_counters.last < ${c.last} then ${c.last} else order_counters.last end` }),
      )
      .execute();
  }
}

export const ordersTouched: TouchRule = {
  before(t, c, local) {
    notesRepointedCustomer(t, c, local);
    const note = noteOrder(t, c.row_id);
    // the order's status before this batch: from its first own change (its lines may come first)
    if (note.previousStatus === undefined) note.previousStatus = (local?.status as OrderRow['status'] | undefined) ?? null;
  },
  after(t, c) {
    noteOrder(t, c.row_id);
  },
};
