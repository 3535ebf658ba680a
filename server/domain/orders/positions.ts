import { updateRecord, type Executor } from '../../db/records.ts';
import type { OrderItemRow } from '../../db/tables/order-items.table.ts';

/**
 * A check's lines stand in the order they were rung in: by id (a ULID, its creation time), at
 * positions 0..n-1. Positions are what a line's `index` in the API is, and they must be the
 * same on the hub and the cloud. Two nodes that added rounds or merged checks while apart each
 * numbered after what they knew; a rule that is a function of the lines alone (not of the order
 * they arrived in) gives both the same numbers once they hold the same lines, so the numbers
 * converge (found by the sync fuzzer: a merge on the hub and rounds on the cloud left one line
 * at index 4 on one side and 6 on the other, for ever).
 */
export function rankedLines<T extends Pick<OrderItemRow, 'id'>>(lines: readonly T[]): T[] {
  return [...lines].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/**
 * Puts a check's lines at their positions (rankedLines), changing only those that stand
 * elsewhere; each move is a change of the line like any other (it travels). Positions are
 * unique per check, so lines that move step aside to a negative place first. Returns the
 * check's lines in position order, or null when none moved.
 */
export async function placeLines(trx: Executor, orderId: string, now: number, known?: OrderItemRow[]): Promise<OrderItemRow[] | null> {
  const lines = known ?? (await trx.selectFrom('order_items').selectAll().where('order_id', '=', orderId).execute());
  const ranked = rankedLines(lines);
  const moving = ranked.flatMap((l, rank) => (l.idx === rank ? [] : [{ line: l, rank }]));
  if (moving.length === 0) return null;
  // below every place taken now (a line may stand at a negative place another node stepped it to)
  const aside = Math.min(0, ...lines.map((l) => l.idx)) - 1;
  const placed = new Map<string, OrderItemRow>();
  for (const { line, rank } of moving) placed.set(line.id, (await updateRecord(trx, 'order_items', line, { idx: aside - rank }))!);
  for (const { line, rank } of moving) placed.set(line.id, (await updateRecord(trx, 'order_items', placed.get(line.id)!, { idx: rank, updated: now }))!);
  return ranked.map((l) => placed.get(l.id) ?? l);
}

/** Whether lines just appended after `before` still stand in rung-in order (almost always: ids grow). */
export function appendedInOrder(before: readonly Pick<OrderItemRow, 'id'>[], added: readonly Pick<OrderItemRow, 'id'>[]): boolean {
  const last = before.reduce((m, l) => (l.id > m ? l.id : m), '');
  return added.every((l) => l.id > last);
}
