import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

/** Where a table is drawn on the floor plan: set and cleared through PATCH /v1/tables, bounded, in the change log. */
describe.each(DIALECTS)('table positions on the plan on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('stores a position and shape, refuses one off the plan, and clears it', async () => {
    const made = await hub.api.post('/v1/tables', { number: 41, capacity: 2, zone: 'Bar' });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ plan_x: null, plan_y: null, plan_width: null, plan_height: null, shape: null });
    const placed = await hub.api.patch(`/v1/tables/${made.body.id}`, { plan_x: 120, plan_y: 640, plan_width: 200, shape: 'round' });
    expect(placed.status, JSON.stringify(placed.body)).toBe(200);
    expect(placed.body).toMatchObject({ plan_x: 120, plan_y: 640, plan_width: 200, plan_height: null, shape: 'round', capacity: 2 });
    const log = await hub.server.services.db.selectFrom('change_log').select(['data', 'fields']).where('row_id', '=', made.body.id).orderBy('seq', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(log.fields!).filter((c: string) => c !== 'updated').sort()).toEqual(['plan_width', 'plan_x', 'plan_y', 'shape']);
    for (const [body, param] of [[{ plan_x: 1001 }, 'plan_x'], [{ plan_y: -1 }, 'plan_y'], [{ plan_width: 5 }, 'plan_width'], [{ shape: 'star' }, 'shape']] as const) {
      const r = await hub.api.patch(`/v1/tables/${made.body.id}`, body);
      expect(r.status).toBe(400);
      expect(r.body.error.param).toBe(param);
    }
    expect((await hub.api.get(`/v1/tables/${made.body.id}`)).body.plan_x).toBe(120);
    const cleared = await hub.api.patch(`/v1/tables/${made.body.id}`, { plan_x: null, plan_y: null, shape: null });
    expect(cleared.body).toMatchObject({ plan_x: null, plan_y: null, plan_width: 200, shape: null });
  });
});
