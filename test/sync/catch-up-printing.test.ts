import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { DIALECTS } from '../helpers/db.ts';
import { until } from '../helpers/until.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { addPrinter, jobsOf, PrinterEmulator } from '../printers/fixtures.ts';
import { converged, goOffline, goOnline, startPair, type Pair } from './helpers.ts';
import { readLink } from '../../sync/hub.ts';
import { mergeRows, rowsWithClocks } from '../../sync/repair.ts';

/**
 * Issue 44, stage 5: lines rung in on the cloud while the hub was cut off (its devices worked
 * through the cloud) print on the hub's printers when they reach it, marked LATE with the time
 * they were rung in; bumped or closed meanwhile, or with the venue's `print_missed_tickets`
 * off, they print nothing; none prints twice; live sync prints as ever; the cloud queues no
 * job. A line the hub printed and the cloud voided (or whose check it cancelled) prints one VOID
 * ticket, marked LATE when the hub was away, whatever the setting. The hub on each dialect, the
 * cloud on PostgreSQL, the printer an emulator over TCP.
 */
describe.each(DIALECTS)('tickets the hub missed while the cloud served (hub on %s)', { timeout: 120_000 }, (dialect) => { // 120 s: a pair, three outages, each waited out to convergence
  const start = Date.UTC(2026, 10, 2, 19, 14, 0);
  const hubClock = new ManualClock(start);
  const cloudClock = new ManualClock(start);
  let pair: Pair & { link(): Promise<unknown> };
  let emu: PrinterEmulator;
  let menu: Menu;
  let timezone: string;

  beforeAll(async () => {
    pair = await startPair({ hubDialect: dialect, hubClock, cloudClock });
    menu = await seedMenu(pair.hub);
    emu = await PrinterEmulator.start();
    await addPrinter(pair.hub, emu, { name: 'Pass', stations: ['grill', 'kitchen'], prints_receipts: true });
    await pair.link();
    timezone = (await pair.hub.api.get('/v1/settings')).body.timezone;
  });
  afterAll(async () => {
    await emu?.close();
    await pair?.close();
  });

  const steak = (extra: Record<string, unknown> = {}) => ({ menu_item: menu.steak, quantity: 1, modifiers: ['Rare'], ...extra });
  const pasta = (extra: Record<string, unknown> = {}) => ({ menu_item: menu.pasta, quantity: 1, ...extra });
  const ok = <T extends { status: number; body: any }>(r: T, status = 200) => {
    expect(r.status, JSON.stringify(r.body)).toBe(status);
    return r.body;
  };
  /** An integration's order on the cloud, sent to the kitchen at once. */
  const ringInOnCloud = async (customer: string, items: Record<string, unknown>[], extra: Record<string, unknown> = {}) =>
    ok(await pair.cloudApi.post('/v1/orders', { type: 'takeout', customer_name: customer, status: 'placed', items, ...extra }), 201);
  /** The hub's jobs of one order (jobs made in one unit may share their second: compared as sets). */
  const jobsFor = (orderId: string) => jobsOf(pair.hub, `&order=${orderId}`);
  /** Both clocks move on together (the hub stamps in the cloud's time: they must not drift apart). */
  const minutesPass = (n: number) => {
    hubClock.advance(n * 60_000);
    cloudClock.advance(n * 60_000);
  };
  const settle = async () => {
    const { ok: done, report } = await converged(pair, 30_000);
    expect(done, JSON.stringify(report?.differences)).toBe(true);
  };
  const rungAt = (ms: number) => `LATE - rung in ${DateTime.fromMillis(ms, { zone: timezone }).toFormat('HH:mm')}`;
  const voidedAt = (ms: number) => `LATE - voided ${DateTime.fromMillis(ms, { zone: timezone }).toFormat('HH:mm')}`;
  /** The VOID tickets the printer has received so far. */
  const voidTexts = () => emu.texts().filter((t) => t.includes('VOID 1 x'));
  const sorted = (rows: unknown[][]) => rows.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

  let live: { id: string };
  let missed: { id: string };

  it('an order rung in on the cloud while the hub runs prints at once, without a mark', async () => {
    live = await ringInOnCloud('Grace', [steak()]);
    await until('the live ticket printed', () => emu.texts().some((t) => t.includes('1 x Steak')));
    const jobs = await jobsFor(live.id);
    expect(jobs.map((j) => [j.kind, j.marks])).toEqual([['kitchen_ticket', []]]);
    expect(emu.texts().some((t) => t.includes('LATE'))).toBe(false);
    // the cloud queued nothing of it: its printers are the hub's, on the venue's network
    expect((await pair.cloudApi.get('/v1/print_jobs?limit=100')).body.data).toEqual([]);
  });

  it('after an outage the missed lines print marked LATE; bumped, closed and printed ones do not', async () => {
    await settle();
    await goOffline(pair.hub);
    const rungIn = cloudClock.now();
    // rung in on the cloud while the hub is cut off
    missed = await ringInOnCloud('Ada', [steak()]);
    const bumped = await ringInOnCloud('Bob', [pasta()]);
    ok(await pair.cloudApi.patch(`/public/orders/${bumped.id}/items/0/status`, { status: 'ready' }, { key: pair.hub.keys.widget }));
    const closed = await ringInOnCloud('Cy', [pasta()]);
    ok(await pair.cloudApi.patch(`/v1/orders/${closed.id}`, { status: 'completed' }));
    const voided = await ringInOnCloud('Di', [pasta(), steak()]);
    ok(await pair.cloudApi.post(`/v1/orders/${voided.id}/items/0/void`, { reason: 'guest changed their mind' }));
    // a held course, fired on the cloud later: it went to the kitchen when it was fired
    const held = await ringInOnCloud('Eve', [pasta({ course: 1 }), steak({ course: 2 })], { hold_courses: [2] });
    minutesPass(7);
    const firedAt = cloudClock.now();
    ok(await pair.cloudApi.post(`/v1/orders/${held.id}/fire`, { course: 2 }));
    // a second round on the check the hub printed live
    ok(await pair.cloudApi.post(`/v1/orders/${live.id}/items`, { items: [pasta()] }), 201);
    minutesPass(15);
    // the cloud queued none of them either
    expect((await pair.cloudApi.get('/v1/print_jobs?limit=100')).body.data).toEqual([]);

    goOnline(pair.hub);
    await settle();
    const marks = async (orderId: string) => (await jobsFor(orderId)).map((j) => [j.kind, j.station, j.marks]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(await marks(missed.id)).toEqual([['kitchen_ticket', 'grill', [rungAt(rungIn)]]]);
    expect(await marks(bumped.id), 'bumped on a screen meanwhile').toEqual([]);
    expect(await marks(closed.id), 'completed meanwhile: no ticket and no receipt').toEqual([]);
    expect(await marks(voided.id), 'only the line still to cook').toEqual([['kitchen_ticket', 'grill', [rungAt(rungIn)]]]);
    expect(await marks(held.id)).toEqual([
      ['kitchen_ticket', 'grill', [rungAt(firedAt)]],
      ['kitchen_ticket', 'kitchen', [rungAt(rungIn)]],
    ]);
    // the first round is not printed again, the second is late
    expect(await marks(live.id)).toEqual([
      ['kitchen_ticket', 'grill', []],
      ['kitchen_ticket', 'kitchen', [rungAt(firedAt)]],
    ]);
    // on paper: the mark above the ticket
    await until('the late tickets printed', () => emu.texts().filter((t) => t.includes('LATE - rung in')).length === 5);
    const ada = emu.texts().find((t) => t.includes('Guest: Ada'))!;
    expect(ada).toContain(rungAt(rungIn));
    expect(ada.indexOf('LATE - rung in')).toBeLessThan(ada.indexOf('1 x Steak'));
  });

  it('a line printed once is never printed again by a later pull', async () => {
    const before = emu.prints().length;
    const jobsBefore = (await jobsOf(pair.hub)).length;
    // the kitchen works the late ticket on the cloud's screen, the line comes back changed
    ok(await pair.cloudApi.patch(`/public/orders/${missed.id}/items/0/status`, { status: 'preparing' }, { key: pair.hub.keys.widget }));
    await settle();
    // another outage and return with nothing new: every line pulled again is one the hub has
    await goOffline(pair.hub);
    ok(await pair.cloudApi.patch(`/public/orders/${missed.id}/items/0/status`, { status: 'ready' }, { key: pair.hub.keys.widget }));
    minutesPass(10);
    goOnline(pair.hub);
    await settle();
    expect((await jobsOf(pair.hub)).length).toBe(jobsBefore);
    expect(emu.prints().length).toBe(before);
  });

  it('with print_missed_tickets off the missed lines print nothing; live ones still print', async () => {
    expect(ok(await pair.hub.api.patch('/v1/settings', { print_missed_tickets: false })).print_missed_tickets).toBe(false);
    await settle();
    expect((await pair.cloudApi.get('/v1/settings')).body.print_missed_tickets).toBe(false);
    await goOffline(pair.hub);
    const fay = await ringInOnCloud('Fay', [steak()]);
    minutesPass(20);
    goOnline(pair.hub);
    await settle();
    expect(await jobsFor(fay.id)).toEqual([]);

    const now = await ringInOnCloud('Gus', [steak()]);
    await until('the live ticket printed', () => emu.texts().some((t) => t.includes('Guest: Gus')));
    expect((await jobsFor(now.id)).map((j) => j.marks)).toEqual([[]]);
  });

  // print_missed_tickets is off from here on: a VOID of a ticket on paper prints regardless

  let hal: { id: string };
  let ivy: { id: string };

  it('a line the hub printed and the cloud voided while the hub was away prints one VOID ticket, marked LATE; a cancel takes back the rest', async () => {
    hal = await ringInOnCloud('Hal', [steak(), pasta()]);
    ivy = await ringInOnCloud('Ivy', [steak(), pasta()]);
    await until('their tickets printed', () => emu.texts().filter((t) => t.includes('Guest: Hal') || t.includes('Guest: Ivy')).length === 4);
    await settle();
    const voidsBefore = voidTexts().length;
    await goOffline(pair.hub);
    const halVoided = cloudClock.now();
    ok(await pair.cloudApi.post(`/v1/orders/${hal.id}/items/0/void`, { reason: 'sent back' }));
    minutesPass(1);
    const ivyVoided = cloudClock.now();
    ok(await pair.cloudApi.post(`/v1/orders/${ivy.id}/items/1/void`, { reason: 'allergy' }));
    minutesPass(1);
    const ivyCancelled = cloudClock.now();
    ok(await pair.cloudApi.post(`/v1/orders/${ivy.id}/cancel`, { cancel_reason: 'guests left' }));
    // rung in and voided on the cloud: no ticket of it was ever on the hub's paper
    const jo = await ringInOnCloud('Jo', [steak()]);
    ok(await pair.cloudApi.post(`/v1/orders/${jo.id}/items/0/void`, { reason: 'wrong table' }));
    minutesPass(10);
    expect((await pair.cloudApi.get('/v1/print_jobs?limit=100')).body.data).toEqual([]);

    goOnline(pair.hub);
    await settle();
    const marks = async (orderId: string) => sorted((await jobsFor(orderId)).map((j) => [j.station, j.marks]));
    expect(await marks(hal.id)).toEqual(sorted([['grill', []], ['kitchen', []], ['grill', [voidedAt(halVoided)]]]));
    expect(await marks(ivy.id)).toEqual(sorted([['grill', []], ['kitchen', []], ['kitchen', [voidedAt(ivyVoided)]], ['grill', [voidedAt(ivyCancelled)]]]));
    expect(await jobsFor(jo.id), 'never printed here: nothing to take back').toEqual([]);
    // on paper: exactly the three VOID tickets, the mark above each
    await until('the VOID tickets printed', () => voidTexts().length === voidsBefore + 3);
    const halVoid = voidTexts().filter((t) => t.includes(voidedAt(halVoided)));
    expect(halVoid).toHaveLength(1);
    expect(halVoid[0]).toContain('VOID 1 x Steak');
    expect(halVoid[0]).toContain('Reason: sent back');
    expect(halVoid[0].indexOf('LATE - voided')).toBeLessThan(halVoid[0].indexOf('VOID 1 x Steak'));
    expect(voidTexts().filter((t) => t.includes(voidedAt(ivyVoided)))[0]).toContain('VOID 1 x Carbonara');
    expect(voidTexts().filter((t) => t.includes(voidedAt(ivyCancelled)))[0]).toContain('VOID 1 x Steak');
  });

  it('a second pull or a repair of those voids prints nothing more', async () => {
    const prints = emu.prints().length;
    const jobs = (await jobsOf(pair.hub)).length;
    await goOffline(pair.hub);
    minutesPass(5);
    goOnline(pair.hub);
    await settle();
    // the repair merges the cloud's rows of those checks here again, as after an audit found them apart
    const { restaurant_id } = (await readLink(pair.hub.server.services.db))!;
    const lines = await pair.cloud.server.services.db.selectFrom('order_items').select('id').where('order_id', 'in', [hal.id, ivy.id]).execute();
    const rows = await rowsWithClocks(pair.cloud.server.services.db, restaurant_id, { orders: [hal.id, ivy.id], order_items: lines.map((l) => l.id) });
    expect(rows.length).toBe(6);
    await mergeRows(pair.hub.server.services, { restaurantId: restaurant_id, role: 'hub' }, rows);
    await settle();
    expect((await jobsOf(pair.hub)).length).toBe(jobs);
    expect(emu.prints().length).toBe(prints);
  });

  it('a void on the cloud while the hub runs prints its VOID at once, unmarked', async () => {
    const kim = await ringInOnCloud('Kim', [steak()]);
    await until('its ticket printed', () => emu.texts().some((t) => t.includes('Guest: Kim')));
    const before = voidTexts().length;
    ok(await pair.cloudApi.post(`/v1/orders/${kim.id}/items/0/void`, { reason: 'changed their mind' }));
    await until('the VOID printed', () => voidTexts().length === before + 1);
    expect(voidTexts().at(-1)).not.toContain('LATE');
    expect((await jobsFor(kim.id)).map((j) => j.marks)).toEqual([[], []]);
  });
});
