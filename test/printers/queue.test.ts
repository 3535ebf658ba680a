import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import type { Database } from '../../server/db/database.ts';
import { provisionRestaurant } from '../../server/domain/restaurants/provision.ts';
import { silentLogger } from '../../server/logger.ts';
import { createServer } from '../../server/server.ts';
import { PrintError } from '../../printers/transport.ts';
import { DIALECTS, freshDatabase, reopen } from '../helpers/db.ts';
import { ApiClient, countRows, startHub, type TestHub } from '../helpers/server.ts';
import { addPrinter, createOrder, drain, jobsOf, PrinterEmulator } from './fixtures.ts';

describe.each(DIALECTS)('print queue on %s', (dialect) => {
  let hub: TestHub;
  const emulators: PrinterEmulator[] = [];
  const emulator = async (mode: 'online' | 'offline' | 'paper_out' = 'online') => {
    const e = await PrinterEmulator.start({ mode });
    emulators.push(e);
    return e;
  };
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(async () => {
    await hub?.close();
    for (const e of emulators) await e.close();
  });
  // each test points its station at fresh printers; switch the previous ones off
  afterEach(async () => {
    const all = await hub.api.get('/v1/printers?limit=100');
    for (const p of all.body.data) await hub.api.patch(`/v1/printers/${p.id}`, { stations: [], prints_receipts: false });
  });

  it('printer down: the job waits, and prints exactly once when the printer is back', async () => {
    const emu = await emulator('offline');
    const p = await addPrinter(hub, emu, { name: 'Kitchen down', stations: ['kitchen'] });
    const { order } = await createOrder(hub, { lines: [{ name: 'Risotto', station: 'kitchen' }] });
    await drain(hub);
    let [job] = await jobsOf(hub, `&order=${order.id}`);
    expect(job).toMatchObject({ state: 'queued', attempts: 1, printer: p.id });
    expect(job.last_error).toMatch(/^offline/);
    expect(job.next_attempt_at).toBeGreaterThan(Math.floor(hub.clock.now() / 1000));
    expect((await hub.api.get(`/v1/printers/${p.id}`)).body.status.state).toBe('offline');

    // not due yet: nothing is tried
    await drain(hub);
    expect((await jobsOf(hub, `&order=${order.id}`))[0].attempts).toBe(1);

    emu.setMode('online');
    hub.clock.set(job.next_attempt_at * 1000);
    await drain(hub);
    [job] = await jobsOf(hub, `&order=${order.id}`);
    expect(job).toMatchObject({ state: 'printed', attempts: 2, last_error: null });
    expect(emu.prints()).toHaveLength(1);
    expect(emu.texts()[0]).toContain('1 x Risotto');

    // later sweeps never print it again
    hub.clock.advance(3600_000);
    await hub.server.scheduler.runNow('print-queue-sweep');
    await drain(hub);
    expect(emu.prints()).toHaveLength(1);
    expect((await hub.api.get(`/v1/printers/${p.id}`)).body.status.state).toBe('online');
  });

  it('paper out: the status query stops the send; printed once paper is back', async () => {
    const emu = await emulator('paper_out');
    const p = await addPrinter(hub, emu, { name: 'Kitchen no paper', stations: ['kitchen'] });
    const { order } = await createOrder(hub, { lines: [{ name: 'Gnocchi', station: 'kitchen' }] });
    await drain(hub);
    let [job] = await jobsOf(hub, `&order=${order.id}`);
    expect(job).toMatchObject({ state: 'queued', attempts: 1 });
    expect(job.last_error).toMatch(/^paper_out/);
    // the printer was asked, and got no document
    expect(emu.connections).toHaveLength(1);
    expect(emu.connections[0].statusQueries).toEqual([1, 2, 4]);
    expect(emu.connections[0].document.length).toBe(0);
    expect((await hub.api.get(`/v1/printers/${p.id}`)).body.status).toMatchObject({ state: 'paper_out', detail: 'paper end' });

    emu.setMode('online');
    hub.clock.set(job.next_attempt_at * 1000);
    await drain(hub);
    [job] = await jobsOf(hub, `&order=${order.id}`);
    expect(job.state).toBe('printed');
    expect(emu.prints()).toHaveLength(1);
    expect(emu.texts()[0]).toContain('1 x Gnocchi');
  });

  it('fails over to the backup printer after repeated failures, marked BACKUP FROM <name>', async () => {
    const primaryEmu = await emulator('offline');
    const backupEmu = await emulator('online');
    const backup = await addPrinter(hub, backupEmu, { name: 'Pass backup' });
    const primary = await addPrinter(hub, primaryEmu, { name: 'Grill line', stations: ['kitchen'], backup_printer: backup.id });
    const { order } = await createOrder(hub, { lines: [{ name: 'Bistecca', station: 'kitchen', quantity: 2 }] });
    const limit = hub.server.services.printQueue!.opts.failuresBeforeBackup;
    for (let i = 1; i < limit; i++) {
      await drain(hub);
      const [job] = await jobsOf(hub, `&order=${order.id}`);
      expect(job).toMatchObject({ state: 'queued', attempts: i, printer: primary.id });
      hub.clock.set(job.next_attempt_at * 1000);
    }
    await drain(hub);
    const [job] = await jobsOf(hub, `&order=${order.id}`);
    expect(job).toMatchObject({ state: 'printed', printer: backup.id, original_printer: primary.id, marks: ['BACKUP FROM Grill line'] });
    expect(job.attempts).toBe(limit + 1);
    expect(primaryEmu.prints()).toHaveLength(0);
    expect(backupEmu.prints()).toHaveLength(1);
    expect(backupEmu.texts()[0]).toContain('BACKUP FROM Grill line');
    expect(backupEmu.texts()[0]).toContain('2 x Bistecca');

    // the primary coming back changes nothing for that ticket
    primaryEmu.setMode('online');
    hub.clock.advance(600_000);
    await drain(hub);
    expect(primaryEmu.prints()).toHaveLength(0);
    expect(backupEmu.prints()).toHaveLength(1);
  });

  it('a printer that hangs holds up only its own tickets', async () => {
    // a printer that accepts and then says nothing until the test lets it answer
    const held: net.Socket[] = [];
    let accepted!: () => void;
    const connected = new Promise<void>((r) => (accepted = r));
    const hung = net.createServer((s) => {
      s.on('error', () => {});
      held.push(s);
      accepted();
    });
    await new Promise<void>((r) => hung.listen(0, '127.0.0.1', r));
    const queue = hub.server.services.printQueue!;
    const saved = queue.opts;
    queue.opts = { ...saved, sendOptions: { ...saved.sendOptions, statusTimeoutMs: 120_000 } };
    try {
      const hungPrinter = await hub.api.post('/v1/printers', { name: 'Hung', transport: { type: 'tcp', host: '127.0.0.1', port: (hung.address() as net.AddressInfo).port }, stations: ['kitchen'] });
      const fine = await emulator('online');
      await addPrinter(hub, fine, { name: 'Fine bar', stations: ['bar'] });
      const { order } = await createOrder(hub, { lines: [{ name: 'Slow lasagne', station: 'kitchen' }, { name: 'Quick negroni', station: 'bar' }] });
      await fine.waitForPrints(1);
      expect(fine.texts()[0]).toContain('1 x Quick negroni');
      const waiting = (await jobsOf(hub, `&order=${order.id}`)).find((j) => j.printer === hungPrinter.body.id);
      expect(waiting.state).toBe('printing');

      // the printer wakes up: answers its status queries, takes the ticket, closes
      await connected;
      const received: Buffer[] = [];
      const socket = held[0];
      socket.on('data', (d) => received.push(d));
      socket.on('end', () => socket.end());
      socket.write(Buffer.from([0x12, 0x12, 0x12]));
      await drain(hub);
      expect((await jobsOf(hub, `&order=${order.id}`)).every((j) => j.state === 'printed')).toBe(true);
      expect(Buffer.concat(received).toString('latin1')).toContain('1 x Slow lasagne');
    } finally {
      queue.opts = saved;
      for (const s of held) s.destroy();
      await new Promise((r) => hung.close(r));
    }
  });

  it('takes over a job whose dispatcher died mid-send once its lease ran out, marked POSSIBLE DUPLICATE', async () => {
    const emu = await emulator('online');
    await addPrinter(hub, emu, { name: 'Kitchen lease', stations: ['kitchen'] });
    // hold the wake-up back so the job can be put in the state a crash leaves behind
    const queue = hub.server.services.printQueue!;
    await queue.stop();
    const { order } = await createOrder(hub, { lines: [{ name: 'Saltimbocca', station: 'kitchen' }] });
    const now = Math.floor(hub.clock.now() / 1000);
    await hub.server.services.db
      .updateTable('print_jobs')
      .set({ state: 'printing', lease_owner: 'disp_dead', lease_until: now + 120, write_started_at: now })
      .where('order_id', '=', order.id)
      .execute();
    queue.start();
    await drain(hub);
    expect(emu.prints()).toHaveLength(0);
    expect((await jobsOf(hub, `&order=${order.id}`))[0].state).toBe('printing');

    hub.clock.advance(121_000);
    await drain(hub);
    const [job] = await jobsOf(hub, `&order=${order.id}`);
    expect(job).toMatchObject({ state: 'printed', marks: ['POSSIBLE DUPLICATE'] });
    expect(emu.prints()).toHaveLength(1);
    expect(emu.texts()[0]).toContain('POSSIBLE DUPLICATE');
  });

  it('deleting a printer fails its waiting jobs; reprinting one then needs another printer', async () => {
    const emu = await emulator('offline');
    const p = await addPrinter(hub, emu, { name: 'Kitchen removed', stations: ['kitchen'] });
    const { order } = await createOrder(hub, { lines: [{ name: 'Fritto misto', station: 'kitchen' }] });
    await drain(hub);
    expect((await jobsOf(hub, `&order=${order.id}`))[0].state).toBe('queued');
    expect((await hub.api.delete(`/v1/printers/${p.id}`)).status).toBe(200);
    const [job] = await jobsOf(hub, `&order=${order.id}`);
    expect(job).toMatchObject({ state: 'failed', last_error: 'printer deleted' });

    const before = await countRows(hub, 'print_jobs');
    const refused = await hub.api.post(`/v1/print_jobs/${job.id}/reprint`, {});
    expect(refused.status).toBe(409);
    expect(refused.body.error).toMatchObject({ code: 'printer_not_configured', param: 'printer' });
    expect(await countRows(hub, 'print_jobs')).toBe(before);

    const spare = await emulator('online');
    const other = await addPrinter(hub, spare, { name: 'Spare' });
    const re = await hub.api.post(`/v1/print_jobs/${job.id}/reprint`, { printer: other.id });
    expect(re.body).toMatchObject({ printer: other.id, marks: ['REPRINT'], reprint_of: job.id });
    await drain(hub);
    expect(spare.texts()).toHaveLength(1);
    expect(spare.texts()[0]).toContain('1 x Fritto misto');
  });

  it('retries a send that broke after writing, marked POSSIBLE DUPLICATE', async () => {
    const emu = await emulator('online');
    await addPrinter(hub, emu, { name: 'Kitchen flaky', stations: ['kitchen'] });
    const queue = hub.server.services.printQueue!;
    const saved = queue.opts;
    let breaks = 1;
    queue.opts = {
      ...saved,
      send: async (transport, bytes, opts) => {
        if (breaks-- > 0) {
          await opts.beforeWrite?.();
          throw new PrintError('error', 'ECONNRESET: connection reset mid-write', true);
        }
        return saved.send(transport, bytes, opts);
      },
    };
    try {
      const { order } = await createOrder(hub, { lines: [{ name: 'Carpaccio', station: 'kitchen' }] });
      await drain(hub);
      let [job] = await jobsOf(hub, `&order=${order.id}`);
      expect(job).toMatchObject({ state: 'queued', attempts: 1, marks: ['POSSIBLE DUPLICATE'] });
      hub.clock.set(job.next_attempt_at * 1000);
      await drain(hub);
      [job] = await jobsOf(hub, `&order=${order.id}`);
      expect(job).toMatchObject({ state: 'printed', attempts: 2 });
      expect(emu.texts()).toHaveLength(1);
      expect(emu.texts()[0]).toContain('POSSIBLE DUPLICATE');
    } finally {
      queue.opts = saved;
    }
  });

  it('gives up on a job that could not print for hours', async () => {
    const emu = await emulator('offline');
    await addPrinter(hub, emu, { name: 'Kitchen gone', stations: ['kitchen'] });
    const { order } = await createOrder(hub, { lines: [{ name: 'Old soup', station: 'kitchen' }] });
    await drain(hub);
    emu.setMode('online');
    hub.clock.advance((hub.server.services.printQueue!.opts.maxAgeSeconds + 1) * 1000);
    await drain(hub);
    const [job] = await jobsOf(hub, `&order=${order.id}`);
    expect(job).toMatchObject({ state: 'failed', last_error: 'expired: not printed in time' });
    expect(emu.prints()).toHaveLength(0);
  });
});

describe.each(DIALECTS)('print queue across restarts on %s', (dialect) => {
  let base: Database & { dropUrl?: string };
  let dataDir: string;
  const clock = new ManualClock();
  let emu: PrinterEmulator;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-print-'));
    base = await freshDatabase(dialect, { dataDir });
    emu = await PrinterEmulator.start({ mode: 'offline' });
  });
  afterAll(async () => {
    await emu?.close();
    await base?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** A server process on the shared database, as another start of the hub would be. */
  async function boot(keys?: { secret: string }, restaurant?: TestHub['restaurant']): Promise<TestHub> {
    const server = createServer({ database: await reopen(base, dataDir), clock, logger: silentLogger, config: { rateLimit: false, guestRateLimit: false } });
    const { url } = await server.listen(0, '127.0.0.1');
    if (!keys || !restaurant) {
      const first = await provisionRestaurant(server.services.tx, clock.now(), { name: 'Restart Bistro', slug: 'restart-bistro' });
      keys = first.keys;
      restaurant = first.restaurant;
    }
    return {
      server,
      url,
      clock,
      api: new ApiClient(url, keys.secret),
      restaurant,
      keys: keys as TestHub['keys'],
      addRestaurant: () => Promise.reject(new Error('not here')),
      close: () => server.close(),
    };
  }

  it('a queued job survives a restart and prints once on the new process; racing dispatchers never print a ticket twice', async () => {
    const first = await boot();
    await addPrinter(first, emu, { name: 'Kitchen', stations: ['kitchen'] });
    const { order } = await createOrder(first, { lines: [{ name: 'Polenta', station: 'kitchen' }] });
    await drain(first);
    const [queued] = await jobsOf(first, `&order=${order.id}`);
    expect(queued).toMatchObject({ state: 'queued', attempts: 1 });
    await first.close();

    emu.setMode('online');
    const second = await boot(first.keys, first.restaurant);
    // Two live processes on one database is the cloud's case (PostgreSQL). The hub's SQLite
    // has one process; two connections in one Node process would block each other's locks.
    const third = dialect === 'postgres' ? await boot(first.keys, first.restaurant) : second;
    const racers = [...new Set([second, third])];
    const drainAll = () => Promise.all(racers.flatMap((h) => [drain(h), h.server.scheduler.runNow('print-queue-sweep')]));
    try {
      clock.set(queued.next_attempt_at * 1000);
      await drainAll();
      const [job] = await jobsOf(second, `&order=${order.id}`);
      expect(job).toMatchObject({ id: queued.id, state: 'printed', attempts: 2 });
      expect(emu.prints()).toHaveLength(1);
      expect(emu.texts()[0]).toContain('1 x Polenta');

      // more tickets, two dispatchers racing for them: each prints once
      emu.setMode('offline');
      const orders = [];
      for (let i = 0; i < 6; i++) orders.push((await createOrder(i % 2 ? second : third, { lines: [{ name: `Dish number ${i}`, station: 'kitchen' }] })).order);
      await drainAll();
      emu.setMode('online');
      clock.advance(60_000);
      await drainAll();
      const texts = emu.texts().slice(1);
      expect(texts).toHaveLength(6);
      for (let i = 0; i < 6; i++) expect(texts.filter((t) => t.includes(`1 x Dish number ${i}`))).toHaveLength(1);
      const jobs = await jobsOf(second, '&state=printed');
      expect(jobs).toHaveLength(7);
    } finally {
      for (const h of racers) await h.close();
    }
  });
});
