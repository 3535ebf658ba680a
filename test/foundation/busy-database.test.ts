import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../server/clock.ts';
import { openDatabase } from '../../server/db/database.ts';
import { provisionRestaurant } from '../../server/domain/restaurants/provision.ts';
import { silentLogger } from '../../server/logger.ts';
import { createServer, type ComandaServer } from '../../server/server.ts';
import { ApiClient } from '../helpers/server.ts';

describe('the hub while another process holds the database', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-busy-'));
  let server: ComandaServer;
  let api: ApiClient;
  beforeAll(async () => {
    const database = await openDatabase({ dataDir: dir, busyTimeoutMs: 100 });
    server = createServer({ database, clock: new ManualClock(), logger: silentLogger, config: { rateLimit: false, guestRateLimit: false } });
    const { url } = await server.listen(0, '127.0.0.1');
    const r = await provisionRestaurant(server.services.tx, Date.now(), { name: 'Busy Bistro', slug: 'busy' });
    api = new ApiClient(url, r.keys.secret);
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers a write it cannot make 503 with Retry-After, and the retry with the same key succeeds once', async () => {
    const headers = { 'idempotency-key': 'busy-retry-1' };
    const other = new SQLite(path.join(dir, 'comanda.sqlite'));
    other.exec('begin immediate'); // e.g. a backup tool or the sqlite3 shell holding the write lock
    try {
      const refused = await api.post('/v1/menu_categories', { name: 'Soups' }, { headers });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(refused.body.error).toMatchObject({ type: 'api_error', code: 'service_unavailable' });
      expect(JSON.stringify(refused.body)).not.toMatch(/SQLITE|database is locked/);
    } finally {
      other.exec('rollback');
      other.close();
    }
    const retried = await api.post('/v1/menu_categories', { name: 'Soups' }, { headers });
    expect(retried.status).toBe(201);
    const again = await api.post('/v1/menu_categories', { name: 'Soups' }, { headers });
    expect(again.body.id).toBe(retried.body.id);
    const list = await api.get('/v1/menu_categories?limit=100');
    expect(list.body.data.filter((c: { name: string }) => c.name === 'Soups')).toHaveLength(1);
  });
});
