import { afterEach, describe, expect, it } from 'vitest';
import { seedMenu } from '../orders/fixtures.ts';
import { converged, goOffline, goOnline, startPair, type Pair } from './helpers.ts';

/**
 * The same guest made on both sides while apart (an order by phone at the venue with the
 * internet down, a web order on the cloud) becomes one customer again when the two meet: the
 * same one on both nodes, with every order pointing to it, and the merge listed in the sync
 * status of both.
 */
// 120 s: a hub and a cloud (PostgreSQL) started and linked, then a line cut and restored
describe('the same guest made on both sides while apart', { timeout: 120_000 }, () => {
  let p: Pair | undefined;
  afterEach(async () => {
    await p?.close();
    p = undefined;
  });

  it('is merged into one customer, the same on both nodes, keeping every order’s reference', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    await pair.link();
    await goOffline(pair.hub);

    const order = async (api: typeof pair.hub.api, guest: Record<string, string>) => {
      const r = await api.post('/v1/orders', { type: 'takeout', status: 'placed', items: [{ menu_item: menu.water, quantity: 2 }], ...guest });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return r.body.id as string;
    };
    // the hub knows her phone; the cloud's web order has her email and the phone as typed abroad
    const atHub = await order(pair.hub.api, { customer_name: 'Anna Rossi', customer_phone: '030 12345678' });
    const atCloud = await order(pair.cloudApi, { customer_name: 'Anna', customer_email: 'Anna.Rossi@example.com', customer_phone: '0049 30 12345678' });
    const dbs = { hub: pair.hub.server.services.db, cloud: pair.cloud.server.services.db };
    const customerOf = async (db: typeof dbs.hub, orderId: string) => (await db.selectFrom('orders').select('customer_id').where('id', '=', orderId).executeTakeFirstOrThrow()).customer_id!;
    const made = [await customerOf(dbs.hub, atHub), await customerOf(dbs.cloud, atCloud)];
    expect(made[0]).not.toBe(made[1]);
    const survivor = [...made].sort()[0];
    const merged = [...made].sort()[1];

    goOnline(pair.hub);
    const done = await converged(pair);
    expect(done.ok, JSON.stringify(done.report?.differences)).toBe(true);

    for (const [side, db] of Object.entries(dbs)) {
      const guests = await db.selectFrom('customers').selectAll().where('phone', '=', '+493012345678').execute();
      expect(guests.map((g) => g.id), side).toEqual([survivor]);
      // the details each side knew are kept together
      expect(guests[0]).toMatchObject({ phone: '+493012345678', email: 'anna.rossi@example.com' });
      expect(await customerOf(db, atHub), side).toBe(survivor);
      expect(await customerOf(db, atCloud), side).toBe(survivor);
    }
    for (const api of [pair.hub.api, pair.cloudApi]) {
      const status = (await api.get('/v1/sync/status')).body;
      expect(status.conflicts).toContainEqual(expect.objectContaining({ kind: 'customer_merge', table: 'customers', row_ids: [survivor, merged].sort() }));
    }
  });

  it('merged by phone, the other guest’s different email is listed for a person (customer_contact), on both nodes', async () => {
    const pair = (p = await startPair());
    const menu = await seedMenu(pair.hub);
    await pair.link();
    await goOffline(pair.hub);
    const order = async (api: typeof pair.hub.api, guest: Record<string, string>) => {
      const r = await api.post('/v1/orders', { type: 'takeout', status: 'placed', items: [{ menu_item: menu.water, quantity: 1 }], ...guest });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
    };
    await order(pair.hub.api, { customer_name: 'Bea Conti', customer_phone: '030 7654321', customer_email: 'bea@home.example' });
    await order(pair.cloudApi, { customer_name: 'Bea Conti', customer_phone: '+49 30 7654321', customer_email: 'bea.conti@work.example' });
    goOnline(pair.hub);
    const done = await converged(pair);
    expect(done.ok, JSON.stringify(done.report?.differences)).toBe(true);
    for (const api of [pair.hub.api, pair.cloudApi]) {
      const status = (await api.get('/v1/sync/status')).body;
      const contact = status.conflicts.find((c: any) => c.kind === 'customer_contact');
      expect(contact, JSON.stringify(status.conflicts)).toBeDefined();
      expect([contact.detail.kept.email, contact.detail.other.email].sort()).toEqual(['bea.conti@work.example', 'bea@home.example']);
      const kept = (await api.get(`/v1/customers/${contact.detail.survivor}`)).body;
      expect(kept.email).toBe(contact.detail.kept.email);
    }
  });
});
