import type { Kysely } from 'kysely';
import type { DateRange } from './calendar.ts';
import type { ReportContext } from './context.ts';
import { monotonicMs } from '../../clock.ts';
import { RESERVATION_STATUSES } from '../../model/reservations.ts';

/**
 * Reservations are another feature's table (status, party_size, date 'YYYY-MM-DD'). It is
 * read defensively: when it is missing every figure is 0, and `livemode` is honoured only
 * when the table has that column.
 */
const known = new Map<string, { at: number; columns: Set<string> | null }>();
const RECHECK_MS = 60_000;

async function reservationColumns(ctx: ReportContext): Promise<Set<string> | null> {
  // Introspection is slow; its answer is kept per dialect, and a missing table is looked
  // for again after a minute (another build may have created it meanwhile).
  const dialect = (ctx.db as any).getExecutor().adapter.constructor.name as string;
  const hit = known.get(dialect);
  if (hit && (hit.columns || monotonicMs() - hit.at < RECHECK_MS)) return hit.columns;
  const tables = await (ctx.db as Kysely<any>).introspection.getTables();
  const t = tables.find((x) => x.name === 'reservations');
  const columns = t ? new Set(t.columns.map((c) => c.name)) : null;
  known.set(dialect, { at: monotonicMs(), columns });
  return columns;
}


async function countsByStatus(ctx: ReportContext, range: DateRange): Promise<Map<string, { count: number; party: number }>> {
  const out = new Map<string, { count: number; party: number }>();
  const cols = await reservationColumns(ctx);
  if (!cols) return out;
  let q = (ctx.db as Kysely<any>)
    .selectFrom('reservations')
    .select((eb: any) => ['status', eb.fn.countAll().as('n'), eb.fn.sum('party_size').as('party')])
    .where('restaurant_id', '=', ctx.restaurantId)
    .where('date', '>=', range.start)
    .where('date', '<=', range.end)
    .groupBy('status');
  if (cols.has('livemode')) q = q.where('livemode', '=', 1);
  for (const r of await q.execute()) out.set(r.status, { count: Number(r.n), party: Number(r.party) });
  return out;
}

export async function reservationsReport(ctx: ReportContext, range: DateRange) {
  const counts = await countsByStatus(ctx, range);
  const statuses = [...RESERVATION_STATUSES, ...[...counts.keys()].filter((s) => !(RESERVATION_STATUSES as readonly string[]).includes(s)).sort()];
  return {
    object: 'analytics.reservations' as const,
    by_status: statuses.map((status) => {
      const c = counts.get(status) ?? { count: 0, party: 0 };
      return { status, count: c.count, avg_party_size: c.count ? Math.round((c.party * 100) / c.count) / 100 : 0 };
    }),
  };
}

/** Reservations of the range whose status is one of `statuses`. */
export async function reservationCount(ctx: ReportContext, range: DateRange, statuses: (s: string) => boolean): Promise<number> {
  let n = 0;
  for (const [status, c] of await countsByStatus(ctx, range)) if (statuses(status)) n += c.count;
  return n;
}
