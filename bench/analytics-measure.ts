import { DateTime } from 'luxon';
import type { Services } from '../server/services.ts';
import { changeOrderWith, createOrderWith } from '../test/analytics/fixtures.ts';

/** The twelve reports, each over the 90 days up to today where it takes a range. */
export function reportPaths(today: string): string[] {
  const start = DateTime.fromISO(today).minus({ days: 89 }).toISODate();
  const range = `start_date=${start}&end_date=${today}`;
  return [
    '/v1/analytics/dashboard',
    `/v1/analytics/revenue?${range}`,
    `/v1/analytics/revenue?${range}&group_by=week`,
    `/v1/analytics/orders?${range}`,
    `/v1/analytics/menu_items?${range}`,
    `/v1/analytics/customers?${range}`,
    `/v1/analytics/reservations?${range}`,
    '/v1/analytics/inventory',
    `/v1/analytics/labor?${range}`,
    `/v1/analytics/peak_hours?${range}`,
    `/v1/analytics/menu_abc?${range}`,
    '/v1/analytics/sales_forecast?days=30',
    `/v1/analytics/period_comparison?${range}`,
  ];
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/**
 * Times each report (sequential GETs, after a warm-up) while a writer keeps creating orders
 * and moving them through their states through the real hook path, as a busy service does.
 */
export async function measureReports(opts: {
  url: string;
  key: string;
  services: Services;
  restaurantId: string;
  samples?: number;
  writesPerSecond?: number;
}): Promise<{ lines: string[]; results: { path: string; p50: number; p99: number }[]; written: number }> {
  const { services, restaurantId } = opts;
  const zone = (await services.db.selectFrom('restaurants').select('timezone').where('id', '=', restaurantId).executeTakeFirstOrThrow()).timezone;
  const today = DateTime.fromMillis(services.clock.now(), { zone }).toISODate()!;
  const menu = await services.db.selectFrom('menu_items').select(['id', 'name', 'price']).where('restaurant_id', '=', restaurantId).limit(30).execute();
  let stop = false;
  let written = 0;
  const writer = (async () => {
    const pause = 1000 / (opts.writesPerSecond ?? 20);
    while (!stop) {
      const now = Math.floor(services.clock.now() / 1000);
      const m = menu[written % menu.length];
      const { order } = await createOrderWith(services, restaurantId, {
        created: now,
        status: 'placed',
        type: 'dine_in',
        lines: [{ menuItemId: m.id, name: m.name, quantity: 1 + (written % 3), unitPrice: m.price }],
      });
      await changeOrderWith(services, order.id, now, { status: written % 10 === 0 ? 'cancelled' : 'completed' });
      written++;
      await new Promise((r) => setTimeout(r, pause));
    }
  })();
  const samples = opts.samples ?? 30;
  const results: { path: string; p50: number; p99: number }[] = [];
  const get = async (path: string) => {
    const res = await fetch(opts.url + path, { headers: { 'x-api-key': opts.key } });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
  };
  try {
    // warm every route (JIT, SQLite page cache) before timing any
    for (let i = 0; i < 5; i++) for (const path of reportPaths(today)) await get(path);
    for (const path of reportPaths(today)) {
      const times: number[] = [];
      for (let i = 0; i < samples; i++) {
        const t0 = performance.now();
        await get(path);
        times.push(performance.now() - t0);
      }
      results.push({ path, p50: pct(times, 50), p99: pct(times, 99) });
    }
  } finally {
    stop = true;
    await writer;
  }
  const lines = results.map((r) => {
    const target = r.path.startsWith('/v1/analytics/dashboard') ? 20 : 100;
    const ok = r.p50 < target ? 'ok' : 'SLOW';
    return `${r.path.padEnd(72)} p50 ${r.p50.toFixed(1).padStart(7)} ms  p99 ${r.p99.toFixed(1).padStart(7)} ms  (p50 target < ${target} ms) ${ok}`;
  });
  lines.push(`orders written through the order hooks during the run: ${written}`);
  return { lines, results, written };
}
