import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContactMail } from '../../server/domain/contact/contact-mail.ts';
import { guestLang } from '../../server/domain/guest/lang.ts';
import { guestOf } from '../../server/http/guest-services.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { counts, freePort, solvedCaptcha, startSmtpSink, type SmtpSink } from './helpers.ts';

const form = (captchaToken: string, extra: Record<string, unknown> = {}) => ({
  name: 'Luca Rossi',
  email: 'luca@trattoria.test',
  restaurantName: 'Trattoria Luca',
  message: 'We would like a demo.',
  captchaToken,
  lang: 'it',
  ...extra,
});

describe('contact mail texts', () => {
  it('speaks en, de, fr, es and it; anything else is English', () => {
    expect(['de', 'DE', 'de-AT', 'fr_CH', 'es', 'it', 'en'].map(guestLang)).toEqual(['de', 'de', 'de', 'fr', 'es', 'it', 'en']);
    expect([undefined, null, '', 'pt', 'xx-YY', 'klingon'].map(guestLang)).toEqual(['en', 'en', 'en', 'en', 'en', 'en']);
    const subjects = ['en', 'de', 'fr', 'es', 'it'].map((lang) => buildContactMail({ name: 'N', email: 'e@x.test', message: 'm', lang }).subject);
    expect(new Set(subjects).size).toBe(5);
    expect(buildContactMail({ name: 'N', email: 'e@x.test', message: 'm', lang: 'de' }).text).toContain('Nachricht:\nm');
  });
});

describe.each(DIALECTS)('contact form on %s', (dialect) => {
  let hub: TestHub;
  let smtp: SmtpSink | undefined;
  let port: number;
  const WRITES = ['guest_messages'];
  beforeAll(async () => {
    port = await freePort();
    // trusted proxy: the test can play callers from different addresses through X-Forwarded-For
    hub = await startHub(dialect, {
      config: {
        trustedProxies: ['127.0.0.1'],
        mail: { smtp: { host: '127.0.0.1', port }, from: 'comanda <noreply@comanda.test>', contactTo: 'hello@comanda.test' },
      },
    });
    // a lighter proof of work keeps the solver quick under test
    guestOf(hub.server.services).captchaMaxNumber = 2000;
  });
  afterAll(async () => {
    await hub?.close();
    await smtp?.close();
  });
  const as = (ip: string) => ({ key: null, headers: { 'x-forwarded-for': ip } });

  it('accepts a solved challenge once; mail waits in the queue while SMTP is down and goes out later', async () => {
    const token = await solvedCaptcha(hub, as('203.0.113.7').headers);
    const r = await hub.api.post('/public/contact', form(token), as('203.0.113.7'));
    expect(r.status).toBe(202);
    expect(r.body).toMatchObject({ object: 'contact_request', status: 'queued', lang: 'it' });
    await hub.server.scheduler.runNow('guest-messages');
    const queued = await hub.server.services.db.selectFrom('guest_messages').selectAll().where('id', '=', r.body.id).executeTakeFirstOrThrow();
    expect(queued).toMatchObject({ status: 'pending', attempts: 1, recipient: 'hello@comanda.test', reply_to: 'luca@trattoria.test', lang: 'it' });
    expect(queued.subject).toContain('Nuova richiesta di contatto');

    // replaying the same token is refused, before anything is queued
    const before = await counts(hub, WRITES);
    const replay = await hub.api.post('/public/contact', form(token), as('203.0.113.7'));
    expect(replay.status).toBe(400);
    expect(replay.body.error.code).toBe('captcha_invalid');
    expect(replay.body.error.message).toContain('already used');
    expect(await counts(hub, WRITES)).toEqual(before);

    smtp = await startSmtpSink(port);
    hub.clock.advance(60_000);
    await hub.server.scheduler.runNow('guest-messages');
    expect(smtp.mails).toHaveLength(1);
    expect(smtp.mails[0].to).toEqual(['<hello@comanda.test>']);
    expect(smtp.mails[0].data).toMatch(/Reply-To: luca@trattoria\.test/i);
    expect(smtp.mails[0].data).toContain('Trattoria Luca');
    const sent = await hub.server.services.db.selectFrom('guest_messages').select(['status', 'attempts']).where('id', '=', r.body.id).executeTakeFirstOrThrow();
    expect(sent).toEqual({ status: 'sent', attempts: 2 });
  });

  it('refuses missing, malformed, wrongly solved, other-IP and expired tokens before any mail is built', async () => {
    const mine = await solvedCaptcha(hub, as('198.51.100.1').headers);
    const decoded = JSON.parse(Buffer.from(mine, 'base64').toString());
    const wrong = Buffer.from(JSON.stringify({ ...decoded, number: decoded.number + 1 })).toString('base64');
    const forged = Buffer.from(JSON.stringify({ ...decoded, signature: 'f'.repeat(64) })).toString('base64');
    // shapes that make altcha's verifier itself throw: refused as tokens, never a 500
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64');
    const misshapen = [
      b64({ ...decoded, algorithm: 'FOO' }),
      b64({ ...decoded, salt: 5 }),
      b64({ ...decoded, number: String(decoded.number) }),
      b64({ ...decoded, signature: null }),
      b64([decoded]),
      b64(null),
      b64('abc'),
    ];
    const before = await counts(hub, WRITES);
    const cases: [Record<string, unknown>, string, string][] = [
      [form(mine, { captchaToken: undefined }), '198.51.100.1', 'parameter_missing'],
      [form(mine, { captchaToken: '' }), '198.51.100.1', 'parameter_invalid'],
      [form(mine, { captchaToken: 'not base64 json' }), '198.51.100.1', 'captcha_invalid'],
      [form(wrong), '198.51.100.1', 'captcha_invalid'],
      [form(forged), '198.51.100.1', 'captcha_invalid'],
      ...misshapen.map((t): [Record<string, unknown>, string, string] => [form(t), '198.51.100.1', 'captcha_invalid']),
      [form(mine), '198.51.100.2', 'captcha_invalid'],
      [form(mine, { email: 'nope' }), '198.51.100.1', 'parameter_invalid'],
      [form(mine, { name: '' }), '198.51.100.1', 'parameter_invalid'],
      [form(mine, { message: undefined }), '198.51.100.1', 'parameter_missing'],
      [form(mine, { message: 'm'.repeat(5001) }), '198.51.100.1', 'parameter_invalid'],
    ];
    for (const [body, ip, code] of cases) {
      const r = await hub.api.post('/public/contact', body, as(ip));
      expect(r.status, JSON.stringify(r.body)).toBe(400);
      expect(r.body.error.code).toBe(code);
    }
    expect(await counts(hub, WRITES)).toEqual(before);

    // the token survived all of that (nothing redeemed it) but expires after ten minutes
    hub.clock.advance(10 * 60_000);
    const late = await hub.api.post('/public/contact', form(mine), as('198.51.100.1'));
    expect(late.status).toBe(400);
    expect(late.body.error.message).toContain('expired');
    expect(await counts(hub, WRITES)).toEqual(before);
  });

  it('falls back to English for an unknown language', async () => {
    const token = await solvedCaptcha(hub, as('192.0.2.9').headers);
    const r = await hub.api.post('/public/contact', form(token, { lang: 'tlh' }), as('192.0.2.9'));
    expect(r.status).toBe(202);
    expect(r.body.lang).toBe('en');
  });
});
