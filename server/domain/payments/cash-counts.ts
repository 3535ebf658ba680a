import { insertRecord, type Executor } from '../../db/records.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { catalogueOf } from '../menu/catalogue.ts';
import { businessDate } from '../orders/business-date.ts';
import { seconds } from '../time.ts';
import type { CASH_KINDS } from '../../db/tables/cash-counts.table.ts';

export type CashKind = (typeof CASH_KINDS)[number];

/**
 * A drawer record for a business day (today's by default): the cash counted (counting again
 * adds a count; the close compares the latest with what the drawer should hold), the float it
 * opened with (the latest stands), or cash paid in or out (a supplier paid from the till).
 */
export async function recordCashCount(
  trx: Executor,
  actor: Actor,
  input: { date?: string; kind?: CashKind; counted_amount: number; note?: string | null; by: string | null },
) {
  const { restaurant } = await catalogueOf(trx, actor.restaurantId);
  return insertRecord(trx, 'cash_counts', {
    id: newId(PREFIXES.cashCount, actor.now),
    restaurant_id: actor.restaurantId,
    livemode: actor.livemode ? 1 : 0,
    business_date: input.date ?? businessDate(actor.now, restaurant.timezone),
    kind: input.kind ?? 'count',
    counted_amount: input.counted_amount,
    note: input.note?.trim() || null,
    counted_by: input.by,
    created: seconds(actor),
  });
}
