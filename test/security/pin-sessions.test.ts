import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { seedMenu, type Menu } from '../orders/fixtures.ts';
import { SessionClient } from '../service/session-client.ts';

/**
 * A PIN (4 digits, typed where guests watch, the one an owner types on a server's tablet to
 * approve a void) signs a person into service work only, and only on a service tablet a
 * manager trusted: never from a kitchen or expo screen's key, never into keys, staff,
 * settings, backups, devices or webhooks. Wrong PINs are limited per person across addresses;
 * a trusted tablet is listed and revocable, and revoking it ends the sessions opened on it.
 */
describe.each(DIALECTS)('staff PINs open service work only, on service tablets only (%s)', (dialect) => {
  let hub: TestHub;
  let menu: Menu;
  const staff: Record<string, string> = {};
  let grillKey: string;
  let expoKey: string;

  const pair = async (name: string, station?: string) => {
    const made = await hub.api.post('/v1/devices/pairing_codes', { name, ...(station && { station }) });
    const paired = await hub.api.withKey(null).post('/public/devices/pair', { code: made.body.code });
    expect(paired.status).toBe(201);
    return paired.body.key as string;
  };
  /** a tablet a manager trusted with their password, then signed out of */
  const trustedTablet = async (ip: string) => {
    const tablet = new SessionClient(hub.url, { 'x-forwarded-for': ip });
    expect((await tablet.request('POST', '/v1/auth/login', { email: 'mia@example.com', password: 'manager password 1' })).status).toBe(200);
    const trusted = await tablet.request('POST', '/v1/auth/pin_device', { name: 'Bar tablet' });
    expect(trusted.status, JSON.stringify(trusted.body)).toBe(200);
    await tablet.request('POST', '/v1/auth/logout');
    return { tablet, id: trusted.body.id as string };
  };

  beforeAll(async () => {
    hub = await startHub(dialect, { config: { trustedProxies: ['127.0.0.1'] } });
    menu = await seedMenu(hub);
    for (const [who, role, pin] of [['olga', 'owner', '1357'], ['mia', 'manager', '9753'], ['sam', 'server', '2468']] as const) {
      const r = await hub.api.post('/v1/staff', { name: who, email: `${who}@example.com`, role });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      staff[who] = r.body.id;
      await hub.api.post(`/v1/staff/${r.body.id}/password`, { password: `${role} password 1` });
      expect((await hub.api.post(`/v1/staff/${r.body.id}/pin`, { pin })).body.has_pin).toBe(true);
    }
    grillKey = await pair('Grill', 'grill');
    expoKey = await pair('Pass');
  });
  afterAll(() => hub?.close());

  it('a kitchen or expo screen’s key neither lists the staff nor signs anyone in', async () => {
    for (const key of [grillKey, expoKey]) {
      const screen = hub.api.withKey(key);
      const listed = await screen.get('/v1/auth/pin_staff');
      expect(listed.status).toBe(403);
      expect(listed.body.error.code).toBe('insufficient_scope');
      const owner = await screen.post('/v1/auth/pin', { staff: staff.olga, pin: '1357' });
      expect(owner.status).toBe(403);
      expect(owner.headers.get('set-cookie') ?? '').not.toContain('comanda_session');
    }
  });

  it('the owner’s PIN on a service tablet opens service work, none of the owner’s back office', async () => {
    const { tablet } = await trustedTablet('192.168.1.70');
    const signedIn = await tablet.request('POST', '/v1/auth/pin', { staff: staff.olga, pin: '1357' });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body).toMatchObject({ role: 'owner', via: 'pin' });
    expect(signedIn.body.scopes).toEqual(expect.arrayContaining(['orders:write', 'payments:write', 'tables:read']));
    for (const s of signedIn.body.scopes) expect(s).not.toMatch(/^(api_keys|staff|webhooks|backups):|^settings:write$|^payments:manage$/);

    const keysBefore = await countRows(hub, 'api_keys');
    for (const [method, path, body] of [
      ['POST', '/v1/api_keys', { name: 'mine', scopes: ['orders:read'] }],
      ['GET', '/v1/api_keys', undefined],
      ['GET', '/v1/staff', undefined],
      ['POST', '/v1/staff', { name: 'Eve', email: 'eve@example.com', role: 'owner' }],
      ['POST', `/v1/staff/${staff.sam}/pin`, { pin: '1111' }],
      ['PATCH', '/v1/settings', { name: 'Pwned' }],
      ['GET', '/v1/settings/backups', undefined],
      ['PATCH', '/v1/settings/backups', { enabled: false }],
      ['GET', '/v1/system/backups', undefined],
      ['POST', '/v1/devices/pairing_codes', { name: 'Mine' }],
      ['GET', '/v1/devices/service_tablets', undefined],
      ['GET', '/v1/webhook_endpoints', undefined],
      ['POST', '/v1/webhook_endpoints', { url: 'https://example.com/hook', enabled_events: ['order.created'] }],
      // nor can the PIN session trust another tablet
      ['POST', '/v1/auth/pin_device', {}],
    ] as const) {
      const r = await tablet.request(method, path, body);
      expect(r.status, `${method} ${path} ${JSON.stringify(r.body)}`).toBe(403);
    }
    expect(await countRows(hub, 'api_keys')).toBe(keysBefore);

    // service work goes on
    const order = await tablet.request('POST', '/v1/orders', { type: 'dine_in', items: [{ menu_item: menu.pasta, quantity: 1 }] });
    expect(order.status, JSON.stringify(order.body)).toBe(201);
    expect((await tablet.request('GET', '/v1/tables')).status).toBe(200);

    // the same owner signed in with the password has the back office
    const office = new SessionClient(hub.url, { 'x-forwarded-for': '192.168.1.71' });
    const full = await office.request('POST', '/v1/auth/login', { email: 'olga@example.com', password: 'owner password 1' });
    expect(full.body).toMatchObject({ via: 'password' });
    expect(full.body.scopes).toContain('api_keys:write');
    expect((await office.request('GET', '/v1/api_keys')).status).toBe(200);
  });

  it('a manager’s PIN typed to approve a void opens no session', async () => {
    const { tablet } = await trustedTablet('192.168.1.72');
    await tablet.request('POST', '/v1/auth/pin', { staff: staff.sam, pin: '2468' });
    const order = await tablet.request('POST', '/v1/orders', { type: 'dine_in', items: [{ menu_item: menu.pasta, quantity: 1 }] });
    await tablet.request('PATCH', `/v1/orders/${order.body.id}`, { status: 'placed' });
    const sessions = await countRows(hub, 'staff_sessions');
    const voided = await tablet.request('POST', `/v1/orders/${order.body.id}/items/0/void`, { reason: 'guest changed mind', manager_pin: '9753' });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(await countRows(hub, 'staff_sessions')).toBe(sessions);
    expect((await tablet.request('GET', '/v1/auth/session')).body.staff.id).toBe(staff.sam);
  });

  it('wrong PINs are limited per person, whichever addresses they come from', async () => {
    const { tablet } = await trustedTablet('192.168.1.73');
    const cookie = [...tablet.cookies].filter(([k]) => k === 'comanda_pin_device');
    const from = (n: number) => {
      const c = new SessionClient(hub.url, { 'x-forwarded-for': `10.0.${n}.9` });
      c.cookies = new Map(cookie);
      return c;
    };
    let limitedAt = -1;
    for (let i = 0; i < 20 && limitedAt < 0; i++) {
      const r = await from(i).request('POST', '/v1/auth/pin', { staff: staff.mia, pin: String(1000 + i) });
      if (r.status === 429) limitedAt = i;
      else expect(r.status).toBe(401);
    }
    // each address tried once: only the per-person count can have stopped it
    expect(limitedAt).toBeGreaterThan(0);
    expect(limitedAt).toBeLessThanOrEqual(10);
    expect((await from(99).request('POST', '/v1/auth/pin', { staff: staff.mia, pin: '9753' })).status).toBe(429);
    // someone else's PIN is not held back by it
    expect((await from(98).request('POST', '/v1/auth/pin', { staff: staff.sam, pin: '2468' })).status).toBe(200);
  });

  it('a service tablet is listed and revocable; revoking it ends the PIN sessions opened on it', async () => {
    const { tablet, id } = await trustedTablet('192.168.1.74');
    expect((await tablet.request('POST', '/v1/auth/pin', { staff: staff.sam, pin: '2468' })).status).toBe(200);
    expect((await tablet.request('GET', '/v1/auth/session')).status).toBe(200);
    // a copy of the tablet's cookie elsewhere on the LAN
    const copy = new SessionClient(hub.url, { 'x-forwarded-for': '192.168.1.99' });
    copy.cookies = new Map([...tablet.cookies].filter(([k]) => k === 'comanda_pin_device'));
    expect((await copy.request('GET', '/v1/auth/pin_staff')).status).toBe(200);

    const listed = await hub.api.get('/v1/devices/service_tablets');
    expect(listed.status).toBe(200);
    const mine = listed.body.data.find((t: any) => t.id === id);
    expect(mine).toMatchObject({ object: 'service_tablet', name: 'Bar tablet', trusted_by: staff.mia, revoked_at: null });
    const sessions = (await hub.api.get('/v1/sessions')).body.data.filter((s: any) => s.staff_user === staff.sam && s.via === 'pin');
    expect(sessions.length).toBeGreaterThan(0);

    const revoked = await hub.api.delete(`/v1/devices/service_tablets/${id}`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.revoked_at).not.toBeNull();
    expect((await tablet.request('GET', '/v1/auth/session')).status).toBe(401);
    expect((await tablet.request('GET', '/v1/auth/pin_staff')).status).toBe(401);
    expect((await copy.request('GET', '/v1/auth/pin_staff')).status).toBe(401);
    expect((await copy.request('POST', '/v1/auth/pin', { staff: staff.sam, pin: '2468' })).status).toBe(401);
    expect((await hub.api.delete('/v1/devices/service_tablets/tab_nope')).status).toBe(404);
  });
});
