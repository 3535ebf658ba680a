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
import { busyRetry, DIALECTS, freshDatabase } from '../helpers/db.ts';
import { ApiClient } from '../helpers/server.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { copyPostgres } from '../helpers/pg-copy.ts';
import { lineState } from './process-pair.ts';
import { compactLog } from '../../sync/compact.ts';

/**
 * Faults that used to leave a hub and its cloud different for good, between real processes: a
 * cloud (`comanda serve --role cloud`, PostgreSQL) and a hub (SQLite) linked through a TCP
 * proxy that plays the internet. The scenarios run in order on the same pair; each ends with
 * `comanda sync audit` clean.
 */
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`sync faults between processes (cloud on ${dialect})`, { timeout: 240_000 }, () => { // 240 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
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
    /** What a wait that gave up adds: whether the hub still talked to the cloud, and what it last heard. */
    const waiting = (what: string) => async () => `${what}: ${await lineState(hubDb, proxy)}`;

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
    }, 240_000); // 240 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds

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
        waiting('hub and cloud converged'),
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
      await until('the item reached the cloud', async () => !!(await cloudDb.db.selectFrom('menu_items').select('id').where('id', '=', menuItem).executeTakeFirst()), 60_000);
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
      await until('the price reached the hub', async () => (await item(hubDb.db)).price === 1600, 60_000);
      await converged();
      expect(await item(hubDb.db)).toEqual({ name: 'Carbonara della casa', price: 1600 });
      expect({ ...(await item(cloudDb.db)), price: Number((await item(cloudDb.db)).price) }).toEqual({ name: 'Carbonara della casa', price: 1600 });
    });

    it('compaction then a hub restored from a backup older than it: the hub converges by itself (the repair brings the row whole, with its clocks)', async () => {
      const made = await hubApi().post('/v1/menu_items', { name: 'Risotto', category, price: 1300 });
      expect(made.status).toBe(201);
      const id = made.body.id as string;
      const row = (db: Kysely<DB>) => db.selectFrom('menu_items').select(['name', 'price']).where('id', '=', id).executeTakeFirstOrThrow();
      await until('the item reached the cloud', async () => !!(await cloudDb.db.selectFrom('menu_items').select('id').where('id', '=', id).executeTakeFirst()), 60_000);
      const backup = path.join(dir, '..', `${path.basename(dir)}-old.db`);
      await comanda('backup', '--data-dir', dir, '--to', backup);

      expect((await hubApi().patch(`/v1/menu_items/${id}`, { name: 'Risotto ai funghi' })).status).toBe(200);
      expect((await hubApi().patch(`/v1/menu_items/${id}`, { price: 1500 })).status).toBe(200);
      await until('both edits reached the cloud', async () => Number((await row(cloudDb.db)).price) === 1500, 60_000);
      await converged();
      // the nightly compaction, two days on, on both sides: the cloud keeps one entry of the row (the price's)
      const later = Date.now() + 2 * 86_400_000;
      await compactLog(cloudDb.db, { nowMs: later });
      await busyRetry(() => compactLog(hubDb.db, { nowMs: later }));
      const kept = await cloudDb.db.selectFrom('change_log').select(['fields']).where('table_name', '=', 'menu_items').where('row_id', '=', id).execute();
      expect(kept).toHaveLength(1);
      expect(JSON.parse(kept[0].fields!)).toContain('price');
      expect(JSON.parse(kept[0].fields!)).not.toContain('name');

      // the hub PC is restored from the backup made before the rename
      await hub.stop();
      await hubDb.close();
      const restored = await comanda('restore', '--data-dir', dir, backup);
      expect(restored.epoch).toMatch(/^node_/);
      hub = await ServeProcess.start(['--data-dir', dir]);
      hubDb = await openDatabase({ dataDir: dir });
      await converged();
      expect(await row(hubDb.db)).toEqual({ name: 'Risotto ai funghi', price: 1500 });
      // the row may converge through the pull (compacted entries carry their clocks) before the
      // repair that follows a reconnection has run and said so
      let status: any;
      await until('the repair says in sync', async () => (status = await comanda('sync', 'status', '--data-dir', dir)).repair?.state === 'in_sync', 60_000);
      expect(status.repair).toMatchObject({ state: 'in_sync', unconverged: [] });
    });

    it('a cloud restored from a dump is found out: orders taken on it after the restore reach the hub, and what the restore lost comes back from the hub, cloud-origin rows included', async () => {
      const dump = await freshDatabase('postgres');
      await copyPostgres(cloudDb.url!, dump.url!);
      const epochBefore = (await cloudDb.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin;
      // after the dump: an order on each side, exchanged
      const lostOnCloud = await order(cloudApi(), 'Web guest after the dump');
      const fromHub = await order(hubApi(), 'Hub guest after the dump');
      await until(waiting('the cloud’s order reached the hub'), async () => !!(await hubDb.db.selectFrom('orders').select('id').where('id', '=', lostOnCloud.id).executeTakeFirst()), 60_000);
      await converged();

      // the cloud's database is lost and restored from the dump
      await cloud.kill9();
      const old = cloudDb;
      cloudDb = dump;
      await old.close();
      cloud = await ServeProcess.start(cloudArgs(), { port: cloud.port });
      const afterRestore = await order(cloudApi(), 'Web guest after the restore');

      await until(waiting('the cloud took a new log identity'), async () => (await cloudDb.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin !== epochBefore, 60_000);
      await until(waiting('the order taken after the restore reached the hub'), async () => !!(await hubDb.db.selectFrom('orders').select('id').where('id', '=', afterRestore.id).executeTakeFirst()), 60_000);
      await converged();
      const ids = [lostOnCloud.id, fromHub.id, afterRestore.id].sort();
      for (const db of [hubDb.db, cloudDb.db]) {
        expect((await db.selectFrom('orders').select('id').where('id', 'in', ids).orderBy('id').execute()).map((o) => o.id)).toEqual(ids);
      }
      const cloudStatus = (await cloudApi().get('/v1/sync/status')).body;
      expect(cloudStatus.repair.state).toBe('in_sync');
      // on the cloud, the operator lists its linked hubs
      const hubs = await comanda('sync', 'status', '--database-url', cloudDb.url!);
      expect(hubs.data).toEqual([expect.objectContaining({ restaurant_id: restaurantId, hub_id: cloudStatus.hub_id, linked: true, connected: true })]);
    });

    it('rows that differ with no change to settle them (written behind the log): the repair says so loudly on both sides, and clears once a person edits the row', async () => {
      await cloudDb.db.updateTable('menu_items').set({ description: 'written behind the log' }).where('id', '=', menuItem).execute();
      // a new connection runs the audit-and-repair
      proxy.cut();
      proxy.restore();
      await until('the hub reports the rows it cannot make the same', async () => (await comanda('sync', 'status', '--data-dir', dir)).repair.state === 'diverged', 120_000);
      const status = await comanda('sync', 'status', '--data-dir', dir);
      expect(status.repair.unconverged).toEqual([{ table: 'menu_items', id: menuItem }]);
      // each side says so too; a reconnection on a loaded box may start another round first, which
      // ends the same way
      const said = { state: 'diverged', unconverged: [{ table: 'menu_items', id: menuItem }] };
      await expect.poll(async () => (await hubApi().get('/v1/sync/status')).body.repair, { timeout: 60_000, interval: 250 }).toMatchObject(said);
      await expect.poll(async () => (await cloudApi().get('/v1/sync/status')).body.repair, { timeout: 60_000, interval: 250 }).toMatchObject(said);

      // a person settles it: an edit travels like any change
      expect((await hubApi().patch(`/v1/menu_items/${menuItem}`, { description: 'Guanciale, pecorino' })).status).toBe(200);
      await until('the repair finds the sides the same again', async () => (await comanda('sync', 'status', '--data-dir', dir)).repair.state === 'in_sync', 120_000);
      await converged();
    });

    it('`comanda restore` counts the changes the cloud never received and refuses without --force, saying how many orders would be lost', async () => {
      const backup = path.join(dir, '..', `${path.basename(dir)}-before-outage.db`);
      await comanda('backup', '--data-dir', dir, '--to', backup);
      proxy.cut();
      await order(hubApi(), 'Offline guest 1');
      await order(hubApi(), 'Offline guest 2');
      await hub.stop();
      await hubDb.close();
      await expect(comanda('restore', '--data-dir', dir, backup)).rejects.toThrow(/restore refused: \d+ change\(s\) made on this hub never reached the cloud, 2 order\(s\) among them; .*--force/);
      // refused before anything was touched: the orders are still there
      const still = await openDatabase({ dataDir: dir });
      expect((await still.db.selectFrom('orders').select('id').where('customer_name', 'like', 'Offline guest %').execute()).length).toBe(2);
      await still.close();
      const forced = await comanda('restore', '--data-dir', dir, backup, '--force');
      expect(forced.epoch).toMatch(/^node_/);
      hub = await ServeProcess.start(['--data-dir', dir]);
      hubDb = await openDatabase({ dataDir: dir });
      proxy.restore();
      await converged();
    });
  });
}
