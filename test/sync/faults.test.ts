import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { openDatabase, type Database } from '../../server/db/database.ts';
import type { DB } from '../../server/db/schema.ts';
import '../../server/features/index.ts';
import { comanda, ServeProcess, until } from '../helpers/comanda-process.ts';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';
import { ApiClient } from '../helpers/server.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';

/**
 * Faults that used to leave a hub and its cloud different for good, between real processes: a
 * cloud (`comanda serve --role cloud`, PostgreSQL) and a hub (SQLite) linked through a TCP
 * proxy that plays the internet. The scenarios run in order on the same pair; each ends with
 * `comanda sync audit` clean.
 */
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`sync faults between processes (cloud on ${dialect})`, { timeout: 240_000 }, () => {
    let cloudDb: Database;
    let cloud: ServeProcess;
    let hub: ServeProcess;
    let proxy: TcpProxy;
    let hubDb: Database;
    let dir: string;
    let restaurantId: string;
    let key: string;
    let category: string;
    let menuItem: string;
    const hubApi = () => new ApiClient(hub.url, key);
    const cloudApi = () => new ApiClient(cloud.url, key);
    const cloudArgs = () => ['--role', 'cloud', '--database-url', cloudDb.url!, '--webhooks-allow-private'];

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-syncfaults-'));
      cloudDb = await freshDatabase('postgres');
      const [started, init] = await Promise.all([
        ServeProcess.start(cloudArgs()),
        comanda('init', '--data-dir', dir, '--name', 'Osteria', '--slug', `osteria-${randomBytes(3).toString('hex')}`),
      ]);
      cloud = started;
      restaurantId = init.restaurant.id;
      key = init.keys.secret;
      hub = await ServeProcess.start(['--data-dir', dir]);
      proxy = await TcpProxy.start(cloud.port);
      hubDb = await openDatabase({ dataDir: dir });
      const cat = await hubApi().post('/v1/menu_categories', { name: 'Mains' });
      expect(cat.status).toBe(201);
      category = cat.body.id;
      const item = await hubApi().post('/v1/menu_items', { name: 'Carbonara', category, price: 1450 });
      expect(item.status).toBe(201);
      menuItem = item.body.id;
      const invite = await comanda('sync', 'invite', '--database-url', cloudDb.url!);
      const linked = await comanda('sync', 'link', '--data-dir', dir, '--cloud-url', proxy.url, '--code', invite.code);
      expect(linked).toMatchObject({ linked: true, mode: 'push', restaurant_id: restaurantId });
    }, 240_000);

    afterAll(async () => {
      await hub?.kill9();
      await cloud?.kill9();
      await proxy?.close();
      await hubDb?.close();
      await cloudDb?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    const order = (api: ApiClient, name: string) =>
      api.post('/v1/orders', { type: 'takeout', customer_name: name, items: [{ menu_item: menuItem, quantity: 1 }] }).then((r) => {
        if (r.status !== 201) throw new Error(`order refused: ${r.status} ${JSON.stringify(r.body)}`);
        return r.body as { id: string; order_number: string };
      });

    const item = async (db: Kysely<DB>) => db.selectFrom('menu_items').select(['name', 'price']).where('id', '=', menuItem).executeTakeFirstOrThrow();

    /** Waits until `comanda sync audit` finds no difference (the repair, when one is needed, runs by itself). */
    async function converged(deadlineMs = 90_000): Promise<any> {
      let report: any = null;
      await until(
        'hub and cloud converged',
        async () => {
          report = await comanda('sync', 'audit', '--data-dir', dir);
          return report.in_sync;
        },
        deadlineMs,
      );
      expect(report.differences).toEqual([]);
      return report;
    }

    it('a whole-form save of the price on the cloud during an outage does not undo a rename made on the hub', async () => {
      await until('the item reached the cloud', async () => !!(await cloudDb.db.selectFrom('menu_items').select('id').where('id', '=', menuItem).executeTakeFirst()));
      proxy.cut();
      expect((await hubApi().patch(`/v1/menu_items/${menuItem}`, { name: 'Carbonara della casa' })).status).toBe(200);
      // the back office's dialog on the cloud, as it read the item before the rename arrived: every field sent back
      const read = (await cloudApi().get(`/v1/menu_items/${menuItem}`)).body;
      const saved = await cloudApi().patch(`/v1/menu_items/${menuItem}`, {
        name: read.name,
        category: read.category,
        price: 1600,
        cost: read.cost,
        tax_rate: read.tax_rate,
        description: read.description,
        allergens: read.allergens,
        image_url: read.image_url,
        translations: read.translations,
      });
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
      proxy.restore();
      await until('the price reached the hub', async () => (await item(hubDb.db)).price === 1600);
      await converged();
      expect(await item(hubDb.db)).toEqual({ name: 'Carbonara della casa', price: 1600 });
      expect({ ...(await item(cloudDb.db)), price: Number((await item(cloudDb.db)).price) }).toEqual({ name: 'Carbonara della casa', price: 1600 });
    });
  });
}
