const formats = new Map<string, Intl.DateTimeFormat>();

/**
 * The restaurant's local calendar date (YYYY-MM-DD) at `nowMs`: the business day an order
 * belongs to. One cached formatter per timezone keeps this off the hot path of every create.
 */
export function businessDate(nowMs: number, timezone: string): string {
  let f = formats.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timezone, f);
  }
  return f.format(nowMs);
}
