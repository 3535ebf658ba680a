import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobPageJson } from '../../server/api/printers/job-json.ts';
import { presentPrintJob, PRESENTED_JOB_COLUMNS } from '../../server/presenters/printers.ts';
import { mapPage, NEWEST_FIRST, paginate } from '../../server/http/pagination.ts';
import { silentLogger } from '../../server/logger.ts';
import { createServer, type ComandaServer } from '../../server/server.ts';
import { DIALECTS, reopen } from '../helpers/db.ts';
import { ApiClient, startHub, type TestHub } from '../helpers/server.ts';
import { addPrinter, createOrder, drain, PrinterEmulator } from './fixtures.ts';

type Filters = { printer?: string; order?: string; state?: string; kind?: string; limit?: number; starting_after?: string; ending_before?: string };

/**
 * The job list as one query answered it before each job's JSON was kept per revision:
 * every answer of the route must be this text, byte for byte.
 */
async function referenceList(hub: TestHub, q: Filters, livemode = true): Promise<string> {
  let qb = hub.server.services.db
    .selectFrom('print_jobs')
    .select(PRESENTED_JOB_COLUMNS)
    .where('restaurant_id', '=', hub.restaurant.id)
    .where('livemode', '=', livemode ? 1 : 0);
  if (q.printer) qb = qb.where('printer_id', '=', q.printer);
  if (q.order) qb = qb.where('order_id', '=', q.order);
  if (q.state) qb = qb.where('state', '=', q.state as any);
  if (q.kind) qb = qb.where('kind', '=', q.kind as any);
  const page = await paginate(qb, { ...q, keys: NEWEST_FIRST('print_jobs'), url: '/v1/print_jobs' });
  return JSON.stringify(await mapPage(page, (rows) => rows.map(presentPrintJob)));
}

const query = (q: Filters) => new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, String(v)])).toString();

describe.each(DIALECTS)('print job list kept per job revision on %s', (dialect) => {
  let hub: TestHub;
  let cloud: ComandaServer;
  let cloudApi: ApiClient;
  let emu: PrinterEmulator;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-job-list-'));

  /** Lists of both servers (the hub, and a cloud process on the same database) against the reference. */
  async function expectCurrent(q: Filters = { limit: 100 }, key?: string, livemode = true): Promise<any> {
    const expected = await referenceList(hub, q, livemode);
    for (const url of [hub.url, cloudApi.baseUrl]) {
      const res = await fetch(`${url}/v1/print_jobs?${query(q)}`, { headers: { 'x-api-key': key ?? hub.keys.secret } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(await res.text()).toBe(expected);
    }
    return JSON.parse(expected);
  }

  beforeAll(async () => {
    hub = await startHub(dialect, { dataDir: dir });
    // a cloud process on the same database: it reads and writes jobs, and never prints them
    cloud = createServer({
      database: await reopen({ dialect, url: hub.server.services.databaseUrl } as any, dir),
      clock: hub.clock,
      logger: silentLogger,
      config: { rateLimit: false, guestRateLimit: false, role: 'cloud' },
    });
    cloudApi = new ApiClient((await cloud.listen(0, '127.0.0.1')).url, hub.keys.secret);
    emu = await PrinterEmulator.start({ mode: 'offline' });
  });
  afterAll(async () => {
    await cloud?.close();
    await hub?.close();
    await emu?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('follows every job: new, retried, printed, failed, reprinted, changed by any writer', async () => {
    expect((await expectCurrent()).data).toEqual([]);
    const printer = await addPrinter(hub, emu, { name: 'Kitchen', stations: ['kitchen'] });

    // new jobs: one ticket per order; the printer is down, so each is tried once and waits
    const { order } = await createOrder(hub, { lines: [{ name: 'Gnocchi', station: 'kitchen' }] });
    await drain(hub);
    let list = await expectCurrent();
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ state: 'queued', attempts: 1, order: order.id });
    const first = list.data[0];
    for (let i = 0; i < 4; i++) await createOrder(hub, { lines: [{ name: `Dish ${i}`, station: 'kitchen' }] });
    await drain(hub);
    list = await expectCurrent();
    expect(list.data).toHaveLength(5);

    // retried later, still down: attempts and the next try move
    hub.clock.set(first.next_attempt_at * 1000);
    await drain(hub);
    list = await expectCurrent();
    expect(list.data.find((j: any) => j.id === first.id).attempts).toBe(2);

    // printed
    emu.setMode('online');
    hub.clock.advance(3600_000);
    await drain(hub);
    list = await expectCurrent();
    expect(list.data.map((j: any) => j.state)).toEqual(['printed', 'printed', 'printed', 'printed', 'printed']);
    expect(list.data.every((j: any) => j.printed_at !== null)).toBe(true);
    const newest = await expectCurrent({ limit: 2 });
    expect(newest.has_more).toBe(true);
    const older = await expectCurrent({ limit: 2, starting_after: newest.next_cursor });
    await expectCurrent({ limit: 2, ending_before: older.previous_cursor });
    await expectCurrent({ state: 'printed', limit: 3 });

    // a reprint made on the cloud process: a new job, queued there, printed by the hub
    const re = await cloudApi.post(`/v1/print_jobs/${first.id}/reprint`, {});
    expect(re.status).toBe(201);
    list = await expectCurrent();
    expect(list.data[0]).toMatchObject({ id: re.body.id, state: 'queued', marks: ['REPRINT'], reprint_of: first.id });
    await drain(hub);
    list = await expectCurrent();
    expect(list.data[0]).toMatchObject({ id: re.body.id, state: 'printed' });

    // failed: the printer is deleted (on the cloud process) while a job waits for it
    emu.setMode('offline');
    const { order: late } = await createOrder(hub, { lines: [{ name: 'Tiramisu', station: 'kitchen' }] });
    await drain(hub);
    await expectCurrent({ order: late.id });
    expect((await cloudApi.delete(`/v1/printers/${printer.id}`)).status).toBe(200);
    list = await expectCurrent({ order: late.id });
    expect(list.data[0]).toMatchObject({ state: 'failed', last_error: 'printer deleted' });
    list = await expectCurrent({ state: 'queued' });
    expect(list.data).toEqual([]);

    // any other UPDATE of a job, even one outside the dispatcher, moves its revision
    await hub.server.services.db.updateTable('print_jobs').set({ last_error: 'checked by hand' }).where('id', '=', first.id).execute();
    list = await expectCurrent();
    expect(list.data.find((j: any) => j.id === first.id).last_error).toBe('checked by hand');
    await cloud.services.db.updateTable('print_jobs').set({ marks: '["BY HAND"]' }).where('id', '=', first.id).execute();
    list = await expectCurrent();
    expect(list.data.find((j: any) => j.id === first.id).marks).toEqual(['BY HAND']);

    // jobs are never deleted by the service; one removed by hand leaves the list all the same
    await hub.server.services.db.deleteFrom('print_jobs').where('id', '=', first.id).execute();
    list = await expectCurrent();
    expect(list.data.some((j: any) => j.id === first.id)).toBe(false);

    // sandbox jobs are their own list
    await createOrder(hub, { livemode: false, lines: [{ name: 'Test dish', station: 'kitchen' }] });
    const sandbox = await expectCurrent({ limit: 100 }, hub.keys.sandbox, false);
    expect(sandbox.data.every((j: any) => j.livemode === false)).toBe(true);
  });

  it('counts every update of a job in its revision', async () => {
    const db = hub.server.services.db;
    const [job] = await db.selectFrom('print_jobs').select(['id', 'rev']).where('restaurant_id', '=', hub.restaurant.id).orderBy('created').limit(1).execute();
    const rev = (id: string) => db.selectFrom('print_jobs').select('rev').where('id', '=', id).executeTakeFirstOrThrow().then((r) => r.rev);
    // an update that sets nothing new is an update all the same
    const before = await rev(job.id);
    const res = await db.updateTable('print_jobs').set({ attempts: sql`attempts` }).where('id', '=', job.id).executeTakeFirst();
    expect(Number(res.numUpdatedRows)).toBe(1);
    expect(await rev(job.id)).toBe(before + 1);
    await db.updateTable('print_jobs').set({ updated: sql`updated + 1` }).where('restaurant_id', '=', hub.restaurant.id).execute();
    expect(await rev(job.id)).toBe(before + 2);
    if (dialect === 'sqlite') {
      // the hub's restaurant-wide version moves with any insert, update or delete of its jobs
      const version = async () => (await sql<{ n: number }>`select n from print_job_versions where restaurant_id = ${hub.restaurant.id}`.execute(db)).rows[0].n;
      const seen = [await version()];
      await db.updateTable('print_jobs').set({ attempts: sql`attempts` }).where('id', '=', job.id).execute();
      seen.push(await version());
      // once per update: the revision's own UPDATE inside the trigger is not counted again
      expect(seen[1]).toBe(seen[0] + 1);
      await addPrinter(hub, emu, { name: 'Counter', stations: ['kitchen'] });
      await createOrder(hub, { lines: [{ name: 'Counted', station: 'kitchen' }] });
      await drain(hub);
      seen.push(await version());
      await db.deleteFrom('print_jobs').where('id', '=', job.id).execute();
      seen.push(await version());
      for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThan(seen[i - 1]);
      // another restaurant's jobs leave it alone
      const other = await hub.addRestaurant(`jobs-${dialect}`);
      const transport = { type: 'tcp', host: emu.host, port: emu.port };
      expect((await other.api.post('/v1/printers', { name: 'Theirs', transport, stations: ['kitchen'] })).status).toBe(201);
      const before = await version();
      await createOrder(hub, { restaurantId: other.restaurant.id, lines: [{ name: 'Elsewhere', station: 'kitchen' }] });
      await drain(hub);
      expect(await db.selectFrom('print_jobs').select('id').where('restaurant_id', '=', other.restaurant.id).execute()).toHaveLength(1);
      expect(await version()).toBe(before);
    }
  });

  it('answers from one query when a job changed between reading the page and reading the job', async () => {
    const db = hub.server.services.db;
    const opts = { limit: 100, keys: NEWEST_FIRST('print_jobs'), url: '/v1/print_jobs' };
    const ids = () => db.selectFrom('print_jobs').where('restaurant_id', '=', hub.restaurant.id).where('livemode', '=', 1);
    const fresh = await jobPageJson(db, hub.restaurant.id, ids().select(['id', 'created', 'rev']), opts);
    expect(fresh).toBe(await referenceList(hub, { limit: 100 }));
    // a page naming revisions its jobs are already past (one read before a dispatcher's update)
    const stale = ids().select(['id', 'created', sql<number>`rev + 1000`.as('rev')]);
    expect(await jobPageJson(db, hub.restaurant.id, stale, opts)).toBeUndefined();
  });
});
