import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComandaServer } from '../../server/server.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, startSecondServer, type ApiClient, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('cached reads on %s', (dialect) => {
  let hub: TestHub;
  let other: ComandaServer;
  let otherApi: ApiClient;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-cache-'));

  beforeAll(async () => {
    hub = await startHub(dialect, { dataDir: dir });
    // a second server on the same database, as a second cloud process would be
    ({ server: other, api: otherApi } = await startSecondServer(hub, dir));
  });
  afterAll(async () => {
    await other?.close();
    await hub?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves the menu page again only until a write commits, on this server or another', async () => {
    const cat = (await hub.api.post('/v1/menu_categories', { name: 'Soups' })).body.id;
    const item = (await hub.api.post('/v1/menu_items', { name: 'Minestrone', category: cat, price: 700 })).body.id;
    const url = '/v1/menu_items?limit=100&expand[]=category';
    const first = await hub.api.get(url);
    expect(first.headers.get('content-type')).toMatch(/application\/json/);
    expect(first.body.data.find((d: any) => d.id === item).price).toBe(700);
    expect((await hub.api.get(url)).body).toEqual(first.body);

    expect((await hub.api.patch(`/v1/menu_items/${item}`, { price: 750 })).status).toBe(200);
    expect((await hub.api.get(url)).body.data.find((d: any) => d.id === item).price).toBe(750);

    // the other server writes; this one must not serve its older page
    expect((await otherApi.patch(`/v1/menu_items/${item}`, { price: 800 })).status).toBe(200);
    expect((await hub.api.get(url)).body.data.find((d: any) => d.id === item).price).toBe(800);
    expect((await otherApi.get(url)).body.data.find((d: any) => d.id === item).price).toBe(800);
  });

  it('prices orders from the menu as it is now, whichever server changed it', async () => {
    const cat = (await hub.api.post('/v1/menu_categories', { name: 'Grill', station: 'kitchen' })).body.id;
    const item = (await hub.api.post('/v1/menu_items', { name: 'Ribeye', category: cat, price: 2500 })).body.id;
    const order = async (api: ApiClient) => (await api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: item, quantity: 1 }] })).body;
    expect((await order(hub.api)).items[0].unit_price).toBe(2500);
    // orders in between do not change the menu, and are priced from the same catalogue
    expect((await order(hub.api)).items[0].unit_price).toBe(2500);
    await hub.api.patch(`/v1/menu_items/${item}`, { price: 2700 });
    expect((await order(hub.api)).items[0].unit_price).toBe(2700);
    await otherApi.patch(`/v1/menu_items/${item}`, { price: 2900 });
    expect((await order(hub.api)).items[0].unit_price).toBe(2900);
    await otherApi.patch(`/v1/menu_items/${item}`, { is_available: false });
    const refused = await hub.api.post('/v1/orders', { type: 'takeout', items: [{ menu_item: item, quantity: 1 }] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('menu_item_unavailable');
    // the default tax rate is part of the catalogue too
    await otherApi.patch('/v1/settings', { default_tax_rate: 0.25 });
    await otherApi.patch(`/v1/menu_items/${item}`, { is_available: true });
    const taxed = await order(hub.api);
    expect(taxed.tax_amount).toBe(725);
  });

  it("answers a station's kitchen view from its page, and checks the station when the page is made", async () => {
    const screen = hub.api.withKey(hub.keys.widget);
    const unknown = await screen.get('/public/orders/kitchen?station=pastry');
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('unknown_station');
    // a refusal is never kept: the station made now is served at once, by either server
    expect((await hub.api.post('/v1/stations', { key: 'pastry', name: 'Pastry' })).status).toBe(201);
    const made = await screen.get('/public/orders/kitchen?station=pastry');
    expect(made.status).toBe(200);
    expect((await otherApi.withKey(hub.keys.widget).get('/public/orders/kitchen?station=pastry')).status).toBe(200);
    expect((await screen.get('/public/orders/kitchen?station=pastry-oven')).status).toBe(400);
    if (dialect !== 'sqlite') return;
    // the page again: only the version is read (no station, no order), on the hub's connection
    const read = await statementsDuring(() => screen.get('/public/orders/kitchen?station=pastry'));
    expect(read.filter((sql) => /\b(stations|orders|order_items)\b/.test(sql))).toEqual([]);
  });

  it('keeps restaurants apart', async () => {
    const second = await hub.addRestaurant(`cache-${dialect}`);
    const url = '/v1/menu_items?limit=100';
    const mine = await hub.api.get(url);
    const theirs = await second.api.get(url);
    expect(theirs.body.data).toEqual([]);
    expect(mine.body.data.length).toBeGreaterThan(0);
  });
});

/** The SQL text of every statement better-sqlite3 runs in this process while `act` runs. */
async function statementsDuring(act: () => Promise<unknown>): Promise<string[]> {
  const probe = new SQLite(':memory:');
  const proto = Object.getPrototypeOf(probe.prepare('select 1')) as Record<'run' | 'all' | 'get' | 'iterate', (...a: unknown[]) => unknown>;
  probe.close();
  const seen: string[] = [];
  const original = { ...proto };
  for (const k of ['run', 'all', 'get', 'iterate'] as const) {
    proto[k] = function (this: SQLite.Statement, ...args: unknown[]) {
      seen.push(this.source);
      return original[k].apply(this, args);
    };
  }
  try {
    await act();
  } finally {
    Object.assign(proto, original);
  }
  return seen;
}
