import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { createInvite } from '../../sync/cloud.ts';
import { comanda } from '../helpers/comanda-process.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { addPrinter, PrinterEmulator } from '../printers/fixtures.ts';
import { startPair, type Pair } from './helpers.ts';

/**
 * An order pulled down by `comanda sync link` (a new PC taking over a venue the cloud already
 * holds) is followed as a served hub follows one: its kitchen ticket is queued and it counts in
 * the analytics roll-ups. Before the CLI assembled its server's registry as `serve` does, it ran
 * only the hooks registered on import (tickets), so the pulled orders had no roll-ups (#46).
 */
describe('comanda sync link pulls orders with what follows them', { timeout: 120_000 }, () => { // 120 s: a pair, a push, then a CLI process that links and pulls
  let pair: Pair | undefined;
  let emu: PrinterEmulator | undefined;
  let pulled: Database | undefined;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-pullhooks-'));
  afterAll(async () => {
    await pulled?.close();
    await emu?.close();
    await pair?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a pulled order gets its kitchen ticket and its analytics roll-up', async () => {
    // the order is new when the CLI (on the real clock) pulls it: a pull prints nothing rung in
    // more than 4 h before (server/domain/printers/catch-up.ts)
    const now = Date.now();
    const p = (pair = await startPair({ hubClock: new ManualClock(now), cloudClock: new ManualClock(now) }));
    const menu = await seedMenu(p.hub);
    emu = await PrinterEmulator.start();
    await addPrinter(p.hub, emu, { name: 'Grill', stations: ['grill'] });
    const order = await p.hub.api.post('/v1/orders', { type: 'takeout', customer_name: 'Ada', items: [{ menu_item: menu.steak, quantity: 2, modifiers: ['Rare'] }] });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect((await p.hub.api.patch(`/v1/orders/${order.body.id}`, { status: 'placed' })).status).toBe(200);
    expect((await p.link()).mode).toBe('push');

    const { code } = await createInvite(p.cloud.server.services.db, p.cloud.clock.now(), p.hub.restaurant.id);
    const linked = await comanda('sync', 'link', '--data-dir', dir, '--cloud-url', p.cloud.url, '--code', code);
    expect(linked).toMatchObject({ linked: true, mode: 'pull', restaurant_id: p.hub.restaurant.id });

    pulled = await openDatabase({ dataDir: dir });
    const db = pulled.db;
    const tickets = await db.selectFrom('print_jobs').select(['kind', 'order_id']).where('order_id', '=', order.body.id).execute();
    expect(tickets.map((t) => t.kind)).toContain('kitchen_ticket');
    const fact = await db.selectFrom('analytics_order_facts').selectAll().where('order_id', '=', order.body.id).executeTakeFirst();
    expect(fact, 'the pulled order counts in the roll-ups').toBeDefined();
    // the same roll-ups as on the hub the order was taken on
    const daily = (from: typeof db) =>
      from.selectFrom('analytics_daily').select(['day', 'hour', 'type', 'orders', 'revenue']).where('restaurant_id', '=', p.hub.restaurant.id).orderBy(['day', 'hour', 'type']).execute();
    const here = await daily(db);
    expect(here.map((r) => Number(r.orders))).toEqual([1]);
    expect(here.map((r) => ({ ...r, revenue: Number(r.revenue) }))).toEqual((await daily(p.hub.server.services.db)).map((r) => ({ ...r, revenue: Number(r.revenue) })));
  });
});
