import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { Database } from '../../server/db/database.ts';
import type { DB } from '../../server/db/schema.ts';
import { Transactor } from '../../server/db/transact.ts';
import { loadSealingKey, unseal } from '../../server/operator/sealed.ts';
import { createOrder } from '../../server/domain/orders/create-order.ts';
import '../../server/features/index.ts';
import { comanda, ServeProcess, until } from '../helpers/comanda-process.ts';
import { busyRetry, DIALECTS } from '../helpers/db.ts';
import { ApiClient } from '../helpers/server.ts';
import type { TcpProxy } from '../helpers/tcp-proxy.ts';
import { startProcessPair, type ProcessPair } from './process-pair.ts';
import { Receiver } from '../webhooks/helpers.ts';

/**
 * Cloud sync between real processes, as a venue runs it: a cloud (`comanda serve --role
 * cloud`, PostgreSQL) and a hub (`comanda init` + `comanda serve`, SQLite) linked with the
 * CLI through a TCP proxy that plays the internet. The scenarios run in order on the same
 * pair, each ending with the convergence audit (`comanda sync audit`) clean.
 */
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`cloud sync between processes (cloud on ${dialect})`, { timeout: 240_000 }, () => { // 240 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
    let pair: ProcessPair;
    let menuItem: string;
    // the pair's parts, named as the scenarios read them (hub and cloud change when one is restarted)
    let cloudDb: Database;
    let hubDb: Database;
    let proxy: TcpProxy;
    let dir: string;
    let restaurantId: string;
    const hubApi = () => pair.hubApi();
    const cloudApi = () => pair.cloudApi();

    beforeAll(async () => {
      pair = await startProcessPair({
        name: 'Trattoria',
        cloudArgs: ['--webhooks-allow-private'],
        beforeLink: async (api) => {
          const category = await api.post('/v1/menu_categories', { name: 'Mains' });
          expect(category.status).toBe(201);
          const item = await api.post('/v1/menu_items', { name: 'Carbonara', category: category.body.id, price: 1450 });
          expect(item.status).toBe(201);
          menuItem = item.body.id;
        },
      });
      ({ cloudDb, hubDb, proxy, dir, restaurantId } = pair);
    }, 240_000); // 240 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds

    // the last test leaves the hub refused by the cloud (another protocol, a revoked credential):
    // the two sides can no longer converge, and each test above checked its own convergence
    afterAll(() => pair?.close({ converge: false }));

    const order = (api: ApiClient, name: string) =>
      api.post('/v1/orders', { type: 'takeout', customer_name: name, items: [{ menu_item: menuItem, quantity: 1 }] }).then((r) => {
        if (r.status !== 201) throw new Error(`order refused: ${r.status} ${JSON.stringify(r.body)}`);
        return r.body as { id: string; order_number: string };
      });

    /** Orders written on the hub's database by a second process, many per transaction (a busy service offline). */
    async function backlog(n: number): Promise<void> {
      const tx = new Transactor(hubDb.db);
      for (let done = 0; done < n; done += 100) {
        // the hub process writes too (its sync bookkeeping): a transaction that lost the
        // race for SQLite's write lock is rolled back whole and run again
        await busyRetry(() =>
          tx.run(async (trx) => {
            for (let i = done; i < Math.min(n, done + 100); i++) {
              await createOrder(
                trx,
                { restaurantId, livemode: true, now: Date.now() },
                { nodeTag: '', fleet: null },
                { type: 'takeout', items: [{ menu_item: menuItem, quantity: 1 + (i % 3) }], source: 'api', status: 'draft', customer_name: `Guest ${i}` },
              );
            }
          }),
        );
      }
    }

    const hubEpoch = () => pair.hubEpoch();
    const maxSeq = (db: Kysely<DB>, where: (q: any) => any) => pair.maxSeq(db, where);
    const cloudCursor = () => pair.cloudCursor();
    const converged = (deadlineMs?: number) => pair.converged(deadlineMs);

    /** The restaurant's orders on both sides are the same, and their numbers unique. */
    async function sameOrders(): Promise<number> {
      const read = (db: Kysely<DB>) =>
        db.selectFrom('orders').select(['id', 'order_number', 'business_date', 'status', 'total']).where('restaurant_id', '=', restaurantId).orderBy('id').execute();
      const [mine, theirs] = await Promise.all([read(hubDb.db), read(cloudDb.db)]);
      expect(theirs.map((o) => ({ ...o, total: Number(o.total) }))).toEqual(mine.map((o) => ({ ...o, total: Number(o.total) })));
      expect(new Set(mine.map((o) => `${o.business_date}/${o.order_number}`)).size).toBe(mine.length);
      for (const db of [hubDb.db, cloudDb.db]) {
        const twice = await db
          .selectFrom('change_log')
          .select('op_id')
          .where('restaurant_id', '=', restaurantId)
          .groupBy('op_id')
          .having((eb) => eb.fn.countAll(), '>', 1)
          .execute();
        expect(twice).toEqual([]);
      }
      return mine.length;
    }

    it('orders taken on both sides during an outage converge once the line is back; each order.created webhook is sent once, by the cloud', async () => {
      const receiver = await Receiver.start();
      try {
        const endpoint = await hubApi().post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['order.created'] });
        expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
        await until('the endpoint reached the cloud', async () => !!(await cloudDb.db.selectFrom('webhook_endpoints').select('id').where('id', '=', endpoint.body.id).executeTakeFirst()), 60_000);

        proxy.cut();
        const onHub = [];
        const onCloud = [];
        for (let i = 0; i < 5; i++) {
          onHub.push(await order(hubApi(), `Hub guest ${i}`));
          onCloud.push(await order(cloudApi(), `Web guest ${i}`));
        }
        // apart: neither side has the other's orders yet
        expect(await cloudDb.db.selectFrom('orders').select('id').where('id', 'in', onHub.map((o) => o.id)).execute()).toEqual([]);
        expect(await hubDb.db.selectFrom('orders').select('id').where('id', 'in', onCloud.map((o) => o.id)).execute()).toEqual([]);
        expect(onHub.every((o) => /^\d+$/.test(o.order_number))).toBe(true);
        expect(onCloud.every((o) => /^C\d+$/.test(o.order_number))).toBe(true);

        proxy.restore();
        await converged();
        await sameOrders();

        const created = (
          await cloudDb.db.selectFrom('events').select('id').where('restaurant_id', '=', restaurantId).where('type', '=', 'order.created').execute()
        ).map((e) => e.id);
        expect(created.length).toBe(10);
        await until('every order.created event delivered by the cloud', async () => {
          const rows = await cloudDb.db.selectFrom('webhook_deliveries').select('status').where('event_id', 'in', created).execute();
          return rows.length === created.length && rows.every((r) => r.status === 'delivered');
        }, 60_000);
        const counts = new Map<string, number>();
        for (const r of receiver.received) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
        expect([...counts.keys()].sort()).toEqual([...created].sort());
        expect([...counts.values()].every((n) => n === 1)).toBe(true);
        // the hub stood down: it queued no delivery of its own, the cloud sent them all
        expect(await hubDb.db.selectFrom('webhook_deliveries').select('id').where('restaurant_id', '=', restaurantId).execute()).toEqual([]);
        // and the delivery history reaches the hub: its events end delivered too
        await until('the hub sees its events delivered', async () => {
          const rows = await hubDb.db.selectFrom('events').select('status').where('id', 'in', created).execute();
          return rows.length === created.length && rows.every((r) => r.status === 'delivered');
        }, 60_000);
        // later scenarios' events are not for this receiver
        expect((await hubApi().delete(`/v1/webhook_endpoints/${endpoint.body.id}`)).status).toBe(200);
      } finally {
        await receiver.close();
      }
    });

    it('a connection dropped in the middle of a push answer and of a pull answer: retried, nothing lost, nothing twice', async () => {
      // One cut at a time. Both armed at once, the pull's could break first: the hub then ends
      // everything on that line, its push too before a byte of the answer came back, and when
      // the cloud had already applied that push there is nothing left to push for the push's cut.
      // The push's answer first: orders taken on the hub's tills while the line is down.
      proxy.cut();
      for (let i = 0; i < 20; i += 10) await Promise.all(Array.from({ length: 10 }, (_, k) => order(hubApi(), `Hub guest ${i + k}`)));
      let droppedBefore = proxy.dropped;
      const pushCut = proxy.dropMidResponse(120, { path: '/sync/v1/push' });
      proxy.restore();
      await until(pair.stalled('the push answer was cut'), async () => proxy.dropped === droppedBefore + 1, 120_000);
      await pushCut;
      await converged();
      // then the pull's: orders taken online (a few at a time, as several integrations would)
      proxy.cut();
      for (let i = 0; i < 60; i += 10) await Promise.all(Array.from({ length: 10 }, (_, k) => order(cloudApi(), `Web guest ${i + k}`)));
      droppedBefore = proxy.dropped;
      const pullCut = proxy.dropMidResponse(1500, { path: '/sync/v1/pull' });
      proxy.restore();
      await until(pair.stalled('the pull answer was cut'), async () => proxy.dropped === droppedBefore + 1, 120_000);
      await pullCut;
      await converged();
      await sameOrders();
    });

    it('kill -9 of the hub while it pushes a long backlog: after a restart both sides hold every change once', async () => {
      proxy.cut();
      await backlog(2000);
      const epoch = await hubEpoch();
      const ownTop = await maxSeq(hubDb.db, (q) => q.where('origin', '=', epoch));
      const before = await cloudCursor();
      proxy.restore();
      await until('the hub started pushing its backlog', async () => (await cloudCursor()) > before, 60_000);
      await pair.hub.kill9();
      // it died part way: the cloud does not hold the whole backlog yet
      expect(await cloudCursor()).toBeLessThan(ownTop);

      pair.hub = await ServeProcess.start(['--data-dir', dir]);
      await converged();
      expect(await sameOrders()).toBeGreaterThanOrEqual(2085);
    });

    it('kill -9 of the cloud while it applies a backlog: after a restart both sides hold every change once', async () => {
      proxy.cut();
      await backlog(2000);
      const before = await cloudCursor();
      proxy.restore();
      await until('the cloud started applying the backlog', async () => (await cloudCursor()) > before, 60_000);
      await pair.cloud.kill9();
      const epoch = await hubEpoch();
      expect(await cloudCursor()).toBeLessThan(await maxSeq(hubDb.db, (q) => q.where('origin', '=', epoch)));

      pair.cloud = await ServeProcess.start(pair.cloudArgs, { port: pair.cloud.port });
      await converged();
      expect(await sameOrders()).toBeGreaterThanOrEqual(4085);
    });

    it('another protocol version is refused before anything is applied; a hub the cloud refuses shows why in `sync status`', async () => {
      // the line is down, so the hub itself cannot clear what the cloud records of the refusal
      proxy.cut();
      const link = await hubDb.db.selectFrom('sync_link').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
      const epoch = await hubEpoch();
      const call = (p: string, body: unknown, credential = unseal(loadSealingKey(dir), link.credential)!) =>
        fetch(`${pair.cloud.url}/sync/v1${p}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
      const logBefore = await maxSeq(cloudDb.db, (q) => q);
      const cursorBefore = await cloudCursor();

      const hello = await call('/hello', { protocol: 999, epoch });
      expect(hello.status).toBe(400);
      expect(hello.body.error).toMatchObject({ code: 'sync_protocol_mismatch', param: 'protocol' });

      // a batch of a newer hub: a well-formed change of a new order, refused whole
      const sample = await hubDb.db.selectFrom('change_log').selectAll().where('table_name', '=', 'orders').where('origin', '=', epoch).orderBy('seq', 'desc').executeTakeFirstOrThrow();
      const data = { ...JSON.parse(sample.data), id: 'ord_01JZZZZZZZZZZZZZZZZZZZZZZZ', order_number: '9999' };
      const push = await call('/push', {
        protocol: 999,
        epoch,
        after: cursorBefore,
        changes: [{ op_id: 'op_newer_hub', origin: epoch, origin_seq: cursorBefore + 1, table: 'orders', row_id: data.id, op: 'insert', data, fields: null, hlc: sample.hlc }],
      });
      expect(push.status).toBe(400);
      expect(push.body.error.code).toBe('sync_protocol_mismatch');
      expect(await maxSeq(cloudDb.db, (q) => q)).toBe(logBefore);
      expect(await cloudCursor()).toBe(cursorBefore);
      expect(await cloudDb.db.selectFrom('orders').select('id').where('id', '=', data.id).executeTakeFirst()).toBeUndefined();
      // the cloud's side of the status shows the refusal
      const cloudStatus = await cloudApi().get('/v1/sync/status');
      expect(cloudStatus.status).toBe(200);
      expect(cloudStatus.body.last_error).toMatch(/^sync_protocol_mismatch/);

      // the hub's own status: the old PC is replaced (a new link takes the restaurant over),
      // so the cloud refuses the old hub's credential from now on
      const invite = await comanda('sync', 'invite', '--database-url', cloudDb.url!, '--restaurant', restaurantId);
      const other = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-syncproc-new-'));
      try {
        const taken = await comanda('sync', 'link', '--data-dir', other, '--cloud-url', pair.cloud.url, '--code', invite.code);
        expect(taken).toMatchObject({ linked: true, mode: 'pull', restaurant_id: restaurantId });
        expect(taken.pulled).toBeGreaterThan(4000);
      } finally {
        fs.rmSync(other, { recursive: true, force: true });
      }
      proxy.restore();
      await until('the hub was refused', async () => {
        const l = await hubDb.db.selectFrom('sync_link').select('refused').where('id', '=', 1).executeTakeFirstOrThrow();
        return l.refused !== null;
      }, 60_000);
      const status = await comanda('sync', 'status', '--data-dir', dir);
      expect(status).toMatchObject({ object: 'sync_status', linked: true, connected: false });
      expect(status.last_error).toMatch(/^sync_credential_invalid: /);
      // the refused hub keeps serving the venue
      expect((await order(hubApi(), 'Still serving')).order_number).toMatch(/^\d+$/);
    });
  });
}
