import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { auditSide, rowHash } from '../../sync/audit.ts';
import { readLink } from '../../sync/hub.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { until } from '../helpers/until.ts';
import { audit, startPair, type Pair } from './helpers.ts';

/**
 * The hub's audit reads every replicated row of the venue. better-sqlite3 reads synchronously:
 * on the thread that serves, the reads held pushes, pulls and orders for as long as they took
 * (seconds for a week's order lines). The hub's audit reads on a thread of its own.
 */
describe('sync: the hub’s audit beside live sync', () => {
  let pair: Pair | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await pair?.close();
    pair = undefined;
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  const start = async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-audit-'));
    const p = (pair = await startPair({ hubDataDir: dir }));
    const menu = await seedMenu(p.hub);
    for (let i = 0; i < 6; i++) {
      const r = await p.hub.api.post('/v1/orders', { type: 'takeout', customer_name: `Guest ${i}`, notes: i % 2 ? null : 'no onions', items: [{ menu_item: menu.pasta, quantity: 1 + i }] });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    }
    await p.link();
    const link = (await readLink(p.hub.server.services.db))!;
    return { p, menu, restaurantId: link.restaurant_id };
  };

  it('an order crosses each way while the hub’s audit is held mid-way', async () => {
    const { p, menu, restaurantId } = await start();
    const flags = new Int32Array(new SharedArrayBuffer(8));
    let finished = false;
    const auditing = auditSide(p.hub.server.services.db, restaurantId, undefined, { pause: { afterRows: 20, flags } }).finally(() => (finished = true));
    try {
      await until('the audit thread stopped where it was held', async () => Atomics.load(flags, 0) === 1);
      const here = await p.hub.api.post('/v1/orders', { type: 'takeout', customer_name: 'During the audit', items: [{ menu_item: menu.pasta, quantity: 1 }] });
      expect(here.status).toBe(201);
      await until('the hub’s order reached the cloud', async () => (await p.cloudApi.get(`/v1/orders/${here.body.id}`)).status === 200);
      const there = await p.cloudApi.post('/v1/orders', { type: 'takeout', customer_name: 'From the web', items: [{ menu_item: menu.steak, quantity: 1, modifiers: ['Rare'] }] });
      expect(there.status, JSON.stringify(there.body)).toBe(201);
      await until('the cloud’s order reached the hub', async () => (await p.hub.api.get(`/v1/orders/${there.body.id}`)).status === 200);
      // both crossed while the audit was still held where it stopped
      expect(finished).toBe(false);
      expect(Atomics.load(flags, 1)).toBe(0);
    } finally {
      Atomics.store(flags, 1, 1);
      Atomics.notify(flags, 1);
    }
    const summary = await auditing;
    expect(summary.tables.orders.rows).toBeGreaterThanOrEqual(6);
    // and the audit still finds the sides the same once both hold everything
    await until('the audit finds the sides the same', async () => (await audit(p.hub)).in_sync);
  });

  it('the audit read on its thread sums and lists the rows exactly as one read in process', async () => {
    const { p, restaurantId } = await start();
    const db = p.hub.server.services.db;
    const onThread = await auditSide(db, restaurantId);
    const inProcess = await auditSide(db, restaurantId, undefined, { inProcess: true });
    expect(onThread).toEqual(inProcess);
    expect(onThread.tables.orders.rows).toBe(6);
    // the rows of chosen buckets, for the second look
    const detail = { orders: Object.keys(onThread.tables.orders.buckets).slice(0, 3), order_items: Object.keys(onThread.tables.order_items.buckets) };
    const a = await auditSide(db, restaurantId, detail);
    const b = await auditSide(db, restaurantId, detail, { inProcess: true });
    expect(a).toEqual(b);
    expect(Object.keys(a.rows!.order_items)).toHaveLength(onThread.tables.order_items.rows);
    // and their per-row hashes (the second look a hub asks for now)
    const h = await auditSide(db, restaurantId, detail, { hashes: true });
    expect(h).toEqual(await auditSide(db, restaurantId, detail, { hashes: true, inProcess: true }));
    expect(h.rows).toBeUndefined();
    expect(Object.keys(h.hashes!.order_items).sort()).toEqual(Object.keys(a.rows!.order_items).sort());
    for (const [id, row] of Object.entries(a.rows!.order_items)) expect(h.hashes!.order_items[id]).toBe(rowHash('order_items', row));
  });
});
