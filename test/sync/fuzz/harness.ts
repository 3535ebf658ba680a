import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/schema.ts';
import { comanda, ServeProcess } from '../../helpers/comanda-process.ts';
import type { ApiClient } from '../../helpers/server.ts';
import { balanceOf } from '../../../server/model/payments.ts';
import { startProcessPair, type ProcessPair } from '../process-pair.ts';

/** A seeded PRNG (mulberry32): the same seed, the same run. */
export function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]! };
}

type Side = 'hub' | 'cloud';

/** What the run made that must be found on both sides once, after. */
interface Made {
  orders: Set<string>;
  payments: Set<string>;
  refunds: Set<string>;
  customers: Set<string>;
}

/**
 * One fuzz run: a hub and a cloud as `comanda serve` processes behind the TCP proxy, `ops`
 * random service operations on both sides through the public API while the line is cut,
 * restored and either process killed -9 and started again; then the two must converge
 * (`comanda sync audit` clean) with every money invariant holding on both, and nothing made
 * lost or doubled. Throws with the seed in its message when anything fails.
 */
export async function fuzzRun(seed: number, ops: number, log: (line: string) => void = () => {}): Promise<void> {
  const r = prng(seed);
  let menu: { items: string[]; tables: string[] } = { items: [], tables: [] };
  // the hub's wall clock, stepped at random by a preload (test/helpers/clock-step-preload.mjs)
  const stepDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-fuzz-clock-'));
  const clock = { file: path.join(stepDir, 'step'), shift: 0 };
  fs.writeFileSync(clock.file, '0');
  const pair = await startProcessPair({
    name: `Fuzz ${seed}`,
    hubEnv: { NODE_OPTIONS: `--import ${PRELOAD}`, COMANDA_TEST_CLOCK_STEP_FILE: clock.file },
    beforeLink: async (api) => {
      const cat = ok(await api.post('/v1/menu_categories', { name: 'Mains' }));
      for (const [name, price] of [['Carbonara', 1450], ['Steak', 2990], ['Water', 333], ['Tiramisu', 761]] as const) {
        menu.items.push(ok(await api.post('/v1/menu_items', { name, category: cat.id, price })).id);
      }
      for (let n = 1; n <= 6; n++) menu.tables.push(ok(await api.post('/v1/tables', { number: 100 + n, capacity: 4 })).id);
    },
  });
  const made: Made = { orders: new Set(), payments: new Set(), refunds: new Set(), customers: new Set() };
  const trail: string[] = [];
  try {
    for (let i = 0; i < ops; i++) {
      const side: Side = r.next() < 0.5 ? 'hub' : 'cloud';
      const what = await step(pair, r, side, menu, made, clock);
      trail.push(`${i} ${side} ${what}`);
      log(`seed ${seed} op ${i}: ${side} ${what}`);
    }
    pair.proxy.restore();
    await pair.converged(Number(process.env.FUZZ_CONVERGE_MS ?? 120_000)).catch(async (err: Error) => {
      err.message += `\n${await historyOfDifferences(pair)}`;
      throw err;
    });
    await checkMoney(pair, made);
  } catch (err) {
    const e = err as Error;
    e.message = `sync fuzz failed, seed ${seed} (replay: FUZZ_SEED=${seed} FUZZ_OPS=${ops}): ${e.message}\nlast operations:\n${trail.slice(-25).join('\n')}`;
    await pair.close().catch(() => {});
    fs.rmSync(stepDir, { recursive: true, force: true });
    throw e;
  }
  await pair.close();
  fs.rmSync(stepDir, { recursive: true, force: true });
}

const PRELOAD = path.resolve('test/helpers/clock-step-preload.mjs');
const MINUTE = 60_000;

function ok(res: { status: number; body: any }): any {
  if (res.status >= 300) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** A refusal (4xx) is a fine outcome of a random operation; a 5xx is a bug. */
function fine(res: { status: number; body: any }, what: string): any {
  if (res.status >= 500) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.status < 300 ? res.body : null;
}

async function openOrders(db: Kysely<DB>): Promise<{ id: string; status: string; table_id: string | null }[]> {
  return db.selectFrom('orders').select(['id', 'status', 'table_id']).where('status', 'in', ['placed', 'preparing', 'ready', 'served', 'completed']).execute();
}

async function step(
  pair: ProcessPair,
  r: ReturnType<typeof prng>,
  side: Side,
  menu: { items: string[]; tables: string[] },
  made: Made,
  clock: { file: string; shift: number },
): Promise<string> {
  const api: ApiClient = side === 'hub' ? pair.hubApi() : pair.cloudApi();
  const db = side === 'hub' ? pair.hubDb.db : pair.cloudDb.db;
  const roll = r.next();
  const orders = await openOrders(db);
  const anOrder = orders.length ? r.pick(orders) : null;
  const line = () => ({ menu_item: r.pick(menu.items), quantity: 1 + r.int(3) });
  if (roll < 0.05) {
    if (r.next() < 0.7) {
      pair.proxy.cut();
      return 'line cut';
    }
    pair.proxy.blackhole();
    return 'line silent';
  }
  if (roll < 0.12) {
    pair.proxy.restore();
    return 'line restored';
  }
  if (roll < 0.14) {
    // the hub PC's clock stepped, as NTP after a dead CMOS battery or a person does (the total kept within a day)
    const by = r.pick([MINUTE, -MINUTE, 10 * MINUTE, -5 * MINUTE, 60 * MINUTE, -60 * MINUTE]);
    clock.shift = Math.max(-12 * 60 * MINUTE, Math.min(12 * 60 * MINUTE, clock.shift + by));
    fs.writeFileSync(clock.file, String(clock.shift));
    return `hub clock stepped ${by / MINUTE} min (now ${clock.shift / MINUTE} min off)`;
  }
  if (roll < 0.16) {
    // kill -9 and start again on the same port (the proxy and the other side keep pointing at it)
    if (side === 'hub') {
      const port = pair.hub.port;
      await pair.hub.kill9();
      pair.hub = await ServeProcess.start(['--data-dir', pair.dir], { port, env: pair.hubEnv });
    } else {
      const port = pair.cloud.port;
      await pair.cloud.kill9();
      pair.cloud = await ServeProcess.start(pair.cloudArgs, { port });
    }
    return 'kill -9 and restart';
  }
  if (roll < 0.28 || !anOrder) {
    const o = fine(await api.post('/v1/orders', { type: 'dine_in', table: r.pick(menu.tables), items: [line(), line()] }), 'ring in');
    if (!o) return 'ring in refused';
    made.orders.add(o.id);
    fine(await api.patch(`/v1/orders/${o.id}`, { status: 'placed' }), 'place');
    return `ring in ${o.id}`;
  }
  const lines = (fine(await api.get(`/v1/orders/${anOrder.id}`), 'read')?.items ?? []) as { id: string; index: number; voided_at: unknown }[];
  const aLine = lines.length ? r.pick(lines) : null;
  if (roll < 0.31 && aLine) {
    const comp = r.next() < 0.5;
    const body = comp ? { percent: 100, reason: 'comp' } : { amount: 50 * (1 + r.int(10)), reason: 'fuzz' };
    return `${comp ? 'comp' : 'discount'} line ${aLine.index} of ${anOrder.id} ${fine(await api.post(`/v1/orders/${anOrder.id}/items/${aLine.index}/discount`, body), 'line discount') ? 'ok' : 'refused'}`;
  }
  if (roll < 0.33) {
    const body = r.next() < 0.5 ? { percent: 5 * (1 + r.int(4)), reason: 'fuzz' } : { amount: 100 * (1 + r.int(5)), reason: 'fuzz' };
    return `check discount ${anOrder.id} ${fine(await api.post(`/v1/orders/${anOrder.id}/discount`, body), 'check discount') ? 'ok' : 'refused'}`;
  }
  if (roll < 0.35 && aLine) {
    return `move line ${aLine.index} of ${anOrder.id} to a seat ${fine(await api.post(`/v1/orders/${anOrder.id}/move_items`, { items: [aLine.index], seat: 1 + r.int(4) }), 'move') ? 'ok' : 'refused'}`;
  }
  if (roll < 0.37 && lines.length) {
    // split by items: one guest pays for some lines
    const some = lines.filter(() => r.next() < 0.5).map((l) => l.id);
    if (!some.length) return 'pay by items: none picked';
    const p = fine(await api.post(`/v1/orders/${anOrder.id}/payments`, { method: r.pick(['card', 'cash']), items: some }), 'pay by items');
    if (p) made.payments.add(p.id);
    return `pay ${some.length} line(s) of ${anOrder.id} ${p ? p.id : 'refused'}`;
  }
  if (roll < 0.39) {
    const day = new Date(Date.now() + (1 + r.int(5)) * 86_400_000).toISOString().slice(0, 10);
    const res = fine(await api.post('/v1/reservations', { guest_name: 'Booked', party_size: 2 + r.int(3), date: day, time: r.pick(['18:00', '19:30', '20:00']) }), 'reservation');
    if (!res) return 'reservation refused';
    const edit = fine(await api.patch(`/v1/reservations/${res.id}`, { party_size: 2 + r.int(5), notes: `edit ${r.int(100)}` }), 'reservation edit');
    return `reservation ${res.id} ${edit ? 'edited' : 'not edited'}`;
  }
  if (roll < 0.42) {
    const res = await db.selectFrom('reservations').select('id').execute();
    if (!res.length) return 'reservation edit: none';
    const id = r.pick(res).id;
    const edit = fine(await api.patch(`/v1/reservations/${id}`, r.next() < 0.5 ? { party_size: 1 + r.int(6) } : { time: r.pick(['18:30', '21:00']) }), 'reservation edit');
    return `reservation ${id} ${edit ? 'edited' : 'not edited'}`;
  }
  if (roll < 0.46) return `round ${anOrder.id} ${(await api.post(`/v1/orders/${anOrder.id}/items`, { items: [line()] }).then((x) => fine(x, 'round'))) ? 'ok' : 'refused'}`;
  if (roll < 0.5) return `void ${anOrder.id} ${(fine(await api.post(`/v1/orders/${anOrder.id}/items/${aLine?.index ?? 0}/void`, { reason: 'fuzz' }), 'void')) ? 'ok' : 'refused'}`;
  if (roll < 0.53) return `transfer ${anOrder.id} ${(fine(await api.post(`/v1/orders/${anOrder.id}/transfer`, { table: r.pick(menu.tables) }), 'transfer')) ? 'ok' : 'refused'}`;
  if (roll < 0.58) {
    const other = r.pick(orders);
    return `merge ${other.id} into ${anOrder.id} ${(fine(await api.post(`/v1/orders/${anOrder.id}/merge`, { from: other.id }), 'merge')) ? 'ok' : 'refused'}`;
  }
  if (roll < 0.72) {
    const o = fine(await api.get(`/v1/orders/${anOrder.id}`), 'read');
    if (!o || o.amount_due <= 0) return `pay ${anOrder.id}: nothing due`;
    const amount = r.next() < 0.5 ? o.amount_due : Math.max(1, r.int(o.amount_due));
    const p = fine(await api.post(`/v1/orders/${anOrder.id}/payments`, { method: r.pick(['card', 'cash']), amount }), 'pay');
    if (p) made.payments.add(p.id);
    return `pay ${anOrder.id} ${amount} ${p ? p.id : 'refused'}`;
  }
  if (roll < 0.8) {
    const pays = await db.selectFrom('payments').select(['id', 'amount']).execute();
    if (!pays.length) return 'refund: no payment';
    const p = r.pick(pays);
    const refund = fine(await api.post(`/v1/payments/${p.id}/refund`, r.next() < 0.5 ? { reason: 'fuzz' } : { amount: Math.max(1, r.int(Number(p.amount))), reason: 'fuzz' }), 'refund');
    const id = refund?.refunds?.at?.(-1)?.id ?? refund?.refund?.id;
    if (id) made.refunds.add(id);
    return `refund ${p.id} ${refund ? 'ok' : 'refused'}`;
  }
  if (roll < 0.84) return `cancel ${anOrder.id} ${(fine(await api.post(`/v1/orders/${anOrder.id}/cancel`, { reason: 'fuzz' }), 'cancel')) ? 'ok' : 'refused'}`;
  if (roll < 0.9) {
    const c = fine(await api.post('/v1/customers', { name: `Guest ${r.int(5)}`, phone: `+4930${1000000 + r.int(5)}`, email: r.next() < 0.5 ? `g${r.int(5)}@${side}.example` : null }), 'customer');
    if (c) made.customers.add(c.id);
    return `customer ${c ? c.id : 'refused'}`;
  }
  if (roll < 0.95) return `menu price ${(fine(await api.patch(`/v1/menu_items/${r.pick(menu.items)}`, { price: 100 * (5 + r.int(30)) }), 'menu')) ? 'ok' : 'refused'}`;
  const w = fine(await api.post('/v1/waitlist', { guest_name: 'Party', party_size: 2 }), 'waitlist');
  if (!w) return 'waitlist refused';
  const seated = fine(await api.post(`/v1/waitlist/${w.id}/seat`, {}), 'seat');
  return `waitlist ${w.id} ${seated ? 'seated' : 'not seated'}`;
}

/**
 * For a run that did not converge: each differing row's change log on both sides (who wrote
 * which columns, by which clock), which is what tells a merge rule's bug from a derived one.
 */
async function historyOfDifferences(pair: ProcessPair): Promise<string> {
  const report = await comanda('sync', 'audit', '--data-dir', pair.dir).catch(() => null);
  const out: string[] = [];
  for (const d of (report?.differences ?? []).slice(0, 5)) {
    for (const [name, db] of [['hub', pair.hubDb.db], ['cloud', pair.cloudDb.db]] as const) {
      const log = await db.selectFrom('change_log').select(['seq', 'origin', 'hlc', 'op', 'fields', 'data']).where('table_name', '=', d.table).where('row_id', '=', d.id).orderBy('seq').execute();
      out.push(`${name}'s log of ${d.table} ${d.id}:`);
      for (const e of log) {
        const data = JSON.parse(e.data);
        const fields: string[] = e.fields ? JSON.parse(e.fields) : Object.keys(data);
        out.push(`  ${e.seq} ${e.origin.slice(0, 8)} ${e.hlc} ${e.op} ${fields.map((f) => `${f}=${JSON.stringify(data[f])}`).join(' ')}`);
      }
    }
  }
  return out.join('\n');
}

/** Money on both sides after convergence: each check's paid is its payments less refunds; nothing made is lost or doubled. */
async function checkMoney(pair: ProcessPair, made: Made): Promise<void> {
  const sides = { hub: pair.hubDb.db, cloud: pair.cloudDb.db };
  const ids: Record<string, Record<string, string[]>> = {};
  for (const [name, db] of Object.entries(sides)) {
    const rid = pair.restaurantId;
    const orders = await db.selectFrom('orders').selectAll().where('restaurant_id', '=', rid).execute();
    const pays = await db.selectFrom('payments').select(['id', 'order_id', 'amount']).where('restaurant_id', '=', rid).execute();
    const refunds = await db.selectFrom('payment_refunds').select(['id', 'order_id', 'amount']).where('restaurant_id', '=', rid).execute();
    const lines = await db.selectFrom('order_items').select('id').where('restaurant_id', '=', rid).execute();
    const paid = new Map<string, number>();
    for (const p of pays) paid.set(p.order_id, (paid.get(p.order_id) ?? 0) + Number(p.amount));
    for (const x of refunds) paid.set(x.order_id, (paid.get(x.order_id) ?? 0) - Number(x.amount));
    for (const o of orders) {
      expect(Number(o.amount_paid), `${name}: ${o.id} amount_paid is its payments less refunds`).toBe(paid.get(o.id) ?? 0);
      // a return (a refund once completed) is owed nothing for: the one balance says so
      if (o.status === 'completed') expect(balanceOf(o).amount_due, `${name}: completed ${o.id} owes nothing`).toBe(0);
    }
    ids[name] = { orders: orders.map((o) => o.id).sort(), payments: pays.map((p) => p.id).sort(), refunds: refunds.map((x) => x.id).sort(), lines: lines.map((l) => l.id).sort() };
    for (const o of made.orders) expect(ids[name].orders, `${name} has order ${o}`).toContain(o);
    for (const p of made.payments) expect(ids[name].payments, `${name} has payment ${p}`).toContain(p);
    for (const x of made.refunds) expect(ids[name].refunds, `${name} has refund ${x}`).toContain(x);
  }
  expect(ids.cloud).toEqual(ids.hub);
  // the day close of every day with a check, to the cent, on both sides (its time of reading aside)
  const days = [...new Set((await pair.hubDb.db.selectFrom('orders').select('business_date').where('restaurant_id', '=', pair.restaurantId).execute()).map((o) => o.business_date))];
  for (const day of days) {
    const [hub, cloud] = await Promise.all([pair.hubApi(), pair.cloudApi()].map(async (api) => ok(await api.get(`/v1/reports/day_close?date=${day}`))));
    expect(withoutTimes(cloud), `the day close of ${day} on the cloud and the hub`).toEqual(withoutTimes(hub));
  }
}

/** A report with the moments it was read and made left out (they differ by when each side was asked). */
function withoutTimes(report: Record<string, unknown>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(report, (k, v) => (k === 'generated_at' || k === 'created' || k === 'as_of' ? undefined : v)));
}
