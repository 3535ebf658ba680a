import { insertRecord, type Executor } from '../../db/records.ts';
import { newId, PREFIXES } from '../../ids.ts';
import type { Actor } from '../../services.ts';
import { catalogueOf } from '../menu/catalogue.ts';
import { businessDate } from '../orders/business-date.ts';
import { seconds } from '../time.ts';

/**
 * The cash counted in the drawer, for a business day (today's by default). Counting again
 * adds a count; the close compares the latest with what the drawer should hold.
 */
export async function recordCashCount(trx: Executor, actor: Actor, input: { date?: string; counted_amount: number; note?: string | null; by: string | null }) {
  const { restaurant } = await catalogueOf(trx, actor.restaurantId);
  return insertRecord(trx, 'cash_counts', {
    id: newId(PREFIXES.cashCount, actor.now),
    restaurant_id: actor.restaurantId,
    livemode: actor.livemode ? 1 : 0,
    business_date: input.date ?? businessDate(actor.now, restaurant.timezone),
    counted_amount: input.counted_amount,
    note: input.note?.trim() || null,
    counted_by: input.by,
    created: seconds(actor),
  });
}
