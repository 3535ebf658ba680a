import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
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

// A process another one took for dead (its claim was taken over) must not also commit: its
// request is undone and answered 409, and the taker's run is the only one.
for (const dialect of DIALECTS.filter((d) => d === 'postgres')) {
  describe(`Idempotency-Key taken over from a running request on ${dialect}`, () => {
    let hub: TestHub;

    beforeAll(async () => {
      hub = await startHub(dialect);
    });
    afterAll(() => hub?.close());

    it('undoes the request whose claim another process took, so nothing is made twice', async () => {
      const stall = new pg.Client({ connectionString: hub.server.services.databaseUrl! });
      await stall.connect();
      try {
        await stall.query('begin');
        await stall.query('lock table menu_items in exclusive mode'); // the request stops after its claim
        const body = { name: 'Contested', category: (await hub.api.post('/v1/menu_categories', { name: 'C' })).body.id, price: 500 };
        const pending = hub.api.post('/v1/menu_items', body, { headers: { 'idempotency-key': 'taken-over' } });
        let claimed = 0;
        while (claimed === 0) {
          const r = await stall.query(`update idempotency_keys set owner = 'proc_other' where key like '%:taken-over' and state = 'in_flight'`);
          claimed = r.rowCount ?? 0;
        }
        await stall.query('commit');
        const res = await pending;
        expectError(res, 409, 'idempotency_key_in_use');
        const items = await hub.server.services.db.selectFrom('menu_items').select('id').where('name', '=', 'Contested').execute();
        expect(items).toEqual([]);
      } finally {
        await stall.end();
      }
    });
  });
}
