import type { Executor } from '../../db/records.ts';

/** Who a report is for: one restaurant, read in its own time zone at one moment. */
export interface ReportContext {
  db: Executor;
  restaurantId: string;
  zone: string;
  nowMs: number;
}

export async function reportContext(db: Executor, restaurantId: string, nowMs: number): Promise<ReportContext> {
  const r = await db.selectFrom('restaurants').select('timezone').where('id', '=', restaurantId).executeTakeFirstOrThrow();
  return { db, restaurantId, zone: r.timezone, nowMs };
}
