import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryDelaySeconds } from '../../server/domain/guest/dispatcher.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { freePort, join, openWaitlist, startSmsGateway, startSmtpSink, type SmtpSink } from './helpers.ts';

describe.each(DIALECTS)('waitlist notices through SMTP and the SMS gateway on %s', (dialect) => {
  let hub: TestHub;
  let smtp: SmtpSink;
  let sms: Awaited<ReturnType<typeof startSmsGateway>>;
  beforeAll(async () => {
    smtp = await startSmtpSink();
    sms = await startSmsGateway();
    hub = await startHub(dialect, {
      config: {
        mail: { smtp: { host: '127.0.0.1', port: smtp.port }, from: 'Test Bistro <noreply@bistro.test>', contactTo: 'hello@comanda.test' },
        sms: { url: sms.url, token: 'sms-secret' },
      },
    });
    await openWaitlist(hub);
  });
  afterAll(async () => {
    await hub?.close();
    await smtp?.close();
    await sms?.close();
  });

  it('sends an email notice over SMTP after commit and marks it sent', async () => {
    const { body } = await join(hub, { phone: undefined, email: 'mail@guest.test', guestName: 'Mia' });
    const id = body.token.split('.')[0];
    const r = await hub.api.post(`/v1/waitlist/${id}/notify`, { channel: 'email' });
    expect(r.status).toBe(200);
    await hub.server.scheduler.runNow('guest-messages');
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].to).toEqual(['<mail@guest.test>']);
    expect(smtp.mails[0].data).toContain('Subject: Your table at Test Bistro is ready');
    expect(smtp.mails[0].data).toContain('Hello Mia');
    const outbox = await hub.api.get('/v1/waitlist/messages?status=sent');
    expect(outbox.body.data[0]).toMatchObject({ waitlist_entry: id, channel: 'email', status: 'sent', attempts: 1, last_error: null });
  });

  it('sends an SMS through the HTTP gateway; the default channel is SMS when a phone was given', async () => {
    const { body } = await join(hub, { phone: '+49 30 44455566' });
    const id = body.token.split('.')[0];
    await hub.api.post(`/v1/waitlist/${id}/notify`, {});
    await hub.server.scheduler.runNow('guest-messages');
    expect(sms.received).toHaveLength(1);
    expect(sms.received[0]).toMatchObject({ to: '+493044455566', auth: 'Bearer sms-secret' });
    expect(sms.received[0].text).toContain('Test Bistro');
  });

  it("a sandbox party's notice is stored, never sent to its real phone", async () => {
    const sandbox = hub.api.withKey(hub.keys.sandbox);
    const w = await sandbox.post('/v1/waitlist', { guest_name: 'Test Tina', party_size: 2, phone: '+49 30 55566677' });
    expect(w.body.livemode).toBe(false);
    expect((await sandbox.post(`/v1/waitlist/${w.body.id}/notify`, { channel: 'sms' })).status).toBe(200);
    const before = sms.received.length;
    await hub.server.scheduler.runNow('guest-messages');
    expect(sms.received).toHaveLength(before);
    const msg = await hub.server.services.db.selectFrom('guest_messages').selectAll().where('waitlist_entry_id', '=', w.body.id).executeTakeFirstOrThrow();
    expect(msg).toMatchObject({ status: 'stored', channel: 'sms' });
  });
});

describe.each(DIALECTS)('a notice whose SMTP server is down on %s', (dialect) => {
  let hub: TestHub;
  let port: number;
  let smtp: SmtpSink | undefined;
  beforeAll(async () => {
    port = await freePort();
    hub = await startHub(dialect, { config: { mail: { smtp: { host: '127.0.0.1', port }, from: 'x@y.test', contactTo: 'hello@comanda.test' } } });
    await openWaitlist(hub);
  });
  afterAll(async () => {
    await hub?.close();
    await smtp?.close();
  });

  it('stays pending with growing backoff and goes out once the server is back', async () => {
    const { body } = await join(hub, { phone: undefined, email: 'late@guest.test' });
    const id = body.token.split('.')[0];
    await hub.api.post(`/v1/waitlist/${id}/notify`, { channel: 'email' });
    await hub.server.scheduler.runNow('guest-messages');
    let m = (await hub.api.get('/v1/waitlist/messages')).body.data[0];
    expect(m).toMatchObject({ status: 'pending', attempts: 1 });
    expect(m.last_error).toBeTruthy();
    expect(m.next_attempt_at).toBe(Math.floor(hub.clock.now() / 1000) + retryDelaySeconds(1));
    // not due yet: a run does not try again
    await hub.server.scheduler.runNow('guest-messages');
    expect((await hub.api.get('/v1/waitlist/messages')).body.data[0].attempts).toBe(1);
    hub.clock.advance(retryDelaySeconds(1) * 1000);
    await hub.server.scheduler.runNow('guest-messages');
    m = (await hub.api.get('/v1/waitlist/messages')).body.data[0];
    expect(m).toMatchObject({ status: 'pending', attempts: 2 });
    expect(m.next_attempt_at).toBe(Math.floor(hub.clock.now() / 1000) + retryDelaySeconds(2));
    smtp = await startSmtpSink(port);
    hub.clock.advance(retryDelaySeconds(2) * 1000);
    await hub.server.scheduler.runNow('guest-messages');
    m = (await hub.api.get('/v1/waitlist/messages')).body.data[0];
    expect(m).toMatchObject({ status: 'sent', attempts: 3 });
    expect(smtp.mails).toHaveLength(1);
  });

  it('backs off exponentially up to an hour and never gives up', () => {
    expect([1, 2, 3, 4].map(retryDelaySeconds)).toEqual([30, 60, 120, 240]);
    expect(retryDelaySeconds(50)).toBe(3600);
  });
});
