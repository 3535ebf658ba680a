import type { TouchRule } from '../table-behaviour.ts';
import type { Touched } from '../touched.ts';
import type { WireChange } from '../protocol.ts';

/** A row moved from one customer to another: the other side's merge of the two, maybe (sync/customers-merge.ts). */
export function notesRepointedCustomer(t: Touched, c: WireChange, local: Record<string, unknown> | undefined): void {
  if (local?.customer_id && c.data.customer_id && c.data.customer_id !== local.customer_id) t.repointed.set(String(local.customer_id), String(c.data.customer_id));
}

/** reservations and waitlist entries name a customer */
export const namesCustomer: TouchRule = { before: notesRepointedCustomer };

export const reservationsTouched: TouchRule = {
  before: notesRepointedCustomer,
  after(t, c) {
    t.reservations.add(c.row_id);
  },
};

export const customersTouched: TouchRule = {
  after(t, c) {
    t.customers.add(c.row_id);
  },
};
