import { addDays, type DateRange, startOfLocalDay } from './calendar.ts';
import type { ReportContext } from './context.ts';

/**
 * Hours per staff user for the shifts that began on a local day of the range. An open
 * shift counts up to now. Hours are rounded to two decimals.
 */
export async function laborReport(ctx: ReportContext, range: DateRange) {
  const now = Math.floor(ctx.nowMs / 1000);
  const rows = await ctx.db
    .selectFrom('shifts as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select(['s.user_id', 'u.name', 's.clock_in', 's.clock_out'])
    .where('s.restaurant_id', '=', ctx.restaurantId)
    .where('s.clock_in', '>=', startOfLocalDay(range.start, ctx.zone))
    .where('s.clock_in', '<', startOfLocalDay(addDays(range.end, 1), ctx.zone))
    .execute();
  const acc = new Map<string, { name: string; seconds: number; shifts: number }>();
  for (const r of rows) {
    const a = acc.get(r.user_id) ?? { name: r.name, seconds: 0, shifts: 0 };
    a.seconds += Math.max(0, Number(r.clock_out ?? now) - Number(r.clock_in));
    a.shifts += 1;
    acc.set(r.user_id, a);
  }
  const data = [...acc].map(([user, a]) => ({
    user,
    user_name: a.name,
    total_hours: Math.round((a.seconds * 100) / 3600) / 100,
    shifts: a.shifts,
    seconds: a.seconds,
  }));
  data.sort((a, b) => b.seconds - a.seconds || (a.user < b.user ? -1 : 1));
  return { object: 'analytics.labor' as const, data: data.map(({ seconds: _s, ...d }) => d) };
}
