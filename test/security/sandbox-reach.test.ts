import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { emit, Receiver, sweep } from '../webhooks/helpers.ts';

/**
 * A sandbox key is an integrator's test bench. On the venue's PC it must not make the hub post
 * to the hub itself or the LAN (printers, the router), nor read the QR tokens that place live orders.
 */
describe.each(DIALECTS)('what a sandbox key reaches on a hub (%s)', (dialect) => {
  let hub: TestHub;
  let rcv: Receiver;
  beforeAll(async () => {
    hub = await startHub(dialect);
    rcv = await Receiver.start();
  });
  afterAll(async () => {
    await rcv?.close();
    await hub?.close();
  });

  it('registers webhook endpoints at public addresses only, while a live key may use the LAN', async () => {
    const before = await countRows(hub, 'webhook_endpoints');
    for (const url of [rcv.url, 'http://192.168.1.20:9100/', 'http://[::1]:8080/hook']) {
      const r = await hub.api.post('/v1/webhook_endpoints', { url, enabled_events: ['*'] }, { key: hub.keys.sandbox });
      expect(r.status, url).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'url_not_allowed', param: 'url' });
    }
    expect(await countRows(hub, 'webhook_endpoints')).toBe(before);
    const publicOne = await hub.api.post('/v1/webhook_endpoints', { url: 'http://93.184.216.34/hook', enabled_events: ['*'] }, { key: hub.keys.sandbox });
    expect(publicOne.status).toBe(201);
    expect((await hub.api.patch(`/v1/webhook_endpoints/${publicOne.body.id}`, { url: rcv.url }, { key: hub.keys.sandbox })).body.error.code).toBe('url_not_allowed');
    const live = await hub.api.post('/v1/webhook_endpoints', { url: rcv.url, enabled_events: ['*'] });
    expect(live.status).toBe(201);
    await hub.api.delete(`/v1/webhook_endpoints/${live.body.id}`);
    await hub.api.delete(`/v1/webhook_endpoints/${publicOne.body.id}`, { key: hub.keys.sandbox });
  });

  it('a sandbox endpoint stored with a LAN address (made before this rule) is not posted to', async () => {
    const db = hub.server.services.db;
    const made = await hub.api.post('/v1/webhook_endpoints', { url: 'http://93.184.216.34/hook', enabled_events: ['order.created'] }, { key: hub.keys.sandbox });
    await db.updateTable('webhook_endpoints').set({ url: rcv.url }).where('id', '=', made.body.id).execute();
    const event = await emit(hub, 'order.created', { livemode: false });
    const attempted = async () =>
      Number((await db.selectFrom('webhook_deliveries').select('attempt_count').where('event_id', '=', event.id).executeTakeFirstOrThrow()).attempt_count) > 0;
    for (let i = 0; i < 50 && !(await attempted()); i++) await sweep(hub);
    expect(await attempted()).toBe(true);
    expect(rcv.received).toEqual([]);
  });

  it('reads no QR code (a token places live orders)', async () => {
    for (const path of ['/v1/qr_codes', '/v1/qr_codes/qr_unknown']) {
      const r = await hub.api.get(path, { key: hub.keys.sandbox });
      expect(r.status, path).toBe(403);
    }
    expect((await hub.api.get('/v1/qr_codes')).status).toBe(200);
  });

  it('reads no staff shifts: who worked when is live only (issue 40)', async () => {
    const staff = await hub.api.post('/v1/staff', { name: 'Shift Worker', role: 'server' });
    expect((await hub.api.post('/v1/shifts', { user: staff.body.id })).status).toBe(201);
    for (const path of ['/v1/shifts', `/v1/shifts?user=${staff.body.id}`]) {
      const r = await hub.api.get(path, { key: hub.keys.sandbox });
      expect(r.status, path).toBe(403);
      expect(JSON.stringify(r.body)).not.toContain(staff.body.id);
    }
    expect((await hub.api.get('/v1/shifts')).body.data).toHaveLength(1);
  });
});
