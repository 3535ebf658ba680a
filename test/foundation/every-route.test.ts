import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes as allRoutes } from '../../server/api/routes.ts';

// a hub serves every route but the cloud's side of sync (role: cloud), whose bodies follow the
// sync protocol (gzip, its own bounds: sync/wire.ts) and which test/sync drives
const routes = allRoutes.filter((r) => !r.role);
import { DIALECTS } from '../helpers/db.ts';
import { expectError } from '../helpers/assert.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';

/**
 * The refusals every route shares, checked on every route the server registers — so a
 * route added later is covered without anyone remembering to.
 */
describe.each(DIALECTS)('every route on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  const keyFor = (auth: string) => (auth === 'secret' ? hub.keys.secret : auth === 'widget' ? hub.keys.widget : null);
  const pathOf = (p: string) => p.replace(/:(\w+)/g, (_m, name) => (name === 'itemIndex' ? '0' : `x_${name}`));
  const writes = routes.filter((r) => r.method === 'post' || r.method === 'patch' || r.method === 'put');

  it('refuses unknown query parameters on every route', async () => {
    for (const r of routes) {
      const res = await hub.api.request(r.method.toUpperCase(), `${pathOf(r.path)}?bogus_param=1`, { key: keyFor(r.auth), body: r.body ? {} : undefined });
      expectError(res, 400, 'parameter_unknown', 'bogus_param');
    }
  }, 120_000); // 120 s: a request to every route of the API in turn

  it('refuses malformed JSON, a wrong content type and an oversized body on every write, writing nothing', async () => {
    const before = await countRows(hub, 'change_log');
    for (const r of writes) {
      const path = pathOf(r.path);
      const key = keyFor(r.auth);
      expectError(await hub.api.request(r.method.toUpperCase(), path, { key, raw: '{"a":', headers: { 'content-type': 'application/json' } }), 400, 'invalid_json');
      expectError(await hub.api.request(r.method.toUpperCase(), path, { key, raw: '<a/>', headers: { 'content-type': 'text/xml' } }), 415, 'unsupported_media_type');
      expectError(await hub.api.request(r.method.toUpperCase(), path, { key, body: { pad: 'x'.repeat(2 * 1024 * 1024) } }), 413, 'body_too_large');
    }
    expect(await countRows(hub, 'change_log')).toBe(before);
    // a 2 MB body to each of ~90 writes: a walk, not a timing (the default 30 s is short on a loaded box)
  }, 120_000);

  it('asks for a key on every keyed route', async () => {
    for (const r of routes.filter((x) => x.auth !== 'none')) {
      expectError(await hub.api.request(r.method.toUpperCase(), pathOf(r.path), { key: null }), 401, 'api_key_missing');
    }
  }, 120_000); // 120 s: a request to every route of the API in turn
});

describe('guest routes', () => {
  it('every keyless /public route takes the per-IP guest limit before it reads anything', () => {
    const guest = routes.filter((r) => r.auth === 'none' && r.path.startsWith('/public/'));
    expect(guest.length).toBeGreaterThan(10);
    for (const r of guest) expect(r.preflight, `${r.method} ${r.path}`).toBeDefined();
  });
});
