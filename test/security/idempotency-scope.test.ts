import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from '../helpers/assert.ts';
import { DIALECTS } from '../helpers/db.ts';
import { ApiClient, countRows, startHub, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('Idempotency-Key records belong to their caller and hold no secret (%s)', (dialect) => {
  let hub: TestHub;
  let other: ApiClient;
  beforeAll(async () => {
    hub = await startHub(dialect);
    other = new ApiClient(hub.url, (await hub.api.post('/v1/api_keys', { name: 'integration' })).body.secret);
  });
  afterAll(() => hub?.close());

  it('another credential sending the same Idempotency-Key gets its own answer, never the stored one', async () => {
    const headers = { 'idempotency-key': 'shared-key-1' };
    const mine = await hub.api.post('/v1/menu_categories', { name: 'Soups' }, { headers });
    expect(mine.status).toBe(201);
    const theirs = await other.post('/v1/menu_categories', { name: 'Soups' }, { headers });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
    // the caller's own retry still replays
    const again = await hub.api.post('/v1/menu_categories', { name: 'Soups' }, { headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(mine.body);
  });

  it('a key creation is never kept with its secret; its replay says the key was made', async () => {
    const headers = { 'idempotency-key': 'new-key-1' };
    const made = await hub.api.post('/v1/api_keys', { name: 'POS', scopes: ['menu:read'] }, { headers });
    expect(made.status).toBe(201);
    const stored = await hub.server.services.db.selectFrom('idempotency_keys').select(['response_body']).execute();
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.some((r) => r.response_body?.includes(made.body.secret))).toBe(false);
    const before = await countRows(hub, 'api_keys');
    const replay = await hub.api.post('/v1/api_keys', { name: 'POS', scopes: ['menu:read'] }, { headers });
    expectError(replay, 409, 'state_conflict');
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.error.message).toContain(made.body.id);
    expect(JSON.stringify(replay.body)).not.toContain(made.body.secret);
    expect(await countRows(hub, 'api_keys')).toBe(before);
    // another caller with the same Idempotency-Key: its own key, no secret of the first
    const theirs = await other.post('/v1/api_keys', { name: 'POS', scopes: ['menu:read'] }, { headers });
    expect(theirs.status).toBe(201);
    expect(theirs.body.secret).not.toBe(made.body.secret);
  });
});
