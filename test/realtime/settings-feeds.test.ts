import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { TestSocket } from './socket.ts';

/**
 * What Settings changes reaches open pages through /realtime like any other change: a tablet
 * pairing or unpaired (the `devices` topic, for Settings → Screens) and a station's name and
 * ticket colours (the `stations` topic, for the kitchen screens' own keys).
 */
describe.each(DIALECTS)('settings on the live feed on %s', (dialect) => {
  let hub: TestHub;
  const sockets: TestSocket[] = [];
  const open = async (key: string, topics: string[]) => {
    const s = await TestSocket.open(hub.url);
    sockets.push(s);
    expect((await s.auth(key)).type).toBe('authenticated');
    const [ack] = await s.subscribe(topics);
    return { s, ack };
  };

  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(async () => {
    for (const s of sockets) s.ws.terminate();
    await hub?.close();
  });

  it('devices: a pairing and an unpairing are told, with the key id only; other keys are not', async () => {
    const { s, ack } = await open(hub.keys.secret, ['devices']);
    expect(ack.type).toBe('subscribed');
    const made = await hub.api.post('/v1/devices/pairing_codes', { name: 'Pass tablet' });
    expect(made.status).toBe(201);
    const paired = await hub.api.post('/public/devices/pair', { code: made.body.code }, { key: null });
    expect(paired.status).toBe(201);
    const pairedMsg = await s.next();
    const device = (await hub.api.get('/v1/devices')).body.data.find((d: any) => d.name === 'Pass tablet');
    expect(pairedMsg).toMatchObject({ type: 'device', topic: 'devices', data: { id: device.id, object: 'device', revoked_at: null } });
    expect(Object.keys(pairedMsg.data).sort()).toEqual(['id', 'object', 'revoked_at']);
    // an integration's key is none of the screens' business
    expect((await hub.api.post('/v1/api_keys', { type: 'secret', livemode: true, name: 'Accounting' })).status).toBe(201);
    expect((await hub.api.delete(`/v1/devices/${device.id}`)).status).toBe(200);
    const unpaired = await s.next();
    expect(unpaired).toMatchObject({ type: 'device', data: { id: device.id } });
    expect(unpaired.data.revoked_at).toEqual(expect.any(Number));
  });

  it('devices: a screen key may not follow them', async () => {
    const s = await TestSocket.open(hub.url);
    sockets.push(s);
    await s.auth(hub.keys.widget);
    const [refused] = await s.subscribe(['devices']);
    expect(refused).toMatchObject({ type: 'error', data: { code: 'insufficient_scope' } });
  });

  it('stations: new ticket colours and a new name reach a kitchen screen key', async () => {
    // a tablet paired for one station follows the stations' settings too (never another station's orders)
    const made = await hub.api.post('/v1/devices/pairing_codes', { name: 'Bar tablet', station: 'bar' });
    const key = (await hub.api.post('/public/devices/pair', { code: made.body.code }, { key: null })).body.key;
    const { s, ack } = await open(key, ['stations']);
    expect(ack.type).toBe('subscribed');
    const [refused] = await s.subscribe(['station:kitchen']);
    expect(refused.type).toBe('error');
    const r = await hub.api.patch('/v1/stations/kitchen', { warn_after_minutes: 3, late_after_minutes: 6, name: 'Hot line' });
    expect(r.status).toBe(200);
    const m = await s.next();
    expect(m).toMatchObject({ type: 'station', topic: 'stations', data: { key: 'kitchen', name: 'Hot line', warn_after_minutes: 3, late_after_minutes: 6, is_active: true } });
  });
});
