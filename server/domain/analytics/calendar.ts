import { DateTime } from 'luxon';
import { ApiError } from '../../errors.ts';

/**
 * The calendar every report uses: a sale falls on its order's placed_at (created when it was
 * never placed), read in the restaurant's time zone. Days are local dates, weeks are ISO
 * weeks (Monday first), months are calendar months.
 */

export type GroupBy = 'day' | 'week' | 'month';

/** The local date, hour and weekday (0 = Sunday) of a Unix time in a zone. */
export function localSlot(unixSeconds: number, zone: string): { day: string; hour: number; weekday: number } {
  const dt = DateTime.fromSeconds(unixSeconds, { zone });
  return { day: dt.toISODate()!, hour: dt.hour, weekday: dt.weekday % 7 };
}

export const saleTime = (order: { placed_at: number | null; created: number }): number => order.placed_at ?? order.created;

export function today(nowMs: number, zone: string): string {
  return DateTime.fromMillis(nowMs, { zone }).toISODate()!;
}

export function addDays(day: string, n: number): string {
  return DateTime.fromISO(day, { zone: 'utc' }).plus({ days: n }).toISODate()!;
}

/** Days from a to b, inclusive (a ≤ b gives ≥ 1). */
export function daysBetween(a: string, b: string): number {
  return Math.round(DateTime.fromISO(b, { zone: 'utc' }).diff(DateTime.fromISO(a, { zone: 'utc' }), 'days').days) + 1;
}

/** Every day from start to end, inclusive; counted, not compared, so no date text can make it endless. */
export function eachDay(start: string, end: string): string[] {
  const n = daysBetween(start, end);
  const out: string[] = [];
  for (let i = 0, d = start; i < n; i++, d = addDays(d, 1)) out.push(d);
  return out;
}

/** The Unix second at which a local date begins (DST-aware: a day may be 23 or 25 hours). */
export function startOfLocalDay(day: string, zone: string): number {
  return Math.floor(DateTime.fromISO(day, { zone }).startOf('day').toSeconds());
}

/** `day` → the day itself, `week` → ISO week like 2026-W03, `month` → 2026-01. */
export function periodOf(day: string, groupBy: GroupBy): string {
  if (groupBy === 'day') return day;
  const dt = DateTime.fromISO(day, { zone: 'utc' });
  return groupBy === 'week' ? dt.toFormat("kkkk-'W'WW") : dt.toFormat('yyyy-MM');
}

/** Every period touched by the range, in order (a range may start or end mid-week). */
export function periodsOf(start: string, end: string, groupBy: GroupBy): string[] {
  const out: string[] = [];
  for (const d of eachDay(start, end)) {
    const p = periodOf(d, groupBy);
    if (out[out.length - 1] !== p) out.push(p);
  }
  return out;
}

export interface DateRange {
  start: string;
  end: string;
}

export const DEFAULT_RANGE_DAYS = 30;
export const MAX_RANGE_DAYS = 3660;
/** The last day reports (and their group-by periods) can name; see resolveRange. */
const LAST_DAY = '9998-12-31';

/**
 * start_date / end_date, both inclusive and optional: without either the last 30 days up to
 * today; with only one, 30 days from the start or up to the end.
 */
export function resolveRange(q: { start_date?: string; end_date?: string }, nowMs: number, zone: string): DateRange {
  // years past 9999 have no YYYY-MM-DD text (luxon writes +010000-01-01): refuse dates whose
  // range would run there before any of it is computed
  for (const param of ['start_date', 'end_date'] as const) {
    const v = q[param];
    if (v !== undefined && v > LAST_DAY) throw new ApiError('parameter_invalid', `${param} must be a date up to ${LAST_DAY}.`, param);
  }
  if (q.start_date && !q.end_date && q.start_date > addDays(LAST_DAY, -(DEFAULT_RANGE_DAYS - 1))) {
    throw new ApiError('parameter_invalid', `Without end_date the 30 days from start_date must end by ${LAST_DAY}.`, 'start_date');
  }
  const end = q.end_date ?? (q.start_date ? addDays(q.start_date, DEFAULT_RANGE_DAYS - 1) : today(nowMs, zone));
  const start = q.start_date ?? addDays(end, -(DEFAULT_RANGE_DAYS - 1));
  if (end < start) throw new ApiError('parameter_invalid', 'end_date is before start_date.', 'end_date');
  if (daysBetween(start, end) > MAX_RANGE_DAYS) {
    throw new ApiError('parameter_invalid', `A range covers at most ${MAX_RANGE_DAYS} days.`, 'end_date');
  }
  return { start, end };
}
