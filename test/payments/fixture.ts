import { afterAll, beforeAll, expect } from 'vitest';
import type { Dialect } from '../../server/db/database.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/** A venue of the payment tests and the three calls they make on its checks. */
export interface PaymentVenue {
  hub: TestHub;
  /** each menu item's id, by the name it was given */
  item: Record<string, string>;
  /** a takeout order placed with these lines */
  sent(items: object[]): Promise<any>;
  /** GET /v1/orders/{id}/balance, `query` with its `?` (e.g. `?split=2`) */
  balance(id: string, query?: string): Promise<any>;
  /** a card payment on the order (`amount` and the rest from `body`) */
  pay(id: string, body: object): Promise<any>;
}

/**
 * A hub whose prices include 10 % tax, with one category of these items (name → price in
 * minor units), started before the suite's tests and closed after them.
 */
export function taxInclusiveVenue(dialect: Dialect, carte: Record<string, number>): PaymentVenue {
  const ok = async (r: Promise<{ status: number; body: any }>, status: number) => {
    const res = await r;
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    return res.body;
  };
  const venue: PaymentVenue = {
    hub: undefined as unknown as TestHub,
    item: {},
    sent: (items) => ok(venue.hub.api.post('/v1/orders', { type: 'takeout', status: 'placed', items }), 201),
    balance: (id, query = '') => ok(venue.hub.api.get(`/v1/orders/${id}/balance${query}`), 200),
    pay: (id, body) => ok(venue.hub.api.post(`/v1/orders/${id}/payments`, { method: 'card', ...body }), 201),
  };
  beforeAll(async () => {
    venue.hub = await startHub(dialect);
    expect((await venue.hub.api.patch('/v1/settings', { prices_include_tax: true, default_tax_rate: 0.1 })).status).toBe(200);
    const cat = (await venue.hub.api.post('/v1/menu_categories', { name: 'Carte' })).body;
    for (const [name, price] of Object.entries(carte)) {
      venue.item[name] = (await venue.hub.api.post('/v1/menu_items', { name, category: cat.id, price })).body.id;
    }
  });
  afterAll(async () => {
    await venue.hub?.close();
  });
  return venue;
}
