import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('webhook endpoints on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    // a developer's hub: sandbox endpoints on this machine too (test/security/sandbox-reach.test.ts: the default)
    hub = await startHub(dialect, { config: { webhooks: { sandboxPrivateTargets: true } } });
  });
  afterAll(() => hub?.close());

  const written = async () => ({ endpoints: await countRows(hub, 'webhook_endpoints'), log: await countRows(hub, 'change_log') });

  it('creates an endpoint with its secret shown once, then lists, retrieves, updates and deletes it', async () => {
    const created = await hub.api.post('/v1/webhook_endpoints', {
      url: 'http://127.0.0.1:9/hook',
      enabled_events: ['order.created', 'order.created', 'order.cancelled'],
      description: 'Kitchen display',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      object: 'webhook_endpoint',
      url: 'http://127.0.0.1:9/hook',
      enabled_events: ['order.created', 'order.cancelled'],
      description: 'Kitchen display',
      status: 'enabled',
      livemode: true,
      disabled_reason: null,
    });
    expect(created.body.id).toMatch(/^we_/);
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);

    const got = await hub.api.get(`/v1/webhook_endpoints/${created.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(got.body.url).toBe('http://127.0.0.1:9/hook');

    const list = await hub.api.get('/v1/webhook_endpoints?limit=100');
    expect(list.status).toBe(200);
    expect(list.body.object).toBe('list');
    expect(list.body.url).toBe('/v1/webhook_endpoints');
    expect(list.body.data.map((e: any) => e.id)).toContain(created.body.id);
    expect(list.body.data.every((e: any) => e.secret === undefined)).toBe(true);

    const patched = await hub.api.patch(`/v1/webhook_endpoints/${created.body.id}`, {
      enabled_events: ['*', 'order.updated'],
      status: 'disabled',
      description: null,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ enabled_events: ['*'], status: 'disabled', description: null });

    const rolled = await hub.api.post(`/v1/webhook_endpoints/${created.body.id}/roll_secret`, {});
    expect(rolled.status).toBe(200);
    expect(rolled.body.secret).toMatch(/^whsec_/);
    expect(rolled.body.secret).not.toBe(created.body.secret);

    const del = await hub.api.delete(`/v1/webhook_endpoints/${created.body.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ id: created.body.id, object: 'webhook_endpoint', deleted: true });
    expect((await hub.api.get(`/v1/webhook_endpoints/${created.body.id}`)).status).toBe(404);
  });

  it('writes endpoint changes to the change log (a replicated record)', async () => {
    const before = await countRows(hub, 'change_log');
    const r = await hub.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/a', enabled_events: ['*'] });
    expect(r.status).toBe(201);
    expect(await countRows(hub, 'change_log')).toBe(before + 1);
  });

  it('keeps live and sandbox endpoints apart: a key sees only its own mode', async () => {
    const sandbox = await hub.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/sb', enabled_events: ['*'] }, { key: hub.keys.sandbox });
    expect(sandbox.status).toBe(201);
    expect(sandbox.body.livemode).toBe(false);
    expect((await hub.api.get(`/v1/webhook_endpoints/${sandbox.body.id}`)).status).toBe(404);
    const liveList = await hub.api.get('/v1/webhook_endpoints?limit=100');
    expect(liveList.body.data.some((e: any) => e.id === sandbox.body.id)).toBe(false);
    const sbList = await hub.api.get('/v1/webhook_endpoints?limit=100', { key: hub.keys.sandbox });
    expect(sbList.body.data.map((e: any) => e.id)).toEqual([sandbox.body.id]);
  });

  it('refuses bad input and writes nothing', async () => {
    const before = await written();
    const bad: [unknown, string][] = [
      [{ enabled_events: ['*'] }, 'parameter_missing'],
      [{ url: 'http://127.0.0.1:9/x' }, 'parameter_missing'],
      [{ url: 42, enabled_events: ['*'] }, 'parameter_invalid'],
      [{ url: 'http://127.0.0.1:9/x', enabled_events: '*' }, 'parameter_invalid'],
      [{ url: 'http://127.0.0.1:9/x', enabled_events: [] }, 'parameter_invalid'],
      [{ url: 'http://127.0.0.1:9/x', enabled_events: ['Order Created'] }, 'parameter_invalid'],
      [{ url: 'http://127.0.0.1:9/x', enabled_events: ['*'], status: 'paused' }, 'parameter_invalid'],
      [{ url: 'http://127.0.0.1:9/x', enabled_events: ['*'], description: 'x'.repeat(501) }, 'parameter_invalid'],
      [{ url: `http://127.0.0.1:9/${'x'.repeat(2000)}`, enabled_events: ['*'] }, 'parameter_invalid'],
      [{ url: 'not a url', enabled_events: ['*'] }, 'parameter_invalid'],
      [{ url: 'ftp://127.0.0.1/x', enabled_events: ['*'] }, 'url_not_allowed'],
      [{ url: 'http://user:pw@127.0.0.1:9/x', enabled_events: ['*'] }, 'url_not_allowed'],
    ];
    for (const [body, code] of bad) {
      const r = await hub.api.post('/v1/webhook_endpoints', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code, JSON.stringify(body)).toBe(code);
    }
    expect((await hub.api.get('/v1/webhook_endpoints?color=red')).body.error.code).toBe('parameter_unknown');
    expect((await hub.api.get('/v1/webhook_endpoints?limit=101')).status).toBe(400);
    expect((await hub.api.get('/v1/webhook_endpoints?limit=abc')).status).toBe(400);
    expect(await written()).toEqual(before);
  });

  it('refuses updates, deletes and rolls of unknown, other-restaurant and bad inputs, writing nothing', async () => {
    const mine = await hub.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/m', enabled_events: ['*'] });
    const other = await hub.addRestaurant(`other-${dialect}`);
    const theirs = await other.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/t', enabled_events: ['*'] });
    expect(theirs.status).toBe(201);
    const before = await written();
    for (const id of ['we_nope', theirs.body.id]) {
      expect((await hub.api.get(`/v1/webhook_endpoints/${id}`)).status).toBe(404);
      const p = await hub.api.patch(`/v1/webhook_endpoints/${id}`, { description: 'x' });
      expect(p.status).toBe(404);
      expect(p.body.error.code).toBe('resource_missing');
      expect((await hub.api.delete(`/v1/webhook_endpoints/${id}`)).status).toBe(404);
      expect((await hub.api.post(`/v1/webhook_endpoints/${id}/roll_secret`, {})).status).toBe(404);
    }
    const badPatches: unknown[] = [{ status: 'gone' }, { enabled_events: [] }, { url: 'ftp://x' }, { description: 'x'.repeat(501) }, { url: 7 }];
    for (const body of badPatches) {
      const r = await hub.api.patch(`/v1/webhook_endpoints/${mine.body.id}`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
    }
    for (const body of [{ expires_in: -1 }, { expires_in: 7 * 86_400 + 1 }, { expires_in: 'soon' }]) {
      const r = await hub.api.post(`/v1/webhook_endpoints/${mine.body.id}/roll_secret`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.code).toBe('parameter_invalid');
    }
    expect(await written()).toEqual(before);
    // the other restaurant's endpoint is untouched
    expect((await other.api.get(`/v1/webhook_endpoints/${theirs.body.id}`)).body.description).toBeNull();
  });

  it('replays a create with the same Idempotency-Key, without the secret (stored answers never keep one)', async () => {
    const headers = { 'idempotency-key': `wh-create-${dialect}` };
    const body = { url: 'http://127.0.0.1:9/idem', enabled_events: ['*'] };
    const a = await hub.api.post('/v1/webhook_endpoints', body, { headers });
    const before = await countRows(hub, 'webhook_endpoints');
    const b = await hub.api.post('/v1/webhook_endpoints', body, { headers });
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBe('true');
    const { secret, ...rest } = a.body;
    expect(secret).toMatch(/^whsec_/);
    expect(b.body).toEqual(rest);
    expect(await countRows(hub, 'webhook_endpoints')).toBe(before);
  });

  it('needs the webhooks scopes and a secret key', async () => {
    const r = await hub.api.get('/v1/webhook_endpoints', { key: hub.keys.widget });
    expect(r.status).toBe(403);
    expect((await hub.api.get('/v1/webhook_endpoints', { key: null })).status).toBe(401);
  });

  it('caps the endpoints per restaurant and mode', async () => {
    const other = await hub.addRestaurant(`cap-${dialect}`);
    for (let i = 0; i < 16; i++) {
      expect((await other.api.post('/v1/webhook_endpoints', { url: `http://127.0.0.1:9/${i}`, enabled_events: ['*'] })).status).toBe(201);
    }
    const r = await other.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/17', enabled_events: ['*'] });
    expect(r.status).toBe(409);
    expect(r.body.error.code).toBe('resource_conflict');
  });
});

describe.each(DIALECTS)('webhook URL rules on %s', (dialect) => {
  let cloud: TestHub;
  let strictHub: TestHub;
  beforeAll(async () => {
    cloud = await startHub(dialect, { config: { role: 'cloud' } });
    strictHub = await startHub(dialect, { config: { webhooks: { allowPrivateTargets: false } }, slug: 'strict' });
  });
  afterAll(async () => {
    await cloud?.close();
    await strictHub?.close();
  });

  it('cloud: only https, and never loopback, private or link-local targets', async () => {
    const before = await countRows(cloud, 'webhook_endpoints');
    for (const url of [
      'http://93.184.216.34/hook',
      'https://127.0.0.1/hook',
      'https://localhost/hook',
      'https://10.1.2.3/hook',
      'https://172.20.0.1/hook',
      'https://192.168.1.10/hook',
      'https://169.254.169.254/latest',
      'https://0.0.0.0/hook',
      'https://[::1]/hook',
      'https://[fe80::1]/hook',
      'https://[fd12::1]/hook',
      'https://[::ffff:192.168.0.1]/hook',
    ]) {
      const r = await cloud.api.post('/v1/webhook_endpoints', { url, enabled_events: ['*'] });
      expect(r.status, url).toBe(400);
      expect(r.body.error.code, url).toBe('url_not_allowed');
      expect(r.body.error.param).toBe('url');
    }
    expect(await countRows(cloud, 'webhook_endpoints')).toBe(before);
    const ok = await cloud.api.post('/v1/webhook_endpoints', { url: 'https://93.184.216.34/hook', enabled_events: ['*'] });
    expect(ok.status).toBe(201);
    const patch = await cloud.api.patch(`/v1/webhook_endpoints/${ok.body.id}`, { url: 'https://192.168.0.2/hook' });
    expect(patch.body.error.code).toBe('url_not_allowed');
  });

  it('hub: http and LAN targets by default; with allowPrivateTargets off, no private ones', async () => {
    const r = await strictHub.api.post('/v1/webhook_endpoints', { url: 'http://127.0.0.1:9/hook', enabled_events: ['*'] });
    expect(r.body.error.code).toBe('url_not_allowed');
    const ok = await strictHub.api.post('/v1/webhook_endpoints', { url: 'http://93.184.216.34/hook', enabled_events: ['*'] });
    expect(ok.status).toBe(201);
  });
});
