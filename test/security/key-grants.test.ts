import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { ApiClient, countRows, startHub, type TestHub } from '../helpers/server.ts';

/** A key hands out only scopes it holds: secret keys, widget keys and pairing codes alike. */
describe.each(DIALECTS)('key grants (%s)', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  const keyWith = async (scopes: string[]) => {
    const made = await hub.api.post('/v1/api_keys', { name: scopes.join(' '), scopes });
    expect(made.status).toBe(201);
    return new ApiClient(hub.url, made.body.secret);
  };

  it('a key with only api_keys:write cannot mint a widget key (orders:read/write)', async () => {
    const minter = await keyWith(['api_keys:write']);
    const before = await countRows(hub, 'api_keys');
    expectError(await minter.post('/v1/api_keys', { name: 'screens', type: 'widget' }), 403, 'insufficient_scope');
    expectError(await minter.post('/v1/api_keys', { name: 'screens', type: 'widget', scopes: ['orders:read'] }), 403, 'insufficient_scope');
    expectError(await minter.post('/v1/api_keys', { name: 'wide', scopes: ['customers:read'] }), 403, 'insufficient_scope');
    expect(await countRows(hub, 'api_keys')).toBe(before);
    // what it holds it may hand on
    const ok = await minter.post('/v1/api_keys', { name: 'same', scopes: ['api_keys:write'] });
    expect(ok.status).toBe(201);
    expect(ok.body.scopes).toEqual(['api_keys:write']);
  });

  it('a key holding the orders scopes may mint a widget key', async () => {
    const minter = await keyWith(['api_keys:write', 'orders:read', 'orders:write']);
    const made = await minter.post('/v1/api_keys', { name: 'pass', type: 'widget' });
    expect(made.status).toBe(201);
    expect(made.body.scopes).toEqual(['orders:read', 'orders:write']);
  });

  it('a key with only settings:write cannot make a pairing code (a device key holds orders:read/write)', async () => {
    const settings = await keyWith(['settings:write']);
    const before = await countRows(hub, 'device_pairings');
    expectError(await settings.post('/v1/devices/pairing_codes', { name: 'Grill' }), 403, 'insufficient_scope');
    expect(await countRows(hub, 'device_pairings')).toBe(before);
    const full = await keyWith(['settings:write', 'orders:read', 'orders:write']);
    expect((await full.post('/v1/devices/pairing_codes', { name: 'Grill' })).status).toBe(201);
  });
});
