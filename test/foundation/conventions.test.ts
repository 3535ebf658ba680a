import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { expectError } from '../helpers/assert.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('v1 conventions on %s', (dialect) => {
  let hub: TestHub;
  let category: string;
  const itemIds: string[] = [];

  beforeAll(async () => {
    hub = await startHub(dialect);
    category = (await hub.api.post('/v1/menu_categories', { name: 'Mains' })).body.id;
    // 25 items: pairs share a second, so ordering must fall back to the id.
    for (let i = 0; i < 25; i++) {
      if (i % 2 === 0) hub.clock.advance(1000);
      const r = await hub.api.post('/v1/menu_items', { name: `Dish ${i}`, category, price: 100 + i });
      expect(r.status).toBe(201);
      itemIds.push(r.body.id);
    }
  });
  afterAll(() => hub?.close());

  describe('cursor pagination', () => {
    it('walks every item once, newest first, with stable ties', async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const path: string = `/v1/menu_items?limit=10${cursor ? `&starting_after=${cursor}` : ''}`;
        const r = await hub.api.get(path);
        expect(r.status).toBe(200);
        expect(r.body.object).toBe('list');
        expect(r.body.url).toBe('/v1/menu_items');
        seen.push(...r.body.data.map((d: any) => d.id));
        expect(r.body.has_more).toBe(r.body.next_cursor !== null);
        cursor = r.body.next_cursor;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual([...itemIds].reverse());
    });

    it('pages back with ending_before and previous_cursor', async () => {
      const first = await hub.api.get('/v1/menu_items?limit=10');
      expect(first.body.previous_cursor).toBeNull();
      const second = await hub.api.get(`/v1/menu_items?limit=10&starting_after=${first.body.next_cursor}`);
      expect(second.body.previous_cursor).not.toBeNull();
      const back = await hub.api.get(`/v1/menu_items?limit=10&ending_before=${second.body.previous_cursor}`);
      expect(back.body.data.map((d: any) => d.id)).toEqual(first.body.data.map((d: any) => d.id));
      expect(back.body.has_more).toBe(false);
    });

    it('defaults to 10 and caps at 100', async () => {
      expect((await hub.api.get('/v1/menu_items')).body.data).toHaveLength(10);
      expect((await hub.api.get('/v1/menu_items?limit=100')).body.data).toHaveLength(25);
      expectError(await hub.api.get('/v1/menu_items?limit=101'), 400, 'parameter_invalid', 'limit');
      expectError(await hub.api.get('/v1/menu_items?limit=0'), 400, 'parameter_invalid', 'limit');
      expectError(await hub.api.get('/v1/menu_items?limit=1.5'), 400, 'parameter_invalid', 'limit');
      expectError(await hub.api.get('/v1/menu_items?limit=ten'), 400, 'parameter_invalid', 'limit');
    });

    it('refuses a forged cursor or one of another list', async () => {
      expectError(await hub.api.get('/v1/menu_items?starting_after=garbage'), 400, 'invalid_cursor', 'starting_after');
      const events = await hub.api.get('/v1/modifier_groups?limit=1');
      expect(events.status).toBe(200);
      const cats = await hub.api.get('/v1/menu_categories?limit=1');
      const foreign = Buffer.from(JSON.stringify(['/v1/menu_categories', 0, 1, 'mc_x'])).toString('base64url');
      expectError(await hub.api.get(`/v1/menu_items?starting_after=${foreign}`), 400, 'invalid_cursor');
      expect(cats.status).toBe(200);
    });

    it('refuses unknown query parameters', async () => {
      expectError(await hub.api.get('/v1/menu_items?colour=red'), 400, 'parameter_unknown', 'colour');
      expectError(await hub.api.get('/v1/modifier_groups?expand=modifiers'), 400, 'parameter_unknown', 'expand');
    });
  });

  describe('expand', () => {
    it('takes expand[] and comma-separated expand alike', async () => {
      const groups = (await hub.api.post('/v1/modifier_groups', { name: 'Sauce', modifiers: [{ name: 'Pesto' }] })).body;
      const item = (await hub.api.post('/v1/menu_items', { name: 'Gnocchi', category, price: 990, modifier_groups: [groups.id] })).body;
      const a = await hub.api.get(`/v1/menu_items/${item.id}?expand[]=category&expand[]=modifier_groups`);
      const b = await hub.api.get(`/v1/menu_items/${item.id}?expand=category,modifier_groups`);
      expect(a.status).toBe(200);
      expect(a.body.category).toMatchObject({ id: category, object: 'menu_category', name: 'Mains' });
      expect(a.body.modifier_groups[0]).toMatchObject({ id: groups.id, object: 'modifier_group' });
      expect(b.body).toEqual(a.body);
      const plain = await hub.api.get(`/v1/menu_items/${item.id}`);
      expect(plain.body.category).toBe(category);
    });

    it('follows dotted paths up to four levels and refuses deeper or unknown ones', async () => {
      const parent = (await hub.api.post('/v1/menu_categories', { name: 'Food' })).body;
      const child = (await hub.api.post('/v1/menu_categories', { name: 'Pasta', parent_category: parent.id })).body;
      const item = (await hub.api.post('/v1/menu_items', { name: 'Penne', category: child.id, price: 1100 })).body;
      const r = await hub.api.get(`/v1/menu_items/${item.id}?expand[]=category.parent_category`);
      expect(r.body.category.parent_category).toMatchObject({ id: parent.id, name: 'Food' });
      expect((await hub.api.get(`/v1/menu_items/${item.id}?expand=category.parent_category.parent_category.parent_category`)).status).toBe(200);
      expectError(
        await hub.api.get(`/v1/menu_items/${item.id}?expand=category.parent_category.parent_category.parent_category.parent_category`),
        400,
        'parameter_invalid',
        'expand',
      );
      expectError(await hub.api.get(`/v1/menu_items/${item.id}?expand[]=price`), 400, 'parameter_invalid', 'expand');
      expectError(await hub.api.get('/v1/menu_items?expand[]=category.nope'), 400, 'parameter_invalid', 'expand');
    });
  });

  describe('Idempotency-Key', () => {
    it('replays the first answer for the same key and body', async () => {
      const body = { name: 'Risotto', category, price: 1500 };
      const headers = { 'idempotency-key': `k-${dialect}-1` };
      const first = await hub.api.post('/v1/menu_items', body, { headers });
      const again = await hub.api.post('/v1/menu_items', { price: 1500, category, name: 'Risotto' }, { headers });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.body).toEqual(first.body);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      const all = await hub.api.get('/v1/menu_items?limit=100');
      expect(all.body.data.filter((d: any) => d.name === 'Risotto')).toHaveLength(1);
    });

    it('refuses the same key with another body', async () => {
      const headers = { 'idempotency-key': `k-${dialect}-2` };
      expect((await hub.api.post('/v1/menu_items', { name: 'Ossobuco', category, price: 2400 }, { headers })).status).toBe(201);
      const before = await countRows(hub, 'menu_items');
      expectError(await hub.api.post('/v1/menu_items', { name: 'Ossobuco', category, price: 2500 }, { headers }), 422, 'idempotency_key_reused');
      expect(await countRows(hub, 'menu_items')).toBe(before);
    });

    it('makes one record when identical requests race', async () => {
      const headers = { 'idempotency-key': `k-${dialect}-race` };
      const body = { name: 'Race dish', category, price: 700 };
      const results = await Promise.all(Array.from({ length: 6 }, () => hub.api.post('/v1/menu_items', body, { headers })));
      const created = results.filter((r) => r.status === 201);
      expect(created.length).toBeGreaterThanOrEqual(1);
      for (const r of results) expect([201, 409]).toContain(r.status);
      for (const r of results.filter((x) => x.status === 409)) expectError(r, 409, 'idempotency_key_in_use');
      expect(new Set(created.map((r) => r.body.id)).size).toBe(1);
      const all = await hub.api.get('/v1/menu_items?limit=100');
      expect(all.body.data.filter((d: any) => d.name === 'Race dish')).toHaveLength(1);
    });

    it('frees the key when the request is refused, so a corrected retry works', async () => {
      const headers = { 'idempotency-key': `k-${dialect}-3` };
      expectError(await hub.api.post('/v1/menu_items', { name: 'Bad', category: 'mc_nope', price: 100 }, { headers }), 404);
      expect((await hub.api.post('/v1/menu_items', { name: 'Bad', category, price: 100 }, { headers })).status).toBe(201);
    });

    it('keeps answers 24 hours, then forgets them', async () => {
      const headers = { 'idempotency-key': `k-${dialect}-ttl` };
      const first = await hub.api.post('/v1/menu_items', { name: 'Old', category, price: 100 }, { headers });
      hub.clock.advance(25 * 3600 * 1000);
      await hub.server.scheduler.runNow('idempotency-cleanup');
      const second = await hub.api.post('/v1/menu_items', { name: 'Old', category, price: 100 }, { headers });
      expect(second.status).toBe(201);
      expect(second.body.id).not.toBe(first.body.id);
    });
  });

  describe('authentication and errors', () => {
    it('401 without or with an unknown key, 403 for a widget key or a missing scope', async () => {
      expectError(await hub.api.get('/v1/menu_items', { key: null }), 401, 'api_key_missing');
      expectError(await hub.api.get('/v1/menu_items', { key: 'sk_live_nope' }), 401, 'api_key_invalid');
      expectError(await hub.api.get('/v1/menu_items', { key: hub.keys.widget }), 403, 'key_type_not_allowed');
      const { createApiKey } = await import('../../server/domain/keys/create-key.ts');
      const readOnly = await hub.server.services.tx.run((trx) =>
        createApiKey(trx, hub.clock.now(), { restaurantId: hub.restaurant.id, kind: 'secret', livemode: true, scopes: ['menu:read'], grantedBy: 'operator' }),
      );
      expect((await hub.api.get('/v1/menu_items', { key: readOnly.key })).status).toBe(200);
      expectError(await hub.api.post('/v1/menu_items', { name: 'x', category, price: 1 }, { key: readOnly.key }), 403, 'insufficient_scope');
      expectError(await hub.api.get('/v1/events', { key: readOnly.key }), 403, 'insufficient_scope');
    });

    it('records when a key was last used', async () => {
      const row = await hub.server.services.db.selectFrom('api_keys').select(['last_used_at', 'kind', 'livemode']).where('kind', '=', 'secret').where('livemode', '=', 1).executeTakeFirstOrThrow();
      expect(row.last_used_at).toBeGreaterThan(0);
    });

    it('refuses malformed JSON, a wrong content type and a 2 MB body, writing nothing', async () => {
      const before = await countRows(hub, 'change_log');
      expectError(await hub.api.request('POST', '/v1/menu_items', { raw: '{"name": ', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
      expectError(await hub.api.request('POST', '/v1/menu_items', { raw: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } }), 415, 'unsupported_media_type');
      expectError(await hub.api.post('/v1/menu_items', { name: 'x'.repeat(2 * 1024 * 1024), category, price: 1 }), 413, 'body_too_large');
      expectError(await hub.api.request('POST', '/v1/menu_items', { raw: '[1,2]', headers: { 'content-type': 'application/json' } }), 400);
      expectError(await hub.api.request('POST', '/v1/menu_items', { raw: '{}', headers: { 'content-type': 'application/jsonp' } }), 415, 'unsupported_media_type');
      expect(await countRows(hub, 'change_log')).toBe(before);
    });

    it('takes JSON under any spelling of its content type, not only the usual one', async () => {
      for (const [i, type] of ['application/json; charset=utf-8', 'Application/JSON', 'application/json ; charset=UTF-8', 'application/merge-patch+json'].entries()) {
        expect((await hub.api.request('POST', '/v1/stations', { raw: JSON.stringify({ key: `typed-${i}` }), headers: { 'content-type': type } })).status, type).toBe(201);
      }
    });

    it('turns a race for the same unique key into one success and 409s', async () => {
      const results = await Promise.all(Array.from({ length: 5 }, () => hub.api.post('/v1/stations', { key: 'racer' })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      for (const r of results.filter((x) => x.status !== 201)) expectError(r, 409, 'resource_conflict');
    });

    it('answers unknown routes in the error shape', async () => {
      expectError(await hub.api.get('/v1/nothing-here'), 404, 'route_not_found');
    });

    it('never resolves an id of another restaurant', async () => {
      const other = await hub.addRestaurant(`other-${dialect}`);
      const theirCat = (await other.api.post('/v1/menu_categories', { name: 'Theirs' })).body.id;
      const theirItem = (await other.api.post('/v1/menu_items', { name: 'Theirs', category: theirCat, price: 100 })).body.id;
      expectError(await hub.api.get(`/v1/menu_items/${theirItem}`), 404, 'resource_missing');
      expectError(await hub.api.patch(`/v1/menu_items/${theirItem}`, { price: 1 }), 404, 'resource_missing');
      expectError(await hub.api.delete(`/v1/menu_items/${theirItem}`), 404, 'resource_missing');
      expectError(await hub.api.get(`/v1/menu_categories/${theirCat}`), 404, 'resource_missing');
      expectError(await hub.api.post('/v1/menu_items', { name: 'Mine', category: theirCat, price: 100 }), 404, 'resource_missing', 'category');
      const mine = await hub.api.get('/v1/menu_items?limit=100');
      expect(mine.body.data.some((d: any) => d.id === theirItem)).toBe(false);
      expect((await other.api.get(`/v1/menu_items/${theirItem}`)).body.price).toBe(100);
    });
  });

  describe('change log', () => {
    it('logs every write in order, with a tombstone for deletes', async () => {
      const db = hub.server.services.db;
      const start = (await db.selectFrom('change_log').select((eb) => eb.fn.max('seq').as('m')).executeTakeFirstOrThrow()).m as number;
      const g = (await hub.api.post('/v1/modifier_groups', { name: 'Gone', modifiers: [{ name: 'A' }] })).body;
      await hub.api.patch(`/v1/modifier_groups/${g.id}`, { name: 'Going' });
      await hub.api.delete(`/v1/modifier_groups/${g.id}`);
      const rows = await db.selectFrom('change_log').selectAll().where('seq', '>', start).orderBy('seq').execute();
      expect(rows.map((r) => [r.table_name, r.op])).toEqual([
        ['modifier_groups', 'insert'],
        ['modifier_groups', 'update'],
        ['modifier_groups', 'delete'],
      ]);
      expect(rows.map((r) => r.seq)).toEqual([start + 1, start + 2, start + 3]);
      expect(new Set(rows.map((r) => r.origin)).size).toBe(1);
      expect(rows[0].origin).toMatch(/^node_/);
      expect(rows.every((r) => r.row_id === g.id && r.restaurant_id === hub.restaurant.id)).toBe(true);
      expect(JSON.parse(rows[2].data)).toMatchObject({ id: g.id, name: 'Going' });
      expect(new Set(rows.map((r) => r.op_id)).size).toBe(3);
    });
  });
});

describe.each(DIALECTS)('rate limits on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: { rateLimit: { perSecond: 1, burst: 3 } } });
  });
  afterAll(() => hub?.close());

  it('answers 429 with Retry-After once a key has spent its burst', async () => {
    for (let i = 0; i < 3; i++) expect((await hub.api.get('/v1/stations')).status).toBe(200);
    const limited = await hub.api.get('/v1/stations');
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    hub.clock.advance(2000);
    expect((await hub.api.get('/v1/stations')).status).toBe(200);
  });
});
