/** The cash counted in the drawer at the close of a day (the `cc_` records): the latest counts. */
export interface CashCountsTable {
  id: string;
  restaurant_id: string;
  livemode: number;
  business_date: string;
  counted_amount: number;
  note: string | null;
  counted_by: string | null;
  created: number;
}
