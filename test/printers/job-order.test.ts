import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { addPrinter, createOrder, drain, jobsOf, PrinterEmulator } from './fixtures.ts';

/** Which of the named dishes each printed document carries, in the order the printer got them. */
const printOrder = (emu: PrinterEmulator, names: string[]) => emu.texts().map((t) => names.find((n) => t.includes(`1 x ${n}`)) ?? '?');

describe.each(DIALECTS)('print job order on %s', (dialect) => {
  let hub: TestHub;
  const emulators: PrinterEmulator[] = [];
  const emulator = async (mode: 'online' | 'offline' | 'paper_out') => {
    const e = await PrinterEmulator.start({ mode });
    emulators.push(e);
    return e;
  };
  const jobOf = async (orderId: string) => (await jobsOf(hub, `&order=${orderId}`))[0];

  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(async () => {
    await hub?.close();
    for (const e of emulators) await e.close();
  });
  // each test points its station at a fresh printer; switch the previous ones off
  afterEach(async () => {
    const all = await hub.api.get('/v1/printers?limit=100');
    for (const p of all.body.data) await hub.api.patch(`/v1/printers/${p.id}`, { stations: [], prints_receipts: false });
  });

  /** Lets ticket `orderId` fail `times` times on its printer, moving the clock to each retry. */
  async function failTimes(orderId: string, times: number) {
    for (let i = 1; i <= times; i++) {
      await drain(hub);
      const job = await jobOf(orderId);
      expect(job).toMatchObject({ state: 'queued', attempts: i });
      if (i < times) hub.clock.set(job.next_attempt_at * 1000);
    }
  }

  it('a newer ticket waits behind an older one sitting out its retry, and prints after it', async () => {
    const emu = await emulator('paper_out');
    await addPrinter(hub, emu, { name: 'Kitchen order', stations: ['kitchen'] });
    const a = await createOrder(hub, { lines: [{ name: 'Older risotto', station: 'kitchen' }] });
    await failTimes(a.order.id, 4);
    const waiting = await jobOf(a.order.id);
    expect(waiting.next_attempt_at).toBeGreaterThan(Math.floor(hub.clock.now() / 1000) + 1);

    // paper refilled, then a new ticket before the old one's retry is due
    emu.setMode('online');
    hub.clock.advance(1000);
    const b = await createOrder(hub, { lines: [{ name: 'Newer gnocchi', station: 'kitchen' }] });
    await drain(hub);
    expect(emu.prints()).toHaveLength(0);
    expect(await jobOf(b.order.id)).toMatchObject({ state: 'queued', attempts: 0 });

    hub.clock.set(waiting.next_attempt_at * 1000);
    await drain(hub);
    expect(await jobOf(a.order.id)).toMatchObject({ state: 'printed', attempts: 5 });
    expect(await jobOf(b.order.id)).toMatchObject({ state: 'printed', attempts: 1 });
    expect(printOrder(emu, ['Older risotto', 'Newer gnocchi'])).toEqual(['Older risotto', 'Newer gnocchi']);
  });

  it('tickets behind a failing one wait for its retry and follow it in order', async () => {
    const emu = await emulator('paper_out');
    await addPrinter(hub, emu, { name: 'Kitchen queue', stations: ['kitchen'] });
    const a = await createOrder(hub, { lines: [{ name: 'First soup', station: 'kitchen' }] });
    await failTimes(a.order.id, 3);
    hub.clock.advance(1000);
    const b = await createOrder(hub, { lines: [{ name: 'Second pasta', station: 'kitchen' }] });
    const c = await createOrder(hub, { lines: [{ name: 'Third fish', station: 'kitchen' }] });
    await drain(hub);
    // held back: not even tried while the oldest waits
    expect(await jobOf(b.order.id)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(await jobOf(c.order.id)).toMatchObject({ state: 'queued', attempts: 0 });

    // the oldest is due: all three are tried, in order, and all wait for the same retry
    hub.clock.set((await jobOf(a.order.id)).next_attempt_at * 1000);
    await drain(hub);
    const [ja, jb, jc] = [await jobOf(a.order.id), await jobOf(b.order.id), await jobOf(c.order.id)];
    expect(ja).toMatchObject({ state: 'queued', attempts: 4 });
    expect(jb).toMatchObject({ state: 'queued', attempts: 1, next_attempt_at: ja.next_attempt_at });
    expect(jc).toMatchObject({ state: 'queued', attempts: 1, next_attempt_at: ja.next_attempt_at });
    expect(emu.prints()).toHaveLength(0);

    emu.setMode('online');
    hub.clock.set(ja.next_attempt_at * 1000);
    await drain(hub);
    for (const o of [a, b, c]) expect((await jobOf(o.order.id)).state).toBe('printed');
    expect(printOrder(emu, ['First soup', 'Second pasta', 'Third fish'])).toEqual(['First soup', 'Second pasta', 'Third fish']);
  });

  it('once the oldest ticket prints, the ones behind it go out at once even with a later retry of their own', async () => {
    const emu = await emulator('paper_out');
    await addPrinter(hub, emu, { name: 'Kitchen release', stations: ['kitchen'] });
    const a = await createOrder(hub, { lines: [{ name: 'Head tartare', station: 'kitchen' }] });
    await failTimes(a.order.id, 2);
    const b = await createOrder(hub, { lines: [{ name: 'Tail tiramisu', station: 'kitchen' }] });
    await drain(hub);
    // a backoff of its own far beyond the oldest's, as a ticket that failed here before a
    // job moved over from a failed printer would have
    const far = Math.floor(hub.clock.now() / 1000) + 3600;
    await hub.server.services.db.updateTable('print_jobs').set({ next_attempt_at: far }).where('order_id', '=', b.order.id).execute();

    emu.setMode('online');
    hub.clock.set((await jobOf(a.order.id)).next_attempt_at * 1000);
    await drain(hub);
    expect((await jobOf(a.order.id)).state).toBe('printed');
    expect((await jobOf(b.order.id)).state).toBe('printed');
    expect(printOrder(emu, ['Head tartare', 'Tail tiramisu'])).toEqual(['Head tartare', 'Tail tiramisu']);
  });
});
