import { afterEach, describe, expect, it } from 'vitest';
import { seedMenu } from '../orders/fixtures.ts';
import { addPrinter, PrinterEmulator } from '../printers/fixtures.ts';
import { TestSocket } from '../realtime/socket.ts';
import { until } from '../helpers/until.ts';
import { audit, converged, startPair, type Pair } from './helpers.ts';

describe('cloud sync: link, push, pull', () => {
  let pair: Pair | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
  });

  it('the first link pushes the hub’s whole restaurant; changes then flow both ways by themselves', async () => {
    const p = (pair = await startPair());
    const menu = await seedMenu(p.hub);
    const emu = await PrinterEmulator.start();
    await addPrinter(p.hub, emu, { name: 'Grill', stations: ['grill'] });
    const first = await p.hub.api.post('/v1/orders', { type: 'takeout', customer_name: 'Ada', items: [{ menu_item: menu.pasta, quantity: 2 }] });
    expect(first.status).toBe(201);
    const linked = await p.link();
    expect(linked.mode).toBe('push');
    expect(linked.pushed).toBeGreaterThan(10);
    // the same key works on the cloud, which now holds the hub's order
    const there = await p.cloudApi.get(`/v1/orders/${first.body.id}`);
    expect(there.status).toBe(200);
    expect(there.body.total).toBe(first.body.total);
    expect((await audit(p.hub)).differences).toEqual([]);

    // an integration's order on the cloud reaches the hub, its kitchen screens and its printer
    const screen = await TestSocket.open(p.hub.url);
    await screen.auth(p.hub.keys.widget);
    await screen.subscribe(['station:grill']);
    const fromCloud = await p.cloudApi.post('/v1/orders', { type: 'takeout', customer_name: 'Grace', items: [{ menu_item: menu.steak, quantity: 1, modifiers: ['Rare'] }] });
    expect(fromCloud.status, JSON.stringify(fromCloud.body)).toBe(201);
    await until('the cloud’s order reached the hub', async () => (await p.hub.api.get(`/v1/orders/${fromCloud.body.id}`)).status === 200);
    const shown = await screen.next();
    expect(shown).toMatchObject({ type: 'order', topic: 'station:grill', data: { id: fromCloud.body.id } });
    screen.ws.terminate();
    expect((await p.cloudApi.patch(`/v1/orders/${fromCloud.body.id}`, { status: 'placed' })).status).toBe(200);
    try {
      await until('the kitchen ticket printed', async () => emu.texts().some((t) => t.includes('1 x Steak')));
    } finally {
      await emu.close();
    }

    // a hub change reaches the cloud
    const moved = await p.hub.api.patch(`/v1/orders/${first.body.id}`, { status: 'placed' });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    await until('the status change reached the cloud', async () => (await p.cloudApi.get(`/v1/orders/${first.body.id}`)).body.status === 'placed');

    // what follows a change (its event, settled on the cloud) settles too
    const { ok, report } = await converged(p);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    const status = await p.hub.api.get('/v1/sync/status');
    expect(status.body).toMatchObject({ object: 'sync_status', linked: true, connected: true, pending_push: 0 });
    const cloudStatus = await p.cloudApi.get('/v1/sync/status');
    expect(cloudStatus.body).toMatchObject({ object: 'sync_status', linked: true, connected: true });
  });
});
