const formats = new Map<string, Intl.DateTimeFormat>();
const lastMinute = new Map<string, { minute: number; date: string }>();

/**
 * The restaurant's local calendar date (YYYY-MM-DD) at `nowMs`: the business day an order
 * belongs to. One cached formatter per timezone keeps this off the hot path of every create.
 */
export function businessDate(nowMs: number, timezone: string): string {
  // A zone's offset changes on whole minutes only, so a date holds for the rest of its UTC
  // minute: the last answer per zone is kept with that minute (as wall-clock.ts does).
  const minute = Math.floor(nowMs / 60_000);
  const hit = lastMinute.get(timezone);
  if (hit?.minute === minute) return hit.date;
  let f = formats.get(timezone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formats.set(timezone, f);
  }
  const date = f.format(nowMs);
  lastMinute.set(timezone, { minute, date });
  return date;
}
