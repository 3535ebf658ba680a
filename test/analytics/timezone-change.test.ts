import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { createOrder } from './fixtures.ts';

describe.each(DIALECTS)('a timezone change on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('moves sales to the days of the new timezone', async () => {
    // 2026-10-20 23:30 UTC is already the 21st in Berlin
    const at = Date.UTC(2026, 9, 20, 23, 30) / 1000;
    await createOrder(hub, { created: at, placedAt: at, status: 'completed', lines: [{ menuItemId: 'mi_x', name: 'Pasta', quantity: 1, unitPrice: 1000 }] });
    const day = async (d: string) =>
      (await hub.api.get(`/v1/analytics/revenue?start_date=${d}&end_date=${d}`)).body.data[0].order_count as number;
    expect(await day('2026-10-21')).toBe(1);
    expect(await day('2026-10-20')).toBe(0);
    expect((await hub.api.patch('/v1/settings', { timezone: 'UTC' })).status).toBe(200);
    expect(await day('2026-10-20')).toBe(1);
    expect(await day('2026-10-21')).toBe(0);
  });
});
