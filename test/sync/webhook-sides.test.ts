import { afterEach, describe, expect, it } from 'vitest';
import { seedMenu } from '../orders/fixtures.ts';
import { Receiver } from '../webhooks/helpers.ts';
import { until } from '../helpers/until.ts';
import { converged, goOffline, goOnline, startPair, type Pair } from './helpers.ts';

/**
 * Each webhook endpoint is sent by one side of a linked restaurant: `cloud` (the default) or
 * `hub`, for a receiver on the venue's network that must get its events while the internet is
 * down. Every event goes to every endpoint once, from its side, wherever the event was made.
 */
describe('webhook endpoints sent by the hub or by the cloud', () => {
  let p: Pair | undefined;
  const receivers: Receiver[] = [];
  afterEach(async () => {
    for (const r of receivers.splice(0)) await r.close();
    await p?.close();
    p = undefined;
  });

  it('a hub endpoint gets the venue’s events while offline and the cloud’s once back; a cloud endpoint gets every event from the cloud; each once', async () => {
    const [local, remote] = [await Receiver.start(), await Receiver.start()];
    receivers.push(local, remote);
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    const kds = await pair.hub.api.post('/v1/webhook_endpoints', { url: local.url, enabled_events: ['order.created'], sent_by: 'hub', description: 'kitchen display' });
    expect(kds.status, JSON.stringify(kds.body)).toBe(201);
    expect(kds.body.sent_by).toBe('hub');
    const crm = await pair.hub.api.post('/v1/webhook_endpoints', { url: remote.url, enabled_events: ['order.created'] });
    expect(crm.body.sent_by).toBe('cloud');

    // at link, the endpoint that changes sides is named; this one is on a loopback address the cloud cannot reach
    const linked = await pair.link();
    expect(linked.endpoints_moved).toEqual([expect.objectContaining({ id: crm.body.id, url: crm.body.url, cloud_reaches: false })]);
    expect(linked.endpoints_moved[0].warning).toMatch(/cannot reach it.*sent_by to hub/);
    await until('the endpoint moved to the hub on the cloud', async () => (await pair.cloudApi.get(`/v1/webhook_endpoints/${kds.body.id}`)).body.sent_by === 'hub');

    const order = async (api: typeof pair.hub.api) => {
      const r = await api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: menu.water, quantity: 1 }] });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as string;
    };
    const ordersAt = (r: Receiver) => r.received.map((x) => JSON.parse(x.body).data.object.id as string);

    await goOffline(pair.hub);
    const onHub = [await order(pair.hub.api), await order(pair.hub.api)];
    const onCloud = [await order(pair.cloudApi)];
    // the venue's receiver hears the venue's orders with the internet down; the cloud's receiver the cloud's
    await until('the venue’s receiver heard the hub’s orders', async () => onHub.every((id) => ordersAt(local).includes(id)));
    await until('the cloud’s receiver heard the cloud’s orders', async () => onCloud.every((id) => ordersAt(remote).includes(id)));
    expect(ordersAt(local)).not.toContain(onCloud[0]);

    goOnline(pair.hub);
    expect((await converged(pair)).ok).toBe(true);
    const all = [...onHub, ...onCloud].sort();
    await until('both receivers heard every order', async () => all.every((id) => ordersAt(local).includes(id) && ordersAt(remote).includes(id)));
    // a little longer: a second sender would show now
    await new Promise((r) => setTimeout(r, 1500));
    for (const r of [local, remote]) {
      expect(ordersAt(r).sort()).toEqual(all);
      const ids = r.received.map((x) => x.id);
      expect(new Set(ids).size).toBe(ids.length);
    }
  });

  it('a hub endpoint may be on the venue’s network even when made on the cloud; moved to the cloud, its URL must be one the cloud may reach', async () => {
    const pair = (p = await startPair());
    await pair.link();
    const lan = await pair.cloudApi.post('/v1/webhook_endpoints', { url: 'http://192.168.1.40:8080/orders', enabled_events: ['*'], sent_by: 'hub' });
    expect(lan.status, JSON.stringify(lan.body)).toBe(201);
    const moved = await pair.cloudApi.patch(`/v1/webhook_endpoints/${lan.body.id}`, { sent_by: 'cloud' });
    expect(moved.status).toBe(400);
    expect(moved.body.error.code).toBe('url_not_allowed');
    expect((await pair.cloudApi.get(`/v1/webhook_endpoints/${lan.body.id}`)).body.sent_by).toBe('hub');
    expect((await pair.cloudApi.post('/v1/webhook_endpoints', { url: 'http://192.168.1.40:8080/orders', enabled_events: ['*'], sent_by: 'sideways' })).status).toBe(400);
  });
});
