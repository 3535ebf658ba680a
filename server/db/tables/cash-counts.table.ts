import type { Generated } from 'kysely';

/** What a drawer record is: a count, the float it opened with, cash paid in or out of it. */
export const CASH_KINDS = ['count', 'opening_float', 'paid_in', 'paid_out'] as const;

/** The drawer's records of a day (the `cc_` records): counts (the latest counts), the opening float, cash paid in and out. */
export interface CashCountsTable {
  id: string;
  restaurant_id: string;
  livemode: number;
  business_date: string;
  kind: Generated<(typeof CASH_KINDS)[number]>;
  /** the amount counted, the float, or the cash paid in or out */
  counted_amount: number;
  note: string | null;
  counted_by: string | null;
  created: number;
}

declare module '../replication.ts' {
  /** replicated: rows are records, written through db/records.ts and carried by sync */
  interface ReplicatedTables {
    cash_counts: true;
  }
}
