import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { openDatabase, type Database } from '../../server/db/database.ts';
import { MAX_AHEAD_MS, parseHlc } from '../../server/db/hlc.ts';
import { PAIRING_TTL_SECONDS } from '../../server/domain/devices/pairing.ts';
import type { DB } from '../../server/db/schema.ts';
import { comanda, ServeProcess, until } from '../helpers/comanda-process.ts';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';
import { ApiClient } from '../helpers/server.ts';
import { TcpProxy } from '../helpers/tcp-proxy.ts';
import { Receiver } from '../webhooks/helpers.ts';

interface Hub {
  dir: string;
  proc: ServeProcess;
  db: Database;
  /** the hub's line to the cloud: a round-robin balancer over both cloud processes */
  line: TcpProxy;
  restaurantId: string;
  key: string;
  menuItem: string;
  /** holds the ms the hub's clock is stepped by (COMANDA_CLOCK_SKEW_FILE) */
  skewFile: string;
}

/**
 * The cloud scaled out as it runs in production: two `comanda serve --role cloud` processes
 * on one PostgreSQL (one of them with its clock 2 s behind the other's) behind round-robin
 * balancers, three venues' hubs linked through lines that are cut and restored, and an
 * integration writing through both processes. Every scenario ends with every hub's audit
 * clean.
 */
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`two cloud processes on one ${dialect}, three hubs`, { timeout: 180_000 }, () => { // 180 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds
    let tmp: string;
    let cloudDb: Database;
    const cloud: ServeProcess[] = [];
    const hubs: Hub[] = [];
    let receiver: Receiver;
    /** the integration's view: the same restaurant through either cloud process */
    const viaCloud = (h: Hub, i: number) => new ApiClient(cloud[i % 2].url, h.key);
    const viaHub = (h: Hub) => new ApiClient(h.proc.url, h.key);

    beforeAll(async () => {
      tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-cloudscale-'));
      cloudDb = await freshDatabase('postgres');
      const behind = path.join(tmp, 'cloud-b.skew');
      fs.writeFileSync(behind, '-2000');
      const cloudArgs = ['--role', 'cloud', '--database-url', cloudDb.url!, '--webhooks-allow-private'];
      const [a, b, ...inits] = await Promise.all([
        ServeProcess.start(cloudArgs),
        ServeProcess.start(cloudArgs, { env: { COMANDA_CLOCK_SKEW_FILE: behind } }),
        ...[0, 1, 2].map((i) => {
          const dir = path.join(tmp, `hub${i}`);
          fs.mkdirSync(dir);
          return comanda('init', '--data-dir', dir, '--name', `Venue ${i}`, '--slug', `venue-${i}-${randomBytes(3).toString('hex')}`).then((r) => ({ r, dir }));
        }),
      ]);
      cloud.push(a, b);
      receiver = await Receiver.start();
      await Promise.all(
        inits.map(async ({ r, dir }, i) => {
          const skewFile = path.join(tmp, `hub${i}.skew`);
          fs.writeFileSync(skewFile, '0');
          const line = await TcpProxy.start([a.port, b.port]);
          // linked before it serves: the link command and the server are two writers of one SQLite file
          const invite = await comanda('sync', 'invite', '--database-url', cloudDb.url!);
          const linked = await comanda('sync', 'link', '--data-dir', dir, '--cloud-url', line.url, '--code', invite.code);
          expect(linked).toMatchObject({ linked: true, mode: 'push', restaurant_id: r.restaurant.id });
          const proc = await ServeProcess.start(['--data-dir', dir], { env: { COMANDA_CLOCK_SKEW_FILE: skewFile } });
          const api = new ApiClient(proc.url, r.keys.secret);
          const category = await api.post('/v1/menu_categories', { name: 'Mains' });
          const item = await api.post('/v1/menu_items', { name: 'Carbonara', category: category.body.id, price: 1450 });
          expect(item.status).toBe(201);
          expect((await api.post('/v1/webhook_endpoints', { url: receiver.url, enabled_events: ['order.created'] })).status).toBe(201);
          await until('the menu and the endpoint reached the cloud', async () => {
            const has = await cloudDb.db.selectFrom('webhook_endpoints').select('id').where('restaurant_id', '=', r.restaurant.id).executeTakeFirst();
            return !!has && !!(await cloudDb.db.selectFrom('menu_items').select('id').where('id', '=', item.body.id).executeTakeFirst());
          }, 60_000);
          hubs[i] = { dir, proc, db: await openDatabase({ dataDir: dir }), line, restaurantId: r.restaurant.id, key: r.keys.secret, menuItem: item.body.id, skewFile };
        }),
      );
    }, 180_000); // 180 s: hub and cloud (processes or a pair), the line cut and restored: several sync rounds

    afterAll(async () => {
      await Promise.all([...hubs.map((h) => h?.proc.kill9()), ...cloud.map((c) => c.kill9())]);
      await Promise.all(hubs.map(async (h) => (await h?.line.close(), await h?.db.close())));
      await receiver?.close();
      await cloudDb?.close();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    });

    const order = async (api: ApiClient, h: Hub, name: string) => {
      const r = await api.post('/v1/orders', { type: 'takeout', customer_name: name, items: [{ menu_item: h.menuItem, quantity: 1 }] });
      if (r.status !== 201) throw new Error(`order refused: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body as { id: string };
    };
    const rename = async (api: ApiClient, h: Hub, name: string) => expect((await api.patch(`/v1/menu_items/${h.menuItem}`, { name })).status).toBe(200);
    const nameOn = async (db: Kysely<DB>, h: Hub) => (await db.selectFrom('menu_items').select('name').where('id', '=', h.menuItem).executeTakeFirstOrThrow()).name;

    const top = async (db: Kysely<DB>, h: Hub, where: (q: any) => any) =>
      Number((await where(db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('m')).where('restaurant_id', '=', h.restaurantId)).executeTakeFirst())?.m ?? 0);

    /** Both logs fully exchanged: the cloud acknowledged all of the hub's changes, the hub pulled all of the cloud's. */
    async function exchanged(h: Hub): Promise<boolean> {
      const epoch = (await h.db.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin;
      const link = await h.db.db.selectFrom('sync_link').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
      const hubRow = await cloudDb.db.selectFrom('sync_hubs').select('cursor').where('restaurant_id', '=', h.restaurantId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
      const ownTop = await top(h.db.db, h, (q) => q.where('origin', '=', epoch));
      const cloudTop = await top(cloudDb.db, h, (q) => q.where('origin', '!=', epoch));
      return Number(link.push_cursor) >= ownTop && Number(link.pull_cursor) >= cloudTop && Number(hubRow.cursor) >= ownTop;
    }

    /** Every hub exchanged everything and `comanda sync audit` finds it in sync with the cloud. */
    async function converged(which: Hub[] = hubs): Promise<void> {
      await Promise.all(
        which.map(async (h) => {
          const end = Date.now() + 60_000;
          for (;;) {
            await until(`hub ${h.dir} exchanged its changes`, () => exchanged(h), Math.max(1000, end - Date.now()));
            const report = await comanda('sync', 'audit', '--data-dir', h.dir);
            if (report.in_sync || Date.now() > end) {
              expect(report.differences).toEqual([]);
              expect(report.in_sync).toBe(true);
              return;
            }
          }
        }),
      );
    }

    it('a rename through one cloud process, then a later one through the other (its clock 2 s behind): the later one wins on the hub and in the cloud', async () => {
      const h = hubs[0];
      // both processes have stamped before (each read the persisted stamp long ago)
      await order(viaCloud(h, 0), h, 'Through A');
      await order(viaCloud(h, 1), h, 'Through B');
      for (let round = 0; round < 4; round++) {
        await rename(viaCloud(h, round), h, `Round ${round} first`);
        await rename(viaCloud(h, round + 1), h, `Round ${round} then`);
      }
      await converged([h]);
      expect(await nameOn(cloudDb.db, h)).toBe('Round 3 then');
      expect(await nameOn(h.db.db, h)).toBe('Round 3 then');
      // the stamps of one restaurant's log follow its positions: commit order is time order
      const own = (await cloudDb.db.selectFrom('node_state').select('origin').executeTakeFirstOrThrow()).origin;
      const stamps = await cloudDb.db.selectFrom('change_log').select('hlc').where('restaurant_id', '=', h.restaurantId).where('origin', '=', own).orderBy('seq').execute();
      const ours = stamps.map((s) => s.hlc!).filter(Boolean);
      expect(ours.length).toBeGreaterThan(8);
      expect([...ours].sort()).toEqual(ours);
    });

    it('three hubs and an integration writing through both processes while the lines are cut and restored: all converge, nothing twice, each webhook once', async () => {
      const made: string[] = [];
      const write = async (round: number) => {
        await Promise.all(
          hubs.map(async (h, i) => {
            for (let k = 0; k < 4; k++) {
              made.push((await order(viaHub(h), h, `Hub ${i} r${round} #${k}`)).id);
              made.push((await order(viaCloud(h, k), h, `Web ${i} r${round} #${k}`)).id);
            }
          }),
        );
      };
      for (let round = 0; round < 3; round++) {
        // one line down each round, the others up; then all down together
        const down = round < 2 ? [hubs[round]] : hubs;
        down.forEach((h) => h.line.cut());
        await write(round);
        const writing = write(round + 10);
        down.forEach((h) => h.line.restore());
        await writing;
      }
      await converged();

      for (const h of hubs) {
        const read = (db: Kysely<DB>) => db.selectFrom('orders').select(['id', 'order_number', 'status', 'total']).where('restaurant_id', '=', h.restaurantId).orderBy('id').execute();
        const [mine, theirs] = await Promise.all([read(h.db.db), read(cloudDb.db)]);
        expect(theirs.map((o) => ({ ...o, total: Number(o.total) }))).toEqual(mine.map((o) => ({ ...o, total: Number(o.total) })));
        expect(new Set(mine.map((o) => o.order_number)).size).toBe(mine.length);
      }
      const ids = new Set(made);
      expect(ids.size).toBe(hubs.length * 3 * 2 * 2 * 4);
      const onCloud = await cloudDb.db.selectFrom('orders').select('id').where('id', 'in', [...ids]).execute();
      expect(onCloud.length).toBe(ids.size);

      // each order.created event went out once, from the cloud (either process), and the hubs see it delivered
      const created = (await cloudDb.db.selectFrom('events').select('id').where('type', '=', 'order.created').execute()).map((e) => e.id);
      await until('every order.created webhook delivered', () => created.every((id) => receiver.received.some((r) => r.id === id)), 60_000);
      const counts = new Map<string, number>();
      for (const r of receiver.received) counts.set(r.id, (counts.get(r.id) ?? 0) + 1);
      expect([...counts.entries()].filter(([, n]) => n > 1)).toEqual([]);
      expect([...counts.keys()].sort()).toEqual([...created].sort());
      for (const h of hubs) expect(await h.db.db.selectFrom('webhook_deliveries').select('id').where('restaurant_id', '=', h.restaurantId).execute()).toEqual([]);
      // the balancers spread the hubs over both processes
      expect(hubs.every((h) => h.line.perUpstream.every((n) => n > 0))).toBe(true);
    });

    it('a hub clock stepped ahead while it runs: within the bound the cloud moves past it, beyond it the hub re-dates; later cloud edits win on both sides', async () => {
      const h = hubs[1];
      const step = async (ms: number) => {
        fs.writeFileSync(h.skewFile, String(ms));
        // the process reads its clock file at most every 100 ms: a pairing code (local, not
        // replicated) shows the clock it was made by, so the hub is asked until it runs stepped
        await until(`the hub's clock ${ms / 60_000} min ahead`, async () => {
          const before = Date.now();
          const made = await viaHub(h).post('/v1/devices/pairing_codes', { name: 'clock probe' });
          expect(made.status).toBe(201);
          // a minute's slack: the steps are minutes apart
          return made.body.expires_at - PAIRING_TTL_SECONDS >= Math.floor((before + ms - 60_000) / 1000);
        }, { every: 100 });
      };
      const cloudHasName = (name: string) => until(`the cloud has ${name}`, async () => (await nameOn(cloudDb.db, h)) === name, 30_000);

      // 3 minutes ahead: taken as it is, and the cloud's clock moves past it
      await step(3 * 60_000);
      await rename(viaHub(h), h, 'Hub 3 min ahead');
      await cloudHasName('Hub 3 min ahead');
      await rename(viaCloud(h, 1), h, 'Cloud after 3 min');
      await converged([h]);
      expect(await nameOn(h.db.db, h)).toBe('Cloud after 3 min');

      // 10 more minutes ahead: beyond the bound; the hub re-dates what it had not sent yet
      await step(13 * 60_000);
      await rename(viaHub(h), h, 'Hub 13 min ahead');
      await order(viaHub(h), h, 'Ordered 13 min ahead');
      await cloudHasName('Hub 13 min ahead');
      await rename(viaCloud(h, 0), h, 'Cloud after 13 min');
      await order(viaCloud(h, 1), h, 'Web after 13 min');
      await converged([h]);
      expect(await nameOn(h.db.db, h)).toBe('Cloud after 13 min');
      expect(await nameOn(cloudDb.db, h)).toBe('Cloud after 13 min');
      // no stamp in the cloud is further ahead of its clock than the bound
      const newest = await cloudDb.db.selectFrom('change_log').select((eb) => eb.fn.max('hlc').as('hlc')).where('restaurant_id', '=', h.restaurantId).executeTakeFirstOrThrow();
      expect(parseHlc(newest.hlc!).ms).toBeLessThanOrEqual(Date.now() + MAX_AHEAD_MS);
      // and the hub's own edits after the step still come after the cloud's in time
      await rename(viaHub(h), h, 'Hub last');
      await converged([h]);
      expect(await nameOn(cloudDb.db, h)).toBe('Hub last');
    });
  });
}
