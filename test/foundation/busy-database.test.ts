import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
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

describe('a transaction beside another process writing the same file', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-snapshot-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('that reads first and writes after keeps its write when the other process writes in between', async () => {
    const database = await openDatabase({ dataDir: dir, busyTimeoutMs: 2000 });
    const other = new SQLite(path.join(dir, 'comanda.sqlite'));
    // the other process gives up at once rather than wait for this one (same thread here)
    other.pragma('busy_timeout = 0');
    other.exec('create table if not exists beside (who text)');
    let otherWrote: boolean | string = false;
    try {
      await database.db.transaction().execute(async (trx) => {
        await sql`select count(*) from beside`.execute(trx);
        try {
          other.prepare("insert into beside values ('other')").run();
          otherWrote = true;
        } catch (err) {
          otherWrote = (err as Error).message;
        }
        await sql`insert into beside values ('hub')`.execute(trx);
      });
    } finally {
      other.close();
      await database.close();
    }
    // the hub's transaction held the write lock from its start: the other writer waited (here,
    // gave up), instead of the hub's write failing on a snapshot the other had made stale
    expect(otherWrote).toBe('database is locked');
    const check = new SQLite(path.join(dir, 'comanda.sqlite'), { readonly: true });
    expect(check.prepare('select who from beside').pluck().all()).toEqual(['hub']);
    check.close();
  });
});
