import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../helpers/server.ts';
import { until } from '../helpers/until.ts';
import { startPair } from './helpers.ts';

/** A screen paired on the hub keeps its bounds on the cloud: its key travels with what it was paired for. */
describe('a paired screen’s key on the cloud', () => {
  let p: Awaited<ReturnType<typeof startPair>>;
  beforeAll(async () => {
    p = await startPair();
    await p.link();
  }, 60_000);
  afterAll(() => p?.close());

  it('works the station it was paired for there too, and nothing else', async () => {
    expect((await p.hub.api.post('/v1/stations', { key: 'grill', name: 'Grill' })).status).toBe(201);
    const made = await p.hub.api.post('/v1/devices/pairing_codes', { name: 'Grill tablet', station: 'grill' });
    const key: string = (await p.hub.api.withKey(null).post('/public/devices/pair', { code: made.body.code })).body.key;
    const onCloud = new ApiClient(p.cloud.url, key);
    // the key and the station reach the cloud
    await until('the screen key reached the cloud', async () => (await onCloud.get('/public/orders/kitchen')).status === 200, 20_000);
    const row = await p.cloud.server.services.db.selectFrom('api_keys').select('screen').where('name', '=', 'Grill tablet').executeTakeFirstOrThrow();
    expect(row.screen).toBe('grill');
    expect((await onCloud.get('/public/orders/kitchen?station=bar')).status).toBe(403);
    expect((await onCloud.get('/public/orders')).status).toBe(403);
    expect((await onCloud.post('/public/orders', { type: 'takeaway', items: [] })).status).toBe(403);
  });
});
