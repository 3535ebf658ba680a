import type { Generated, Selectable } from 'kysely';
import type { LineStatus } from '../../model/orders.ts';

export interface OrderItemsTable {
  id: string;
  restaurant_id: string;
  order_id: string;
  /** zero-based position in the order; the line's public address */
  idx: number;
  menu_item_id: string;
  name: string;
  quantity: number;
  unit_price: number;
  /** JSON array of the chosen modifiers as priced at order time */
  modifiers: string;
  /** (unit_price + modifier adjustments) × quantity */
  line_subtotal: number;
  tax_rate: number;
  tax_amount: number;
  notes: string | null;
  status: LineStatus;
  station: string;
  /** 1 for the first round, 2 for the next lines appended to the order, … */
  round: number;
  /** the guest's seat at the table (1, 2, …); null when nobody said */
  seat: number | null;
  /** the course the line is served with (1 first); null when nobody said */
  course: number | null;
  /** 1: the line's course is held: no ticket, no screen until it is fired */
  held: Generated<number>;
  /** off this line (a comp is the whole line); the line's tax is on what is left */
  discount_amount: Generated<number>;
  discount_reason: string | null;
  discount_approved_by: string | null;
  /** a voided line stays on the order, counted in no total */
  voided_at: number | null;
  void_reason: string | null;
  voided_by: string | null;
  sent_to_kitchen_at: number | null;
  /** the staff member who sent the line's round (rang it in, or fired its course); null from a guest or a key */
  sent_by: string | null;
  ready_at: number | null;
  created: number;
  updated: number;
}

/** A row as read. */
export type OrderItemRow = Selectable<OrderItemsTable>;

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    order_items: true;
  }
}
