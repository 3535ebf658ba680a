import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../server/domain/keys/create-key.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type ApiClient, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from './fixtures.ts';
import { until } from '../helpers/until.ts';

/** A tiny external courier service speaking the adapter's protocol, on loopback. */
async function startFleet() {
  const jobs = new Map<string, any>();
  let down = false;
  const server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const send = (status: number, body: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (down) return send(503, { error: 'maintenance' });
      if (req.method === 'POST' && req.url === '/deliveries') {
        const body = JSON.parse(raw);
        const existing = [...jobs.values()].find((j) => j.reference === body.reference);
        if (existing) return send(200, existing);
        const job = { id: `job_${jobs.size + 1}`, status: 'dispatched', reference: body.reference, address: body.address, courier: { name: 'Fleet Fred', phone: '+39 02 555' }, dispatched_at: 1_800_000_000, eta: 1_800_001_200, location: { lat: 45.46, lng: 9.19 } };
        jobs.set(job.id, job);
        return send(201, job);
      }
      const m = req.url?.match(/^\/deliveries\/([^/]+)$/);
      if (req.method === 'GET' && m && jobs.has(m[1])) return send(200, jobs.get(m[1]));
      send(404, { error: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    jobs,
    setDown: (v: boolean) => (down = v),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe.each(DIALECTS)('external delivery fleet on %s', (dialect) => {
  let hub: TestHub;
  let fleet: Awaited<ReturnType<typeof startFleet>>;
  let menu: Menu;
  let screen: ApiClient;
  beforeAll(async () => {
    fleet = await startFleet();
    hub = await startHub(dialect, { config: { deliveryFleet: { kind: 'http', url: fleet.url, name: 'fastfleet', timeoutMs: 2000 } } });
    menu = await seedMenu(hub);
    screen = hub.api.withKey(hub.keys.widget);
  });
  afterAll(async () => {
    await hub?.close();
    await fleet?.close();
  });

  it('hands placed delivery orders to the fleet and tracks them through it', async () => {
    const o = await screen.post('/public/orders', { type: 'delivery', deliveryAddress: 'Corso Como 5', items: [{ menuItemId: menu.pasta, quantity: 1 }] });
    expect(o.status).toBe(201);
    // the dispatcher runs after the commit; wait until the fleet has the job
    await until('the fleet has the job', () => [...fleet.jobs.values()].some((j) => j.reference === o.body.id), { diagnose: () => [...fleet.jobs.values()] });
    const job = [...fleet.jobs.values()].find((j) => j.reference === o.body.id);
    expect(job).toMatchObject({ address: 'Corso Como 5' });
    const t = await screen.get(`/public/orders/delivery/${o.body.id}/track`);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({
      orderId: o.body.id,
      provider: 'fastfleet',
      status: 'dispatched',
      courier: { name: 'Fleet Fred', phone: '+39 02 555' },
      dispatchedAt: 1_800_000_000,
      estimatedArrivalAt: 1_800_001_200,
      location: { lat: 45.46, lng: 9.19 },
    });
    job.status = 'delivered';
    job.delivered_at = 1_800_001_100;
    const t2 = await screen.get(`/public/orders/delivery/${o.body.id}/track?fields=status,deliveredAt`);
    expect(t2.body).toEqual({ status: 'delivered', deliveredAt: 1_800_001_100 });
  });

  it('answers 502 when the fleet service fails, and a draft delivery is not yet dispatched', async () => {
    const o = await screen.post('/public/orders', { type: 'delivery', deliveryAddress: 'Via Dante 2', items: [{ menuItemId: menu.water, quantity: 1 }] });
    await until('the fleet has the job', () => [...fleet.jobs.values()].some((j) => j.reference === o.body.id), { diagnose: () => [...fleet.jobs.values()] });
    fleet.setDown(true);
    const t = await screen.get(`/public/orders/delivery/${o.body.id}/track`);
    expect(t.status).toBe(502);
    expect(t.body.error.code).toBe('fleet_unavailable');
    fleet.setDown(false);
    const draft = await hub.api.post('/v1/orders', { type: 'delivery', delivery_address: 'Via Dante 3', items: [{ menu_item: menu.water, quantity: 1 }] });
    const d = await screen.get(`/public/orders/delivery/${draft.body.id}/track`);
    expect(d.status).toBe(409);
  });

  it('never hands a sandbox order to the fleet: its delivery moves with the order, with no courier', async () => {
    const sandbox = hub.api.withKey(hub.keys.sandbox);
    const widget = await hub.server.services.tx.run((trx) =>
      createApiKey(trx, hub.clock.now(), { restaurantId: hub.restaurant.id, kind: 'widget', livemode: false, grantedBy: 'operator' }),
    );
    const sandboxScreen = hub.api.withKey(widget.key);
    const jobsBefore = fleet.jobs.size;
    const o = await sandbox.post('/v1/orders', { type: 'delivery', delivery_address: 'Test Street 1', items: [{ menu_item: menu.water, quantity: 1 }] });
    expect(o.body.livemode).toBe(false);
    expect((await sandbox.patch(`/v1/orders/${o.body.id}`, { status: 'placed' })).status).toBe(200);
    expect((await sandbox.patch(`/v1/orders/${o.body.id}`, { status: 'ready' })).status).toBe(200);
    // a live order placed after it does reach the fleet, so the dispatcher has run past the sandbox one
    const live = await screen.post('/public/orders', { type: 'delivery', deliveryAddress: 'Via Verdi 9', items: [{ menuItemId: menu.water, quantity: 1 }] });
    await until('the fleet has the job', () => [...fleet.jobs.values()].some((j) => j.reference === live.body.id), { diagnose: () => [...fleet.jobs.values()] });
    expect(fleet.jobs.size).toBe(jobsBefore + 1);
    expect([...fleet.jobs.values()].some((j) => j.reference === o.body.id)).toBe(false);
    const t = await sandboxScreen.get(`/public/orders/delivery/${o.body.id}/track`);
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ provider: 'sandbox', status: 'dispatched', courier: null, location: null });
    expect(fleet.jobs.size).toBe(jobsBefore + 1);
  });
});
