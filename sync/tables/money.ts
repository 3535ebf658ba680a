import type { TouchRule } from '../table-behaviour.ts';

/** Payments and refunds: the checks whose money a batch moved are counted again (sync/follow-ups/orders.ts). */
export const moneyTouched: TouchRule = {
  before(t, c, local) {
    // money moved off a check (the other side's merge): the check it leaves is counted again too
    if (local?.order_id && c.data.order_id && local.order_id !== c.data.order_id) t.paid.add(String(local.order_id));
  },
  after(t, _c, row) {
    t.paid.add(String(row.order_id));
  },
};
