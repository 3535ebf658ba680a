import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';

/** Input that PostgreSQL would refuse deep inside (a 500) or SQLite would quietly store. */
describe.each(DIALECTS)('hostile input on %s', (dialect) => {
  let hub: TestHub;
  let category: string;
  beforeAll(async () => {
    hub = await startHub(dialect);
    category = (await hub.api.post('/v1/menu_categories', { name: 'Mains' })).body.id;
  });
  afterAll(() => hub?.close());

  const refused = async (r: { status: number; body: any }, param?: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.error.code).toMatch(/^(parameter_invalid|invalid_cursor)$/);
    if (param) expect(r.body.error.param).toBe(param);
  };

  it('NUL characters in bodies, ids and query values are 400, and nothing is written', async () => {
    const before = await countRows(hub, 'change_log');
    await refused(await hub.api.post('/v1/menu_categories', { name: 'a\u0000b' }));
    await refused(await hub.api.patch('/v1/settings', { name: 'x\u0000' }));
    await refused(await hub.api.post('/v1/menu_items', { name: 'Soup', category, price: 500, tags: ['hot\u0000'] }));
    await refused(await hub.api.get('/v1/menu_items/mi_%00x'));
    await refused(await hub.api.get(`/v1/menu_items?category=mc_%00x`));
    expect(await countRows(hub, 'change_log')).toBe(before);
    // the text "\\u0000" (a backslash and five letters) is no NUL and is kept as written
    const literal = await hub.api.post('/v1/menu_categories', { name: 'odd \\u0000 name' });
    expect(literal.status).toBe(201);
    expect(literal.body.name).toBe('odd \\u0000 name');
  });

  it('a JSON null body is not an object', async () => {
    for (const [method, path] of [['PATCH', '/v1/settings'], ['POST', '/v1/menu_items']] as const) {
      const r = await hub.api.request(method, path, { raw: 'null', headers: { 'content-type': 'application/json' } });
      expect(r.status, path).toBe(400);
      expect(r.body.error.code).toBe('parameter_invalid');
    }
  });

  it('image URLs are web addresses only', async () => {
    for (const image_url of ['javascript:alert(1)', 'file:///etc/passwd', 'data:image/png;base64,AAAA']) {
      await refused(await hub.api.post('/v1/menu_items', { name: 'Soup', category, price: 500, image_url }), 'image_url');
      await refused(await hub.api.patch(`/v1/menu_categories/${category}`, { image_url }), 'image_url');
    }
    expect((await hub.api.post('/v1/menu_items', { name: 'Soup', category, price: 500, image_url: 'https://cdn.example.org/soup.jpg' })).status).toBe(201);
  });

  it('forged cursors are 400 invalid_cursor, never a database error', async () => {
    const forge = (values: unknown[]) => Buffer.from(JSON.stringify(['/v1/menu_items', ...values])).toString('base64url');
    for (const values of [[1e300, 'mi_x'], [1.5, 'mi_x'], [null, 'mi_x'], [5, 'x'.repeat(500)], [5, 'mi_\u0000']]) {
      const r = await hub.api.get(`/v1/menu_items?starting_after=${forge(values)}`);
      expect(r.status, JSON.stringify(values)).toBe(400);
      // (an over-long cursor is refused by the parameter's own length limit first)
      expect(r.body.error.code, JSON.stringify(values)).toMatch(/^(invalid_cursor|parameter_invalid)$/);
    }
    // text where a time belongs: PostgreSQL refuses it as data (400), SQLite just compares it
    const r = await hub.api.get(`/v1/menu_items?starting_after=${forge(['abc', 'mi_x'])}`);
    expect([200, 400]).toContain(r.status);
    if (dialect === 'postgres') expect(r.body.error.code).toBe('parameter_invalid');
  });
});
