import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';

const tcp = (port = 9100) => ({ type: 'tcp', host: '127.0.0.1', port });

describe.each(DIALECTS)('printers API on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  /** Runs a refused request and proves nothing was written. */
  async function refused(run: () => Promise<{ status: number; body: any }>, status: number, code: string, param?: string) {
    const before = { printers: await countRows(hub, 'printers'), log: await countRows(hub, 'change_log'), jobs: await countRows(hub, 'print_jobs') };
    const res = await run();
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    expect(res.body.error.code).toBe(code);
    if (param !== undefined) expect(res.body.error.param).toBe(param);
    expect({ printers: await countRows(hub, 'printers'), log: await countRows(hub, 'change_log'), jobs: await countRows(hub, 'print_jobs') }).toEqual(before);
  }

  it('creates a printer with defaults and reads it back', async () => {
    const res = await hub.api.post('/v1/printers', { name: 'Kitchen', transport: { type: 'tcp', host: '192.168.1.50' }, stations: ['kitchen'] });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      object: 'printer',
      name: 'Kitchen',
      transport: { type: 'tcp', host: '192.168.1.50', port: 9100 },
      language: 'escpos',
      paper_width: 80,
      stations: ['kitchen'],
      prints_receipts: false,
      backup_printer: null,
      is_active: true,
      status: { state: 'unknown' },
    });
    expect(res.body.id).toMatch(/^prt_/);
    const got = await hub.api.get(`/v1/printers/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
  });

  it('links a backup, expands it, filters by station, pages with cursors', async () => {
    const bar = await hub.api.post('/v1/printers', { name: 'Bar', transport: tcp(9101), stations: ['bar'], language: 'starprnt', paper_width: 58 });
    expect(bar.status).toBe(201);
    const bar2 = await hub.api.post('/v1/printers', { name: 'Bar 2', transport: tcp(9102), stations: ['bar', 'dessert'], backup_printer: bar.body.id });
    expect(bar2.status).toBe(201);
    expect(bar2.body.backup_printer).toBe(bar.body.id);
    const expanded = await hub.api.get(`/v1/printers/${bar2.body.id}?expand[]=backup_printer`);
    expect(expanded.body.backup_printer).toMatchObject({ id: bar.body.id, name: 'Bar', language: 'starprnt', paper_width: 58 });

    const byStation = await hub.api.get('/v1/printers?station=bar');
    expect(byStation.body.data.map((p: any) => p.name)).toEqual(['Bar 2', 'Bar']);
    const dessert = await hub.api.get('/v1/printers?station=dessert');
    expect(dessert.body.data.map((p: any) => p.name)).toEqual(['Bar 2']);

    const page1 = await hub.api.get('/v1/printers?limit=2');
    expect(page1.body.data).toHaveLength(2);
    expect(page1.body.has_more).toBe(true);
    const page2 = await hub.api.get(`/v1/printers?limit=2&starting_after=${page1.body.next_cursor}`);
    const ids = [...page1.body.data, ...page2.body.data].map((p: any) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toContain(bar.body.id);
  });

  it('updates only the fields sent, and deletes', async () => {
    const p = await hub.api.post('/v1/printers', { name: 'Temp', transport: tcp(9200) });
    const patched = await hub.api.patch(`/v1/printers/${p.body.id}`, { paper_width: 58, prints_receipts: true, stations: ['other'] });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ name: 'Temp', paper_width: 58, prints_receipts: true, stations: ['other'], transport: tcp(9200) });
    const other = await hub.api.post('/v1/printers', { name: 'Uses temp', transport: tcp(9201), backup_printer: p.body.id });
    await refused(() => hub.api.delete(`/v1/printers/${p.body.id}`), 409, 'resource_conflict');
    expect((await hub.api.patch(`/v1/printers/${other.body.id}`, { backup_printer: null })).body.backup_printer).toBeNull();
    const del = await hub.api.delete(`/v1/printers/${p.body.id}`);
    expect(del.body).toEqual({ id: p.body.id, object: 'printer', deleted: true });
    expect((await hub.api.get(`/v1/printers/${p.body.id}`)).status).toBe(404);
  });

  it('refuses bad input and writes nothing', async () => {
    const post = (body: unknown) => () => hub.api.post('/v1/printers', body);
    await refused(post({ transport: tcp() }), 400, 'parameter_missing', 'name');
    await refused(post({ name: 'X' }), 400, 'parameter_missing', 'transport');
    await refused(post({ name: 42, transport: tcp() }), 400, 'parameter_invalid', 'name');
    await refused(post({ name: 'x'.repeat(201), transport: tcp() }), 400, 'parameter_invalid', 'name');
    await refused(post({ name: 'X', transport: { type: 'tcp', host: '127.0.0.1', port: 0 } }), 400, 'parameter_invalid', 'transport.port');
    await refused(post({ name: 'X', transport: { type: 'tcp', host: '127.0.0.1', port: 65536 } }), 400, 'parameter_invalid', 'transport.port');
    await refused(post({ name: 'X', transport: { type: 'tcp', host: '127.0.0.1', port: '9100' } }), 400, 'parameter_invalid', 'transport.port');
    await refused(post({ name: 'X', transport: { type: 'tcp', host: 'http://evil/' } }), 400, 'parameter_invalid', 'transport.host');
    await refused(post({ name: 'X', transport: { type: 'tcp', host: 'a'.repeat(254) } }), 400, 'parameter_invalid', 'transport.host');
    await refused(post({ name: 'X', transport: { type: 'tcp' } }), 400, 'parameter_missing', 'transport.host');
    await refused(post({ name: 'X', transport: { type: 'usb', host: 'x' } }), 400, 'parameter_invalid');
    await refused(post({ name: 'X', transport: { ...tcp(), extra: 1 } }), 400, 'parameter_unknown', 'transport.extra');
    await refused(post({ name: 'X', transport: tcp(), language: 'zpl' }), 400, 'parameter_invalid', 'language');
    await refused(post({ name: 'X', transport: tcp(), paper_width: 70 }), 400, 'parameter_invalid', 'paper_width');
    await refused(post({ name: 'X', transport: tcp(), stations: 'kitchen' }), 400, 'parameter_invalid', 'stations');
    await refused(post({ name: 'X', transport: tcp(), stations: ['nowhere'] }), 400, 'unknown_station', 'stations');
    await refused(post({ name: 'X', transport: tcp(), stations: ['bar', 'bar'] }), 400, 'parameter_invalid', 'stations');
    await refused(post({ name: 'X', transport: tcp(), backup_printer: 'prt_missing' }), 404, 'resource_missing', 'backup_printer');
    await refused(post({ name: 'X', transport: tcp(), prints_receipts: 'yes' }), 400, 'parameter_invalid', 'prints_receipts');
    await refused(() => hub.api.request('POST', '/v1/printers', { raw: '{"name":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');

    const mine = await hub.api.post('/v1/printers', { name: 'Mine', transport: tcp(9300) });
    await refused(() => hub.api.patch(`/v1/printers/${mine.body.id}`, { backup_printer: mine.body.id }), 400, 'parameter_invalid', 'backup_printer');
    await refused(() => hub.api.patch(`/v1/printers/${mine.body.id}`, { paper_width: 100 }), 400, 'parameter_invalid', 'paper_width');
    await refused(() => hub.api.patch('/v1/printers/prt_missing', { name: 'Y' }), 404, 'resource_missing', 'id');
    await refused(() => hub.api.delete('/v1/printers/prt_missing'), 404, 'resource_missing', 'id');
    await refused(() => hub.api.get('/v1/printers?colour=red'), 400, 'parameter_unknown', 'colour');
    await refused(() => hub.api.get('/v1/printers?limit=0'), 400, 'parameter_invalid', 'limit');
    await refused(() => hub.api.get('/v1/printers?is_active=maybe'), 400, 'parameter_invalid', 'is_active');
    await refused(() => hub.api.get('/v1/printers/prt_missing'), 404, 'resource_missing');
    await refused(() => hub.api.post('/v1/printers/prt_missing/test'), 404, 'resource_missing');

    // another restaurant's printer is not found, and can not be used as a backup
    const other = await hub.addRestaurant('other-place');
    const theirs = await other.api.post('/v1/printers', { name: 'Theirs', transport: tcp(9400) });
    expect(theirs.status).toBe(201);
    await refused(() => hub.api.get(`/v1/printers/${theirs.body.id}`), 404, 'resource_missing');
    await refused(() => hub.api.patch(`/v1/printers/${theirs.body.id}`, { name: 'Mine now' }), 404, 'resource_missing');
    await refused(() => hub.api.delete(`/v1/printers/${theirs.body.id}`), 404, 'resource_missing');
    await refused(post({ name: 'X', transport: tcp(), backup_printer: theirs.body.id }), 404, 'resource_missing', 'backup_printer');
    await refused(() => hub.api.post(`/v1/printers/${theirs.body.id}/test`), 404, 'resource_missing');
    expect((await other.api.get(`/v1/printers/${theirs.body.id}`)).body.name).toBe('Theirs');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = await hub.api.get('/v1/openapi.json', { key: null });
    expect(doc.status).toBe(200);
    for (const path of ['/v1/printers', '/v1/printers/{id}', '/v1/printers/{id}/test', '/v1/print_jobs', '/v1/print_jobs/{id}/preview', '/v1/print_jobs/{id}/reprint', '/v1/orders/{id}/receipt']) {
      expect(Object.keys(doc.body.paths), path).toContain(path);
    }
  });

  it('asks for the printers scopes', async () => {
    const widget = hub.api.withKey(hub.keys.widget);
    const res = await widget.get('/v1/printers');
    expect(res.status).toBe(403);
    const noKey = await hub.api.withKey(null).post('/v1/printers', { name: 'X', transport: tcp() });
    expect(noKey.status).toBe(401);
  });
});
