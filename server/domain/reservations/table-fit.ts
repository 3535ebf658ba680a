/** What table assignment needs to know about a table. */
export interface TableFit {
  id: string;
  number: number;
  capacity: number;
  min_capacity: number | null;
}

/** A sitting that holds (or, without a table, only counts against) the floor. */
export interface Sitting {
  table_id: string | null;
  starts_at: number;
  ends_at: number;
  /** a completed sitting still counts as a reservation of its time but has left its table */
  released?: boolean;
}

/** Reservation states that never count against the floor. */
export const VOID_STATES = ['cancelled', 'no_show'] as const;

export const fits = (t: TableFit, party: number): boolean => t.capacity >= party && (t.min_capacity ?? 1) <= party;

/**
 * Two sittings on one table clash unless the buffer fits between them, on either side.
 * Times are Unix seconds; `end` is the end of the meal, the buffer comes on top.
 */
export const clashes = (start: number, end: number, other: Sitting, bufferSec: number): boolean =>
  start < other.ends_at + bufferSec && other.starts_at < end + bufferSec;

/** Smallest first, then by number: a party of two should not take the table for eight. */
export const bySize = (a: TableFit, b: TableFit): number => a.capacity - b.capacity || a.number - b.number;

export function groupByTable(sittings: Sitting[]): Map<string, Sitting[]> {
  const out = new Map<string, Sitting[]>();
  for (const s of sittings) {
    if (!s.table_id || s.released) continue;
    const list = out.get(s.table_id);
    if (list) list.push(s);
    else out.set(s.table_id, [s]);
  }
  return out;
}

export const isFree = (t: TableFit, byTable: Map<string, Sitting[]>, start: number, end: number, bufferSec: number): boolean =>
  !(byTable.get(t.id) ?? []).some((s) => clashes(start, end, s, bufferSec));

/** The tables that fit the party and are free for the whole sitting plus buffer, smallest first. */
export function freeTables(tables: TableFit[], sittings: Sitting[], party: number, start: number, end: number, bufferSec: number): TableFit[] {
  const byTable = groupByTable(sittings);
  return tables.filter((t) => fits(t, party) && isFree(t, byTable, start, end, bufferSec)).sort(bySize);
}
