import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { ApiClient, startHub, type TestHub } from '../helpers/server.ts';

// counts the API key hashes the server computes (the real SHA-256 still runs)
const counted = vi.hoisted(() => ({ n: 0 }));
vi.mock('../../server/auth/keys.ts', async (original) => {
  const real = await original<typeof import('../../server/auth/keys.ts')>();
  return {
    ...real,
    hashApiKey: (key: string) => {
      counted.n++;
      return real.hashApiKey(key);
    },
  };
});

/**
 * A known key is hashed when it is looked up, not on every request that sends it; a key the
 * server does not know is hashed (and refused) every time. Revocation: test/security/revocation.test.ts.
 */
describe.each(DIALECTS)('API keys hashed once per look-up (%s)', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('ten requests with a known key hash it at most once; an unknown key is hashed and refused each time', async () => {
    const before = counted.n;
    for (let i = 0; i < 10; i++) expect((await hub.api.get('/v1/menu_items?limit=1')).status).toBe(200);
    expect(counted.n - before).toBeLessThanOrEqual(1);

    const unknown = new ApiClient(hub.url, `sk_live_${'x'.repeat(32)}`);
    const atUnknown = counted.n;
    for (let i = 0; i < 3; i++) expect((await unknown.get('/v1/menu_items?limit=1')).body.error.code).toBe('api_key_invalid');
    expect(counted.n - atUnknown).toBe(3);
  });
});
