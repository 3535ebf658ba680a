import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/database.ts';
import { claimDue, nextDueAt } from '../../server/domain/webhooks/deliveries.ts';
import { DIALECTS, freshDatabase } from '../helpers/db.ts';

describe.each(DIALECTS)('delivery claims on %s', (dialect) => {
  let database: Database;
  const now = 1_800_000_000_000;
  beforeAll(async () => {
    database = await freshDatabase(dialect);
    await database.db
      .insertInto('webhook_deliveries')
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          id: `whd_${String(i).padStart(3, '0')}`,
          restaurant_id: 'rst_1',
          event_id: `evt_${i}`,
          endpoint_id: 'we_1',
          url: 'http://127.0.0.1:9/',
          status: 'pending',
          attempt_count: 0,
          round_attempts: 0,
          next_attempt_at: i < 30 ? 0 : now + 60_000,
          lease_until: null,
          lease_owner: null,
          delivered_at: null,
          created: 1,
          updated: 1,
        })),
      )
      .execute();
  });
  afterAll(() => database?.close());

  it('two claimers at once never get the same delivery, and nothing not yet due is claimed', async () => {
    const claim = (owner: string) =>
      claimDue(database.db, dialect, { endpointId: 'we_1', limit: 20, nowMs: now, owner, leaseUntil: now + 30_000 });
    const [a, b] = await Promise.all([claim('A'), claim('B')]);
    const ids = [...a, ...b].map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.sort()).toEqual(Array.from({ length: 30 }, (_, i) => `whd_${String(i).padStart(3, '0')}`));
    expect(await claim('C')).toEqual([]);
    // next due: the lapse of those claims comes before the not-yet-due retries
    expect(await nextDueAt(database.db)).toBe(now + 30_000);
  });

  it('a claim whose holder died lapses and is claimed again', async () => {
    const later = now + 30_000;
    const again = await claimDue(database.db, dialect, { endpointId: 'we_1', limit: 100, nowMs: later, owner: 'D', leaseUntil: later + 60_000 });
    expect(again).toHaveLength(30);
    expect(again.every((r) => r.lease_owner === 'D')).toBe(true);
    const retries = await claimDue(database.db, dialect, { endpointId: 'we_1', limit: 100, nowMs: now + 60_000, owner: 'E', leaseUntil: now + 90_000 });
    expect(retries.map((r) => r.id).sort()).toEqual(Array.from({ length: 10 }, (_, i) => `whd_0${30 + i}`));
  });

  it('one claim never takes more than its limit', async () => {
    // far in the future: every delivery is due and free, whatever the tests before left
    const at = now + 10 * 60_000;
    for (const limit of [1, 3, 7]) {
      const got = await claimDue(database.db, dialect, { endpointId: 'we_1', limit, nowMs: at, owner: `L${limit}`, leaseUntil: at + 1 });
      expect(got, `limit ${limit}`).toHaveLength(limit);
    }
  });
});
