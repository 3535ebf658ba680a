import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHub, type TestHub } from '../helpers/server.ts';
import { SessionClient } from '../service/session-client.ts';

/**
 * Issue 40, item 10: on the hub, a server's or cook's password session (settings:read, for the
 * venue's hours and taxes) does not read the hub's machinery: the masked mail settings, the paired
 * screens, the backup folder and its files, nor the backup part of the system health. A manager
 * and the owner do. Backups are a SQLite hub's with a data folder, so this runs on SQLite only.
 */
describe('servers and cooks do not read the mail settings, the screens or the backup folder', () => {
  let hub: TestHub;
  let dataDir: string;
  const sessions: Record<string, SessionClient> = {};

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'comanda-floor-'));
    hub = await startHub('sqlite', {
      dataDir,
      config: { dataDir, backups: { enabled: true, dir: 'backups', keepDays: 14, schedule: '0 30 4 * * *' }, mail: { smtp: null, from: 'hub <hub@x.test>', contactTo: 'owner@x.test' } },
    });
    // something in each: a mail server, a paired screen, a backup file
    expect((await hub.api.patch('/v1/settings/notifications', { smtp: { host: 'mail.example.com', port: 465, secure: true, user: 'owner', pass: 'smtp-secret-1' } })).status).toBe(200);
    const code = await hub.api.post('/v1/devices/pairing_codes', { name: 'Grill' });
    expect((await hub.api.withKey(null).post('/public/devices/pair', { code: code.body.code })).status).toBe(201);
    expect((await hub.api.post('/v1/system/backups')).status).toBe(201);
    // and a sync conflict holding a guest's details, as a merge of two customers lists it
    await (hub.server.services.db as any)
      .insertInto('sync_conflicts')
      .values({ id: 'sconf_floor1', restaurant_id: hub.restaurant.id, kind: 'customer_contact', table_name: 'customers', row_ids: '["cus_1"]', detail: JSON.stringify({ email: 'ada.guest@example.com', phone: '+34 600 111 222' }), resolved_at: null, created: 1 })
      .execute();
    for (const [who, role] of [['sam', 'server'], ['kai', 'cook'], ['mia', 'manager']] as const) {
      const made = await hub.api.post('/v1/staff', { name: who, email: `${who}@example.com`, role });
      expect(made.status, JSON.stringify(made.body)).toBe(201);
      expect((await hub.api.post(`/v1/staff/${made.body.id}/password`, { password: `${role} password 1` })).status).toBe(200);
      sessions[who] = new SessionClient(hub.url);
      expect((await sessions[who].request('POST', '/v1/auth/login', { email: `${who}@example.com`, password: `${role} password 1` })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await hub?.close();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(['sam', 'kai'])('%s (server, cook): refused the machinery, the health without its backup part, the venue’s settings still read', async (who) => {
    const s = sessions[who];
    for (const p of ['/v1/settings/notifications', '/v1/devices', '/v1/system/backups', '/v1/settings/backups']) {
      const r = await s.request('GET', p);
      expect(r.status, `${p} ${JSON.stringify(r.body)}`).toBe(403);
      expect(r.body.error.code).toBe('insufficient_scope');
      expect(JSON.stringify(r.body)).not.toMatch(/mail\.example\.com|Grill|comanda-.*\.sqlite|backups/);
    }
    const health = await s.request('GET', '/v1/system/health');
    expect(health.status).toBe(200);
    expect(health.body.backups).toBeNull();
    expect(JSON.stringify(health.body)).not.toContain(dataDir);
    expect((await s.request('GET', '/v1/settings')).status).toBe(200);
    // the sync status says there is a conflict and of what kind, without the guest's details
    const sync = await s.request('GET', '/v1/sync/status');
    expect(sync.status).toBe(200);
    expect(sync.body.conflicts).toEqual([expect.objectContaining({ id: 'sconf_floor1', kind: 'customer_contact', detail: null })]);
    expect(JSON.stringify(sync.body)).not.toMatch(/ada\.guest|600 111/);
  });

  it('a manager reads them all, the backup folder and its last file included', async () => {
    const s = sessions.mia;
    for (const p of ['/v1/settings/notifications', '/v1/devices', '/v1/system/backups', '/v1/settings/backups']) expect((await s.request('GET', p)).status, p).toBe(200);
    const health = await s.request('GET', '/v1/system/health');
    expect(health.body.backups).toMatchObject({ dir: path.join(dataDir, 'backups'), last_file: expect.stringMatching(/\.sqlite/) });
    expect((await s.request('GET', '/v1/sync/status')).body.conflicts[0].detail).toEqual({ email: 'ada.guest@example.com', phone: '+34 600 111 222' });
  });
});
