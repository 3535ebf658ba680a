import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../../server/db/schema.ts';
import { comanda, until } from '../helpers/comanda-process.ts';
import { DIALECTS } from '../helpers/db.ts';
import type { ApiClient } from '../helpers/server.ts';
import { startProcessPair, type ProcessPair } from './process-pair.ts';

/**
 * A silent line between real processes: the proxy keeps every socket open and accepts new
 * ones, but forwards nothing (a NAT that dropped its state, a cable pulled upstream), and the
 * connections it silenced stay dead after the line returns. The hub must see the outage by
 * itself (the long poll's heartbeat stops), and once the line returns, reconnect on new
 * connections and bring together what both sides did meanwhile.
 *
 * The deadlines are deadlines for polling, not measurements: before the heartbeat, a silent
 * long poll was found out only by its 50 s timeout, and requests on the dead sockets hung for
 * 30 s after the line came back.
 */
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`a silent line between hub and cloud (cloud on ${dialect})`, { timeout: 240_000 }, () => { // 240 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
    let pair: ProcessPair;
    let menuItem: string;
    const hubApi = () => pair.hubApi();
    const cloudApi = () => pair.cloudApi();

    beforeAll(async () => {
      pair = await startProcessPair({
        name: 'Trattoria',
        beforeLink: async (api) => {
          const cat = await api.post('/v1/menu_categories', { name: 'Pizze' });
          expect(cat.status).toBe(201);
          const item = await api.post('/v1/menu_items', { name: 'Margherita', category: cat.body.id, price: 900 });
          expect(item.status).toBe(201);
          menuItem = item.body.id;
        },
      });
    }, 240_000); // 240 s: hub and cloud processes started and linked on a busy box

    afterAll(() => pair?.close());

    const status = async () => {
      const r = await hubApi().get('/v1/sync/status');
      expect(r.status).toBe(200);
      return r.body as { connected: boolean; last_error: string | null };
    };
    const order = async (api: ApiClient, name: string) => {
      const r = await api.post('/v1/orders', { type: 'takeout', customer_name: name, items: [{ menu_item: menuItem, quantity: 1 }] });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as string;
    };
    const has = (db: Kysely<DB>, id: string) => db.selectFrom('orders').select('id').where('id', '=', id).executeTakeFirst().then((r) => !!r);
    const item = (db: Kysely<DB>) => db.selectFrom('menu_items').select(['name', 'price']).where('id', '=', menuItem).executeTakeFirstOrThrow();

    it('the hub sees a silent line within seconds, and after it returns both sides’ changes meet and the audit is clean', async () => {
      await until('the hub is connected', async () => (await status()).connected, 60_000);
      // the long poll is held open on the cloud when the line falls silent
      await until('the item reached the cloud', async () => !!(await pair.cloudDb.db.selectFrom('menu_items').select('id').where('id', '=', menuItem).executeTakeFirst()), 60_000);

      pair.proxy.blackhole();
      await until('the hub shows the outage', async () => !(await status()).connected, 20_000);
      expect((await status()).last_error).toMatch(/cloud unreachable/);
      // what another process (the CLI) reads: the outage is kept on the link too
      expect(await comanda('sync', 'status', '--data-dir', pair.dir)).toMatchObject({ connected: false });

      // both sides keep working apart
      const onHub = await order(hubApi(), 'Guest at the counter');
      expect((await hubApi().patch(`/v1/menu_items/${menuItem}`, { name: 'Margherita DOP' })).status).toBe(200);
      const onCloud = await order(cloudApi(), 'Guest on the web');
      expect((await cloudApi().patch(`/v1/menu_items/${menuItem}`, { price: 1050 })).status).toBe(200);
      // still silent: the hub keeps trying on new connections, and none gets through
      expect((await status()).connected).toBe(false);

      pair.proxy.restore();
      await until('the hub reconnected', async () => (await status()).connected, 15_000);
      await until('the cloud’s order reached the hub', () => has(pair.hubDb.db, onCloud), 15_000);
      await until('the hub’s order reached the cloud', () => has(pair.cloudDb.db, onHub), 15_000);

      let report: any = null;
      await until(
        'hub and cloud converged',
        async () => {
          report = await comanda('sync', 'audit', '--data-dir', pair.dir);
          return report.in_sync;
        },
        60_000,
      );
      expect(report.differences).toEqual([]);
      expect(await item(pair.hubDb.db)).toEqual({ name: 'Margherita DOP', price: 1050 });
      const there = await item(pair.cloudDb.db);
      expect({ ...there, price: Number(there.price) }).toEqual({ name: 'Margherita DOP', price: 1050 });
      expect((await status()).last_error).toBeNull();
    });
  });
}
