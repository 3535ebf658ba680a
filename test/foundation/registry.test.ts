import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { servicesFor } from '../../server/cli/sync.ts';
import { openDatabase } from '../../server/db/database.ts';
import type { OrderChange } from '../../server/domain/orders/hooks.ts';
import type { Feature } from '../../server/features/feature.ts';
import { features } from '../../server/features/index.ts';
import type { Registry } from '../../server/registry.ts';
import { createServer } from '../../server/server.ts';
import { DIALECTS } from '../helpers/db.ts';
import { silentLogger } from '../../server/logger.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu } from '../orders/fixtures.ts';
import { TestSocket } from '../realtime/socket.ts';

/** What a registry holds, by name: what two assemblies must agree on. */
const shape = (r: Registry) => ({
  orderHooks: r.hooks.orders.map((h) => h.name),
  eventHooks: r.hooks.events.map((h) => h.name),
  remoteBatchHooks: r.hooks.remoteBatch.map((h) => h.name),
  expandables: r.expandables.names(),
  feeds: [...r.realtime.feeds.keys()].sort(),
  noticeTopics: [...r.realtime.noticeTopics.keys()].sort(),
  guestTokens: [...r.realtime.guestTokens.keys()].sort(),
  guestLimits: r.realtime.guestLimits !== null,
  guestOrderView: r.realtime.guestOrderView !== null,
});

describe('one registry per server (#46)', () => {
  it('`comanda sync link` and `comanda serve` assemble the same hooks, feeds and expandables', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-registry-'));
    const database = await openDatabase({ dataDir: dir });
    const server = createServer({ database, logger: silentLogger });
    try {
      const served = shape(server.services.registry);
      // what the server runs beside an order and an event: tickets, roll-ups, webhooks
      expect(served.orderHooks).toEqual(expect.arrayContaining(['printers-tickets', 'analytics-rollups']));
      expect(served.eventHooks).toEqual(['webhooks-fan-out']);
      // what follows another node's batch, in the features' order: the orders' bills, tickets and
      // roll-ups before the customer merge that moves roll-ups (sync/derived.ts)
      expect(served.remoteBatchHooks).toEqual(['orders-after-sync', 'reservations-double-bookings', 'webhooks-after-sync', 'sync-customer-merge']);
      expect(served.feeds).toEqual(['api_keys', 'menu_items', 'reservations', 'stations', 'waitlist_entries']);
      expect(served.guestTokens).toEqual(['qr', 'waitlist']);
      expect(served).toMatchObject({ noticeTopics: ['printers'], guestLimits: true, guestOrderView: true });
      expect(served.expandables).toEqual(expect.arrayContaining(['order', 'order_item', 'menu_item', 'printer', 'print_job', 'reservation', 'staff_user', 'table']));
      // the CLI's services, as `comanda sync link` builds them
      expect(shape(servicesFor(database, dir).registry)).toEqual(served);
    } finally {
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.each(DIALECTS)('two servers in one process on %s', (dialect) => {
  // a feature only the first server is made of: an order hook and a row feed
  const seen: string[] = [];
  const spy: Feature = {
    name: 'test-spy',
    orderHooks: [{ name: 'test-spy', change: async (_trx: unknown, change: OrderChange) => void seen.push(change.order.id) }],
    realtimeFeeds: [{ table: 'customers', type: 'customer', collection: 'customers', entry: null, scope: 'customers:read', present: (row) => ({ id: row.id }) }],
  };
  let withSpy: TestHub;
  let plain: TestHub;
  beforeAll(async () => {
    withSpy = await startHub(dialect, { features: [...features, spy] });
    plain = await startHub(dialect);
  });
  afterAll(async () => {
    await withSpy?.close();
    await plain?.close();
  });

  it('share no registry: a feature installed on one does not act on the other', async () => {
    expect(withSpy.server.services.registry).not.toBe(plain.server.services.registry);
    expect(shape(plain.server.services.registry).orderHooks).not.toContain('test-spy');
    const order = async (hub: TestHub) => {
      const menu = await seedMenu(hub);
      const res = await hub.api.post('/v1/orders', { type: 'takeout', customer_name: 'Ada', items: [{ menu_item: menu.pasta, quantity: 1 }] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.id as string;
    };
    const mine = await order(withSpy);
    const theirs = await order(plain);
    expect(seen).toContain(mine);
    expect(seen).not.toContain(theirs);
    // the feed one server declares is a topic there, and unknown on the other
    for (const [hub, answer] of [
      [withSpy, { type: 'subscribed' }],
      [plain, { type: 'error', data: { code: 'parameter_invalid' } }],
    ] as const) {
      const socket = await TestSocket.open(hub.url);
      try {
        await socket.auth(hub.keys.secret);
        expect((await socket.subscribe(['customers']))[0]).toMatchObject(answer);
      } finally {
        socket.ws.terminate();
      }
    }
  });
});
