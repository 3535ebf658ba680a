import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('webhook endpoint URL length on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  const written = async () => ({ endpoints: await countRows(hub, 'webhook_endpoints'), log: await countRows(hub, 'change_log') });
  // 1,920 characters as sent, 11,420 once percent-encoded
  const grown = 'https://example.com/' + 'é'.repeat(1900);

  it('refuses a URL longer than 2,000 characters once normalised, on create and update, writing nothing', async () => {
    expect(grown.length).toBeLessThanOrEqual(2000);
    expect(new URL(grown).toString().length).toBeGreaterThan(2000);
    const before = await written();
    const created = await hub.api.post('/v1/webhook_endpoints', { url: grown, enabled_events: ['*'] });
    expect(created.status).toBe(400);
    expect(created.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    expect(await written()).toEqual(before);

    const ok = await hub.api.post('/v1/webhook_endpoints', { url: 'https://example.com/hook', enabled_events: ['*'] });
    expect(ok.status).toBe(201);
    const mid = await written();
    const patched = await hub.api.patch(`/v1/webhook_endpoints/${ok.body.id}`, { url: grown });
    expect(patched.status).toBe(400);
    expect(patched.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' });
    expect(await written()).toEqual(mid);
    expect((await hub.api.get(`/v1/webhook_endpoints/${ok.body.id}`)).body.url).toBe('https://example.com/hook');
  });

  it('still takes a URL of exactly 2,000 characters once normalised', async () => {
    const base = 'https://example.com/';
    const url = base + 'é'.repeat(100) + 'a'.repeat(2000 - base.length - 600);
    expect(new URL(url).toString().length).toBe(2000);
    const res = await hub.api.post('/v1/webhook_endpoints', { url, enabled_events: ['*'] });
    expect(res.status).toBe(201);
    expect(res.body.url).toHaveLength(2000);
    expect((await hub.api.get(`/v1/webhook_endpoints/${res.body.id}`)).body.url).toHaveLength(2000);
  });
});
