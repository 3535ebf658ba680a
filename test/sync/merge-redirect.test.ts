import { afterEach, describe, expect, it } from 'vitest';
import { seedMenu } from '../orders/fixtures.ts';
import { converged, goOffline, goOnline, startPair, type Pair } from './helpers.ts';

/**
 * Service on both sides while apart, money in the right place after (issue 45, items 1–2): a
 * merge is a redirect on both sides, and a check is completed only when it owes nothing.
 */
// 120 s: a hub and a cloud (PostgreSQL) started and linked, then a line cut and restored
describe('cloud sync: merged checks and money owed', { timeout: 120_000 }, () => {
  let p: Pair | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  const setup = async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    const newCheck = async (table: string) => {
      const o = (await pair.hub.api.post('/v1/orders', { type: 'dine_in', table, items: [{ menu_item: menu.pasta, quantity: 2 }] })).body;
      return (await pair.hub.api.patch(`/v1/orders/${o.id}`, { status: 'placed' })).body;
    };
    const one = await newCheck(menu.table);
    const two = await newCheck(menu.table2);
    await pair.link();
    expect((await converged(pair)).ok).toBe(true);
    await goOffline(pair.hub);
    return { pair, menu, one, two };
  };

  const conflictsOf = async (api: Pair['cloudApi']) => (await api.get('/v1/sync/status')).body.conflicts as any[];

  it('a round added to and a payment taken on a check merged away on the other side land on its survivor, listed', async () => {
    const { pair, menu, one, two } = await setup();
    // the hub merges table 2's check into table 1's; apart from it, an integration on the cloud adds a round to table 2 and pays it in full
    pair.hub.clock.advance(1000);
    expect((await pair.hub.api.post(`/v1/orders/${one.id}/merge`, { from: two.id })).status).toBe(200);
    pair.cloud.clock.advance(2000);
    const round = await pair.cloudApi.post(`/v1/orders/${two.id}/items`, { items: [{ menu_item: menu.pasta, quantity: 1 }] });
    expect(round.status, JSON.stringify(round.body)).toBe(201);
    const due = (await pair.cloudApi.get(`/v1/orders/${two.id}`)).body.amount_due;
    const paid = await pair.cloudApi.post(`/v1/orders/${two.id}/payments`, { method: 'card', amount: due });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);

    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    const status = async () => JSON.stringify([(await pair.hub.api.get('/v1/sync/status')).body, (await pair.cloudApi.get('/v1/sync/status')).body]);
    expect(report?.differences, await status()).toEqual([]);
    expect(ok).toBe(true);

    for (const api of [pair.hub.api, pair.cloudApi]) {
      const merged = (await api.get(`/v1/orders/${two.id}`)).body;
      expect(merged).toMatchObject({ status: 'cancelled', total: 0, amount_paid: 0 });
      const survivor = (await api.get(`/v1/orders/${one.id}`)).body;
      // 2 + 2 pasta from the two checks, 1 more from the cloud's round; the cloud's payment counted here
      expect(survivor.items.filter((l: any) => !l.voided_at).reduce((n: number, l: any) => n + l.quantity, 0)).toBe(5);
      expect(survivor.amount_paid).toBe(due);
      expect(survivor.amount_due).toBe(Math.max(0, survivor.total - due));
      expect(survivor.amount_due).toBeGreaterThan(0);
      expect(survivor.status).not.toBe('completed');
      expect((await api.get(`/v1/payments?order=${one.id}`)).body.data.map((x: any) => x.id)).toContain(paid.body.id);
    }
    const listed = [...(await conflictsOf(pair.hub.api)), ...(await conflictsOf(pair.cloudApi))].filter((c) => c.kind === 'merge_redirect');
    expect(listed.length).toBeGreaterThan(0);
    expect(listed[0]).toMatchObject({ table: 'orders', row_ids: [one.id, two.id].sort(), detail: { from: two.id, into: one.id } });
  });

  it('a merge on the hub and rounds on the cloud to the same check while apart: every line at one place on both sides, in the order rung in', async () => {
    const { pair, menu, one, two } = await setup();
    // the hub takes table 2's check (rung in after table 1's) into table 1's; apart from it, the cloud adds two rounds to table 1
    pair.hub.clock.advance(1000);
    expect((await pair.hub.api.post(`/v1/orders/${one.id}/merge`, { from: two.id })).status).toBe(200);
    for (const step of [2000, 1000]) {
      pair.cloud.clock.advance(step);
      expect((await pair.cloudApi.post(`/v1/orders/${one.id}/items`, { items: [{ menu_item: menu.pasta, quantity: 1 }] })).status).toBe(201);
    }
    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    // before: the merged line stood at 1 on the hub and 3 on the cloud, for ever (the sync fuzzer, seed 4501)
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    const sides = [];
    for (const api of [pair.hub.api, pair.cloudApi]) {
      const items = (await api.get(`/v1/orders/${one.id}`)).body.items as { id: string; index: number }[];
      expect(items.map((l) => l.index)).toEqual([0, 1, 2, 3]);
      expect(items.map((l) => l.id)).toEqual(items.map((l) => l.id).sort());
      sides.push(items.map((l) => l.id));
    }
    expect(sides[1]).toEqual(sides[0]);
  });

  it('one check merged into a check on the hub and into another on the cloud while apart: the later merge stands on both sides, money and lines with it, listed', async () => {
    const { pair, menu, one, two } = await setup();
    // the hub takes table 2's check into table 1's; the cloud, later, opens table 7 and takes table 2's check into it
    pair.hub.clock.advance(1000);
    expect((await pair.hub.api.post(`/v1/orders/${one.id}/merge`, { from: two.id })).status).toBe(200);
    pair.cloud.clock.advance(3000);
    const table7 = (await pair.cloudApi.post('/v1/tables', { number: 7, capacity: 4 })).body;
    const third = (await pair.cloudApi.post('/v1/orders', { type: 'dine_in', table: table7.id, items: [{ menu_item: menu.pasta, quantity: 1 }] })).body;
    expect((await pair.cloudApi.patch(`/v1/orders/${third.id}`, { status: 'placed' })).status).toBe(200);
    expect((await pair.cloudApi.post(`/v1/orders/${third.id}/merge`, { from: two.id })).status).toBe(200);

    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    // before: each side kept its own merge, for ever (the sync fuzzer)
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    for (const api of [pair.hub.api, pair.cloudApi]) {
      const merged = (await api.get(`/v1/orders/${two.id}`)).body;
      expect(merged).toMatchObject({ status: 'cancelled', merged_into: third.id, total: 0 });
      const [a, c] = [(await api.get(`/v1/orders/${one.id}`)).body, (await api.get(`/v1/orders/${third.id}`)).body];
      // table 1 keeps its own 2 pasta; table 7 its 1 and table 2's 2; each billed for what it holds
      expect(a.items.reduce((n: number, l: any) => n + l.quantity, 0)).toBe(2);
      expect(c.items.reduce((n: number, l: any) => n + l.quantity, 0)).toBe(3);
      expect(a.total).toBe(a.items.reduce((n: number, l: any) => n + l.net_amount, 0));
      expect(c.total).toBe(c.items.reduce((n: number, l: any) => n + l.net_amount, 0));
    }
    const listed = [...(await conflictsOf(pair.hub.api)), ...(await conflictsOf(pair.cloudApi))].filter((c) => c.kind === 'status_overruled' && c.row_ids.includes(two.id));
    expect(listed.length).toBeGreaterThan(0);
  });

  it('the other way round: the cloud merges, and the hub, apart from it, adds a round to and pays the check merged away: both land on the survivor, listed', async () => {
    const { pair, menu, one, two } = await setup();
    pair.cloud.clock.advance(1000);
    expect((await pair.cloudApi.post(`/v1/orders/${one.id}/merge`, { from: two.id })).status).toBe(200);
    pair.hub.clock.advance(2000);
    expect((await pair.hub.api.post(`/v1/orders/${two.id}/items`, { items: [{ menu_item: menu.pasta, quantity: 1 }] })).status).toBe(201);
    const due = (await pair.hub.api.get(`/v1/orders/${two.id}`)).body.amount_due;
    const paid = await pair.hub.api.post(`/v1/orders/${two.id}/payments`, { method: 'cash', amount: due });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);

    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    expect(report?.differences, JSON.stringify((await pair.hub.api.get('/v1/sync/status')).body)).toEqual([]);
    expect(ok).toBe(true);
    for (const api of [pair.hub.api, pair.cloudApi]) {
      expect((await api.get(`/v1/orders/${two.id}`)).body).toMatchObject({ status: 'cancelled', merged_into: one.id, total: 0, amount_paid: 0 });
      const survivor = (await api.get(`/v1/orders/${one.id}`)).body;
      expect(survivor.items.reduce((n: number, l: any) => n + l.quantity, 0)).toBe(5);
      expect(survivor.amount_paid).toBe(due);
      expect(survivor.amount_due).toBe(survivor.total - due);
      expect(survivor.status).not.toBe('completed');
    }
    const listed = [...(await conflictsOf(pair.hub.api)), ...(await conflictsOf(pair.cloudApi))].filter((c) => c.kind === 'merge_redirect');
    expect(listed.length).toBeGreaterThan(0);
  });

  it('a check moved to another table on the hub while the cloud adds a round and takes a payment: the check is at its new table with both, on both sides', async () => {
    const { pair, menu, one } = await setup();
    const table7 = (await pair.hub.api.post('/v1/tables', { number: 7, capacity: 4 })).body;
    pair.hub.clock.advance(1000);
    expect((await pair.hub.api.post(`/v1/orders/${one.id}/transfer`, { table: table7.id })).status).toBe(200);
    pair.cloud.clock.advance(2000);
    expect((await pair.cloudApi.post(`/v1/orders/${one.id}/items`, { items: [{ menu_item: menu.pasta, quantity: 1 }] })).status).toBe(201);
    const paid = await pair.cloudApi.post(`/v1/orders/${one.id}/payments`, { method: 'card', amount: 500 });
    expect(paid.status).toBe(201);

    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    for (const api of [pair.hub.api, pair.cloudApi]) {
      const check = (await api.get(`/v1/orders/${one.id}`)).body;
      expect(check).toMatchObject({ table: table7.id, amount_paid: 500 });
      expect(check.items.reduce((n: number, l: any) => n + l.quantity, 0)).toBe(3);
      expect(check.total).toBe(check.items.reduce((n: number, l: any) => n + l.net_amount, 0));
    }
  });

  it('one line voided on both sides apart, at different times: one void time on both sides', async () => {
    const { pair, one } = await setup();
    pair.hub.clock.advance(60_000);
    expect((await pair.hub.api.post(`/v1/orders/${one.id}/items/0/void`, { reason: 'sent back' })).status).toBe(200);
    pair.cloud.clock.advance(3_600_000);
    expect((await pair.cloudApi.post(`/v1/orders/${one.id}/items/0/void`, { reason: 'wrong dish' })).status).toBe(200);
    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    // before: each side kept its own void time, for ever
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    const [h, c] = [(await pair.hub.api.get(`/v1/orders/${one.id}`)).body.items[0], (await pair.cloudApi.get(`/v1/orders/${one.id}`)).body.items[0]];
    expect(h.voided_at).toBe(c.voided_at);
    expect(h.voided_at).not.toBeNull();
  });

  it('one check merged into the same check on both sides apart, at different times: one merge, with one cancel time on both sides', async () => {
    const { pair, one, two } = await setup();
    pair.hub.clock.advance(60_000);
    expect((await pair.hub.api.post(`/v1/orders/${one.id}/merge`, { from: two.id })).status).toBe(200);
    pair.cloud.clock.advance(3_600_000);
    expect((await pair.cloudApi.post(`/v1/orders/${one.id}/merge`, { from: two.id })).status).toBe(200);
    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    // before: each side kept the cancel time of its own merge, for ever (the sync fuzzer, seed 485870)
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);
    const [h, c] = [(await pair.hub.api.get(`/v1/orders/${two.id}`)).body, (await pair.cloudApi.get(`/v1/orders/${two.id}`)).body];
    expect(h).toMatchObject({ status: 'cancelled', cancelled_at: c.cancelled_at });
    expect(h.cancelled_at).not.toBeNull();
    for (const api of [pair.hub.api, pair.cloudApi]) expect((await api.get(`/v1/orders/${one.id}`)).body.items.reduce((n: number, l: any) => n + l.quantity, 0)).toBe(4);
  });

  it('a refund on the cloud and the rest paid on the hub leave the check open and owing, in the day close, listed on both sides', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    const o = (await pair.hub.api.post('/v1/orders', { type: 'dine_in', table: menu.table, items: [{ menu_item: menu.pasta, quantity: 3 }] })).body;
    const check = (await pair.hub.api.patch(`/v1/orders/${o.id}`, { status: 'placed' })).body;
    const first = await pair.hub.api.post(`/v1/orders/${check.id}/payments`, { method: 'card', amount: 2000 });
    expect(first.status).toBe(201);
    await pair.link();
    expect((await converged(pair)).ok).toBe(true);
    await goOffline(pair.hub);

    // the cloud gives 7.61 back on the first payment; the hub, apart from it, takes the rest
    pair.cloud.clock.advance(1000);
    expect((await pair.cloudApi.post(`/v1/payments/${first.body.id}/refund`, { amount: 761, reason: 'cold' })).status).toBe(200);
    pair.hub.clock.advance(2000);
    const rest = await pair.hub.api.post(`/v1/orders/${check.id}/payments`, { method: 'cash', amount: check.total - 2000 });
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    expect(rest.body.order?.status ?? (await pair.hub.api.get(`/v1/orders/${check.id}`)).body.status).toBe('completed');

    goOnline(pair.hub);
    const { ok, report } = await converged(pair);
    expect(report?.differences).toEqual([]);
    expect(ok).toBe(true);

    const { business_date: date } = await pair.hub.server.services.db.selectFrom('orders').select('business_date').where('id', '=', check.id).executeTakeFirstOrThrow();
    for (const api of [pair.hub.api, pair.cloudApi]) {
      const after = (await api.get(`/v1/orders/${check.id}`)).body;
      expect(after).toMatchObject({ amount_paid: check.total - 761, amount_due: 761, payment_status: 'partially_paid' });
      expect(after.status).not.toBe('completed');
      const res = await api.get(`/v1/reports/day_close?date=${date}`);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const close = res.body;
      expect(close.open_orders.orders.map((x: any) => x.id)).toContain(check.id);
      const owing = (await conflictsOf(api)).find((c) => c.kind === 'owing_after_sync');
      expect(owing, JSON.stringify(await conflictsOf(api))).toMatchObject({ table: 'orders', row_ids: [check.id], detail: { amount_due: 761 } });
    }
  });
});
