import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('pairing kitchen tablets on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('a code from Settings becomes a named widget key once, which reads the kitchen and is revocable', async () => {
    const made = await hub.api.post('/v1/devices/pairing_codes', { name: 'Grill tablet', station: 'kitchen' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ object: 'pairing_code', name: 'Grill tablet', station: 'kitchen' });
    expect(made.body.code).toMatch(/^\d{6}$/);
    expect(made.body.url).toMatch(new RegExp(`/screens/pair\\?code=${made.body.code}$`));
    expect(made.body.expires_at - Math.floor(hub.clock.now() / 1000)).toBe(600);

    const guest = hub.api.withKey(null);
    const paired = await guest.post('/public/devices/pair', { code: made.body.code });
    expect(paired.status).toBe(201);
    expect(paired.body).toMatchObject({ object: 'device_credential', device: { name: 'Grill tablet', station: 'kitchen' }, restaurant: { name: 'Test Bistro' } });
    const key: string = paired.body.key;
    expect(key).toMatch(/^wk_live_/);

    // spent: the same code pairs nothing more
    const again = await guest.post('/public/devices/pair', { code: made.body.code });
    expect(again.status).toBe(404);
    expect(again.body.error).toMatchObject({ code: 'resource_missing', param: 'code' });

    const tablet = hub.api.withKey(key);
    expect((await tablet.get('/public/orders/kitchen?station=kitchen')).status).toBe(200);
    const config = await tablet.get('/public/screens/config');
    expect(config.status).toBe(200);
    expect(config.body.device).toEqual({ name: 'Grill tablet', station: 'kitchen' });
    expect(config.body.restaurant).toMatchObject({ name: 'Test Bistro' });
    expect(config.body.stations.find((s: any) => s.key === 'kitchen')).toMatchObject({ warnAfterMinutes: 8, lateAfterMinutes: 15 });
    // a widget key is still no way into /v1
    expect((await tablet.get('/v1/devices')).status).toBe(403);

    const devices = await hub.api.get('/v1/devices');
    expect(devices.body.data).toEqual([
      expect.objectContaining({ object: 'device', id: paired.body.device.id, name: 'Grill tablet', station: 'kitchen', revoked_at: null }),
    ]);
    const revoked = await hub.api.delete(`/v1/devices/${paired.body.device.id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).toBeTypeOf('number');
    // the secret key itself is no device
    expect((await hub.api.delete('/v1/devices/key_unknown')).status).toBe(404);
  });

  it('refuses a wrong, malformed or expired code and writes nothing', async () => {
    const guest = hub.api.withKey(null);
    const keys = await countRows(hub, 'api_keys');
    expect((await guest.post('/public/devices/pair', { code: '12ab56' })).body.error).toMatchObject({ code: 'parameter_invalid', param: 'code' });
    const made = await hub.api.post('/v1/devices/pairing_codes', { name: 'Bar tablet' });
    const wrong = String((Number(made.body.code) + 1) % 1_000_000).padStart(6, '0');
    expect((await guest.post('/public/devices/pair', { code: wrong })).status).toBe(404);
    hub.clock.advance(10 * 60 * 1000);
    expect((await guest.post('/public/devices/pair', { code: made.body.code })).status).toBe(404);
    expect(await countRows(hub, 'api_keys')).toBe(keys);
    expect((await hub.api.post('/v1/devices/pairing_codes', { name: 'X', station: 'nope' })).body.error).toMatchObject({ code: 'unknown_station' });
  });

  it('stations carry the screen age colours, amber before red', async () => {
    const set = await hub.api.patch('/v1/stations/kitchen', { warn_after_minutes: 5, late_after_minutes: 9 });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ warn_after_minutes: 5, late_after_minutes: 9 });
    const bad = await hub.api.patch('/v1/stations/kitchen', { late_after_minutes: 5 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: 'parameter_invalid', param: 'late_after_minutes' });
    const made = await hub.api.post('/v1/devices/pairing_codes', { name: 'Pass' });
    const key = (await hub.api.withKey(null).post('/public/devices/pair', { code: made.body.code })).body.key;
    const config = await hub.api.withKey(key).get('/public/screens/config');
    expect(config.body.device).toEqual({ name: 'Pass', station: null });
    expect(config.body.stations.find((s: any) => s.key === 'kitchen')).toMatchObject({ warnAfterMinutes: 5, lateAfterMinutes: 9 });
    expect((await hub.api.patch('/v1/stations/kitchen', { warn_after_minutes: null, late_after_minutes: null })).body).toMatchObject({ warn_after_minutes: null });
  });
});
