import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';

describe.each(DIALECTS)('system API on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect, { config: { mail: { smtp: null, from: 'hub <hub@x.test>', contactTo: 'owner@x.test' } } });
  });
  afterAll(() => hub.close());

  it('GET /v1/system/health: addresses tablets can reach (never 0.0.0.0), printers and sync at a glance', async () => {
    const r = await hub.api.get('/v1/system/health');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      object: 'system_health',
      role: 'hub',
      dialect,
      public_url: 'http://127.0.0.1:8080',
      pair_url: 'http://127.0.0.1:8080/screens/pair',
      printers: { total: 0, online: 0, offline: 0, needs_attention: 0, unknown: 0, switched_off: 0 },
      sync: { linked: false, connected: false, last_synced_at: null, last_error: null, resync: false },
    });
    expect(r.body.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(r.body.urls).toEqual([hub.url]);
    // backups are the SQLite hub's with a data dir; this one runs without one
    expect(r.body.backups).toBeNull();
    expect((await hub.api.get('/v1/system/health', { key: null })).status).toBe(401);
  });

  it('a printer set up but switched off is counted apart, so Today does not say none is set up', async () => {
    const made = await hub.api.post('/v1/printers', { name: 'Bar', transport: { type: 'tcp', host: '127.0.0.1', port: 9100 }, is_active: false });
    expect(made.status).toBe(201);
    try {
      const r = await hub.api.get('/v1/system/health');
      expect(r.body.printers).toMatchObject({ total: 0, switched_off: 1 });
    } finally {
      await hub.api.delete(`/v1/printers/${made.body.id}`);
    }
  });

  it('mail and SMS credentials: set through the API, stored sealed, answered masked, used by the outbox at once', async () => {
    const empty = await hub.api.get('/v1/settings/notifications');
    expect(empty.body).toEqual({
      object: 'notification_settings',
      email: { configured: false, source: null, from: 'hub <hub@x.test>', smtp: null },
      sms: { configured: false, source: null, url: null, token: null },
      unreadable_secrets: [],
    });

    const set = await hub.api.patch('/v1/settings/notifications', {
      smtp: { host: 'smtp.example.com', port: 587, user: 'owner', pass: 'correct-horse-battery' },
      from: 'Trattoria <noreply@trattoria.test>',
      sms: { url: 'https://sms.example.test/send', token: 'sms-token-0123456789' },
    });
    expect(set.status).toBe(200);
    expect(set.body.email).toEqual({
      configured: true,
      source: 'settings',
      from: 'Trattoria <noreply@trattoria.test>',
      smtp: { host: 'smtp.example.com', port: 587, secure: false, user: 'owner', pass: '••••ry' },
    });
    expect(set.body.sms).toEqual({ configured: true, source: 'settings', url: 'https://sms.example.test/send', token: '••••89' });
    const text = JSON.stringify(set.body) + JSON.stringify((await hub.api.get('/v1/settings/notifications')).body);
    expect(text).not.toContain('correct-horse-battery');
    expect(text).not.toContain('sms-token-0123456789');

    // at rest: sealed, not readable in the database (or in a backup of it)
    const row = await hub.server.services.db.selectFrom('hub_settings').select('value').executeTakeFirstOrThrow();
    expect(row.value).not.toContain('correct-horse-battery');
    expect(row.value).not.toContain('sms-token-0123456789');
    expect(JSON.parse(row.value).smtp.pass).toMatch(/^v1\./);

    // the outbox sends with them from now on
    expect(hub.server.services.guest!.dispatcher.transports).toEqual({ email: true, sms: true });

    // a change of the same server without the secret keeps it; null takes it away; null switches a transport off
    const renamed = await hub.api.patch('/v1/settings/notifications', { smtp: { host: 'SMTP.example.com', port: 587, user: 'owner2' } });
    expect(renamed.body.email.smtp).toEqual({ host: 'SMTP.example.com', port: 587, secure: false, user: 'owner2', pass: '••••ry' });
    const moved = await hub.api.patch('/v1/settings/notifications', { smtp: { host: 'mail.example.com', port: 465, secure: true, user: 'owner', pass: 'new-server-pass' } });
    expect(moved.body.email.smtp).toEqual({ host: 'mail.example.com', port: 465, secure: true, user: 'owner', pass: '••••ss' });
    const noPass = await hub.api.patch('/v1/settings/notifications', { smtp: { host: 'mail.example.com', port: 465, secure: true, pass: null } });
    expect(noPass.body.email.smtp.pass).toBeNull();
    const off = await hub.api.patch('/v1/settings/notifications', { sms: null });
    expect(off.body.sms).toEqual({ configured: false, source: 'settings', url: null, token: null });
    expect(hub.server.services.guest!.dispatcher.transports).toEqual({ email: true, sms: false });

    // bad input: a clear 400 naming the field, nothing stored
    const before = (await hub.server.services.db.selectFrom('hub_settings').select('value').executeTakeFirstOrThrow()).value;
    for (const [body, param] of [
      [{ smtp: { host: 'h', port: 70000 } }, 'smtp.port'],
      [{ sms: { url: 'ftp://x' } }, 'sms.url'],
      [{ from: 'x' }, 'from'],
    ] as const) {
      const bad = await hub.api.patch('/v1/settings/notifications', body);
      expect(bad.status).toBe(400);
      expect(bad.body.error.param).toBe(param);
    }
    expect((await hub.server.services.db.selectFrom('hub_settings').select('value').executeTakeFirstOrThrow()).value).toBe(before);
  });

  it('a stored mail password or SMS token never follows a changed address: the change is refused without the secret given again', async () => {
    const db = hub.server.services.db;
    const stored = async () => (await db.selectFrom('hub_settings').select('value').where('name', '=', 'notification_transports').executeTakeFirstOrThrow()).value;
    await hub.api.patch('/v1/settings/notifications', {
      smtp: { host: 'smtp.example.com', port: 587, user: 'owner', pass: 'correct-horse-battery' },
      sms: { url: 'https://sms.example.test/send', token: 'sms-token-0123456789' },
    });
    const before = await stored();
    for (const [body, param] of [
      [{ smtp: { host: 'smtp.attacker.test', port: 587, user: 'owner' } }, 'smtp.pass'],
      [{ smtp: { host: 'smtp.example.com', port: 2525, user: 'owner' } }, 'smtp.pass'],
      // TLS switched off: the password would cross the network in the clear
      [{ smtp: { host: 'smtp.example.com', port: 587, secure: true, user: 'owner' } }, 'smtp.pass'],
      [{ sms: { url: 'https://sms.attacker.test/send' } }, 'sms.token'],
      [{ sms: { url: 'https://sms.example.test/send?copy=evil' } }, 'sms.token'],
    ] as const) {
      const r = await hub.api.patch('/v1/settings/notifications', body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'parameter_missing', param });
    }
    expect(await stored()).toBe(before);
    // the secret given again, or taken away, with the new address: done
    const moved = await hub.api.patch('/v1/settings/notifications', { sms: { url: 'https://sms2.example.test/send', token: null } });
    expect(moved.body.sms).toMatchObject({ url: 'https://sms2.example.test/send', token: null });
    const again = await hub.api.patch('/v1/settings/notifications', { smtp: { host: 'smtp2.example.com', port: 465, secure: true, user: 'owner', pass: 'second-server-pw' } });
    expect(again.body.email.smtp).toMatchObject({ host: 'smtp2.example.com', pass: '••••pw' });
  });

  it("the cloud's transports come from its environment, not from a restaurant's key", async () => {
    const cloud = await startHub(dialect, {
      config: {
        role: 'cloud',
        mail: { smtp: { host: 'smtp.operator.internal', port: 587, user: 'ops-mailer', pass: 'operator-smtp-secret' }, from: 'Comanda <no-reply@comanda.test>', contactTo: 'ops@comanda.test' },
        sms: { url: 'https://sms.operator.internal/v1/send', token: 'operator-sms-token-42' },
      },
    });
    try {
      const r = await cloud.api.patch('/v1/settings/notifications', { sms: null });
      expect(r.status).toBe(409);
      expect(r.body.error.code).toBe('state_conflict');
      // a tenant learns that mail and SMS work, not the operator's servers, accounts or secrets' ends
      const seen = await cloud.api.get('/v1/settings/notifications');
      expect(seen.status).toBe(200);
      expect(seen.body).toEqual({
        object: 'notification_settings',
        email: { configured: true, source: 'config', from: 'Comanda <no-reply@comanda.test>', smtp: null },
        sms: { configured: true, source: 'config', url: null, token: null },
        unreadable_secrets: [],
      });
      for (const secretish of ['operator.internal', 'ops-mailer', '••••']) expect(JSON.stringify(seen.body)).not.toContain(secretish);
    } finally {
      await cloud.close();
    }
  });
});
