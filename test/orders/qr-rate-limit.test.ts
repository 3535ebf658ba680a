import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { expectError } from '../helpers/assert.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('QR guest routes are rate-limited on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: { guestRateLimit: { perMinutePerIp: 3, perMinutePerRestaurant: 1000 } } });
  });
  afterAll(() => hub?.close());

  it('answers 429 with Retry-After once an IP has spent its guest budget', async () => {
    const qr = await hub.api.post('/v1/qr_codes', { type: 'takeout' });
    expect(qr.status).toBe(201);
    for (let i = 0; i < 3; i++) expect((await hub.api.get(`/public/qr/${qr.body.token}`, { key: null })).status).toBe(200);
    const limited = await hub.api.get(`/public/qr/${qr.body.token}/menu`, { key: null });
    expectError(limited, 429, 'rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    hub.clock.advance(60_000);
    expect((await hub.api.get(`/public/qr/${qr.body.token}/menu`, { key: null })).status).toBe(200);
  });
});
