import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { printersDemo } from '../../server/demo/printers.ts';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { createOrder, drain } from './fixtures.ts';

describe.each(DIALECTS)('printers demo step on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('adds kitchen, bar and grill printers on loopback, switched off so nothing is sent', async () => {
    expect((await hub.api.post('/v1/stations', { key: 'grill' })).status).toBe(201);
    const result: Record<string, unknown> = {};
    await printersDemo(hub.server.services.tx, { restaurantId: hub.restaurant.id, livemode: true, now: hub.clock.now() }, { historyDays: 0, ordersPerDay: 1 }, result, hub.server.services.registry.hooks);
    const list = await hub.api.get('/v1/printers?limit=10');
    const byName = Object.fromEntries(list.body.data.map((p: any) => [p.name, p]));
    expect(Object.keys(byName).sort()).toEqual(['Bar', 'Grill', 'Kitchen']);
    expect(byName.Kitchen).toMatchObject({ stations: ['kitchen', 'dessert'], prints_receipts: true, is_active: false, transport: { host: '127.0.0.1', port: 9100 } });
    expect(byName.Bar).toMatchObject({ stations: ['bar'], paper_width: 58, backup_printer: byName.Kitchen.id });
    expect(byName.Grill).toMatchObject({ stations: ['grill'], backup_printer: byName.Kitchen.id });
    expect(list.body.data.every((p: any) => p.is_active === false && p.transport.host === '127.0.0.1')).toBe(true);
    expect(result.printers).toHaveLength(3);

    await createOrder(hub, { lines: [{ name: 'Pizza', station: 'kitchen' }, { name: 'Wine', station: 'bar' }, { name: 'Steak', station: 'grill' }] });
    await drain(hub);
    expect(await countRows(hub, 'print_jobs')).toBe(0);
  });
});
