import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { expectError } from '../helpers/assert.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

// A request that fails frees its key; identical requests racing it may find the key claimed,
// then gone by the time they read it. They must answer with the failure or 409, never 500.
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`Idempotency-Key race with a failing request on ${dialect}`, () => {
    let hub: TestHub;

    beforeAll(async () => {
      hub = await startHub(dialect);
    });
    afterAll(() => hub?.close());

    it('answers every identical concurrent failing request with 404 or 409, never 500', async () => {
      const results = [];
      for (let round = 0; round < 5; round++) {
        const headers = { 'idempotency-key': `race-fail-${round}` };
        const body = { name: 'Ghost dish', category: 'mc_does_not_exist', price: 100 };
        results.push(...(await Promise.all(Array.from({ length: 40 }, () => hub.api.post('/v1/menu_items', body, { headers })))));
      }
      const statuses = results.map((r) => r.status);
      expect(statuses).not.toContain(500);
      for (const r of results) {
        if (r.status === 409) expectError(r, 409, 'idempotency_key_in_use');
        else expectError(r, 404, 'resource_missing');
      }
    });
  });
}

describe.each(DIALECTS)('Idempotency-Key after a failed request on %s', (dialect) => {
  let hub: TestHub;

  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('frees the key after concurrent failures, so the same key succeeds once the category exists', async () => {
    const headers = { 'idempotency-key': `reuse-${dialect}` };
    const body = { name: 'Late dish', category: 'mc_not_yet', price: 900 };
    const failed = await Promise.all(Array.from({ length: 10 }, () => hub.api.post('/v1/menu_items', body, { headers })));
    for (const r of failed) expect([404, 409], JSON.stringify(r.body)).toContain(r.status);
    expect(failed.some((r) => r.status === 404)).toBe(true);

    const category = (await hub.api.post('/v1/menu_categories', { name: 'Now' })).body.id as string;
    const ok = await hub.api.post('/v1/menu_items', { ...body, category }, { headers });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const again = await hub.api.post('/v1/menu_items', { ...body, category }, { headers });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(ok.body.id);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });
});
