import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../helpers/db.ts';
import { countRows, startHub, type TestHub } from '../helpers/server.ts';
import { SessionClient } from './session-client.ts';

/** A line cook or a server with no email: made, edited and signed in by PIN on a trusted tablet. */
describe.each(DIALECTS)('staff without an email on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
  });
  afterAll(() => hub?.close());

  it('creates and edits people without an email, any number of them; the owner keeps one', async () => {
    const cook = await hub.api.post('/v1/staff', { name: 'Luca', role: 'kitchen' });
    expect(cook.status, JSON.stringify(cook.body)).toBe(201);
    expect(cook.body).toMatchObject({ name: 'Luca', email: null, role: 'kitchen' });
    // an empty field from a form means none, and two without an email do not collide
    const server = await hub.api.post('/v1/staff', { name: 'Sam', email: '', role: 'server' });
    expect(server.body).toMatchObject({ email: null });
    const withMail = await hub.api.post('/v1/staff', { name: 'Mia', email: 'Mia@Example.com', role: 'manager' });
    expect(withMail.body.email).toBe('mia@example.com');
    // an email given later, then taken away again
    expect((await hub.api.patch(`/v1/staff/${cook.body.id}`, { email: 'luca@example.com' })).body.email).toBe('luca@example.com');
    expect((await hub.api.patch(`/v1/staff/${cook.body.id}`, { email: null })).body.email).toBeNull();
    const listed = (await hub.api.get('/v1/staff?limit=100')).body.data.filter((s: any) => s.email === null).map((s: any) => s.name);
    expect(listed.sort()).toEqual(['Luca', 'Sam']);

    const before = await countRows(hub, 'users');
    const owner = await hub.api.post('/v1/staff', { name: 'Olga', role: 'owner' });
    expect(owner.status).toBe(400);
    expect(owner.body.error).toMatchObject({ code: 'parameter_missing', param: 'email' });
    expect((await hub.api.post('/v1/staff', { name: 'X', email: 'not an email' })).status).toBe(400);
    const taken = await hub.api.post('/v1/staff', { name: 'Y', email: 'mia@example.com' });
    expect(taken.body.error).toMatchObject({ code: 'resource_conflict', param: 'email' });
    expect(await countRows(hub, 'users')).toBe(before);
  });

  it('signs a PIN-only person in on a trusted tablet', async () => {
    const manager = await hub.api.post('/v1/staff', { name: 'Gia', email: 'gia@example.com', role: 'manager' });
    await hub.api.post(`/v1/staff/${manager.body.id}/password`, { password: 'manager password 1' });
    const cook = await hub.api.post('/v1/staff', { name: 'Paolo', role: 'server' });
    expect((await hub.api.post(`/v1/staff/${cook.body.id}/pin`, { pin: '4321' })).body.has_pin).toBe(true);
    const tablet = new SessionClient(hub.url, { 'x-forwarded-for': '192.168.1.61' });
    await tablet.request('POST', '/v1/auth/login', { email: 'gia@example.com', password: 'manager password 1' });
    expect((await tablet.request('POST', '/v1/auth/pin_device')).status).toBe(200);
    await tablet.request('POST', '/v1/auth/logout');
    expect((await tablet.request('GET', '/v1/auth/pin_staff')).body.data.map((s: any) => s.name)).toContain('Paolo');
    const signedIn = await tablet.request('POST', '/v1/auth/pin', { staff: cook.body.id, pin: '4321' });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.staff).toMatchObject({ id: cook.body.id, name: 'Paolo', email: null, role: 'server' });
    const me = await tablet.request('GET', '/v1/auth/session');
    expect(me.body.staff).toMatchObject({ name: 'Paolo', email: null });
    // the owner's list of signed-in devices shows the person
    const sessions = (await hub.api.get('/v1/sessions')).body.data.filter((s: any) => s.staff_user === cook.body.id);
    expect(sessions).toHaveLength(1);
    expect(sessions[0]).toMatchObject({ name: 'Paolo', email: null });
  });
});
