import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUEST_LANGS } from '../../server/domain/guest/lang.ts';
import { buildNotice } from '../../server/domain/waitlist/notice.ts';
import { DIALECTS } from '../helpers/db.ts';
import { startHub, type TestHub } from '../helpers/server.ts';
import { counts, nextPhone, openWaitlist, solvedCaptcha } from './helpers.ts';

describe('waitlist notice texts', () => {
  it('speak en, de, fr, es and it, each with the party, the venue and the minutes', () => {
    const facts = { guestName: 'Ada', partySize: 4, restaurantName: 'Trattoria', minutes: 15 };
    const notices = GUEST_LANGS.map((l) => buildNotice(l, facts));
    expect(new Set(notices.map((n) => n.body)).size).toBe(GUEST_LANGS.length);
    expect(new Set(notices.map((n) => n.subject)).size).toBe(GUEST_LANGS.length);
    for (const n of notices) {
      for (const part of ['Ada', '4', 'Trattoria', '15']) expect(n.body).toContain(part);
      expect(n.subject).toContain('Trattoria');
    }
    expect(buildNotice('de', facts).body).toContain('innerhalb von 15 Minuten');
  });
});

describe.each(DIALECTS)('waitlist notices in the party’s language on %s', (dialect) => {
  let hub: TestHub;
  beforeAll(async () => {
    hub = await startHub(dialect);
    await openWaitlist(hub, hub.api, { notify_expiry_minutes: 15 });
  });
  afterAll(() => hub?.close());

  const join = async (body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    hub.api.post(
      `/public/restaurants/${hub.restaurant.slug}/waitlist/join`,
      { guestName: 'Lena', partySize: 2, phone: nextPhone(), consent: true, captchaToken: await solvedCaptcha(hub), ...body },
      { key: null, headers },
    );
  const notice = async (id: string) => {
    expect((await hub.api.post(`/v1/waitlist/${id}/notify`, { channel: 'sms' })).status).toBe(200);
    return hub.server.services.db.selectFrom('guest_messages').selectAll().where('waitlist_entry_id', '=', id).orderBy('created', 'desc').executeTakeFirstOrThrow();
  };
  const idOf = (r: { body: { token: string } }) => r.body.token.split('.')[0];

  it("the browser's Accept-Language decides when the join names no language", async () => {
    const r = await join({}, { 'accept-language': 'de-AT,de;q=0.9,en;q=0.8' });
    expect(r.status).toBe(201);
    const entry = await hub.api.get(`/v1/waitlist/${idOf(r)}`);
    expect(entry.body.lang).toBe('de');
    const msg = await notice(idOf(r));
    expect(msg).toMatchObject({ lang: 'de', channel: 'sms' });
    expect(msg.body).toBe(`Hallo Lena, Ihr Tisch für 2 bei Test Bistro ist bereit. Bitte kommen Sie innerhalb von 15 Minuten zum Empfang.`);
  });

  it('a lang in the body wins; one not offered (or none at all) means English', async () => {
    const fr = await join({ lang: 'fr-CH' }, { 'accept-language': 'de' });
    expect((await notice(idOf(fr))).body).toMatch(/^Bonjour Lena, votre table pour 2 chez Test Bistro est prête/);
    const pt = await join({ lang: 'pt-BR' }, { 'accept-language': 'de' });
    expect(await notice(idOf(pt))).toMatchObject({ lang: 'en' });
    const none = await join({}, { 'accept-language': 'pt-BR, ja' });
    expect((await notice(idOf(none))).body).toMatch(/^Hello Lena, your table for 2 at Test Bistro is ready/);
  });

  it('staff give a walk-in its language; email notices carry the subject in it', async () => {
    const w = await hub.api.post('/v1/waitlist', { guest_name: 'Giulia', party_size: 3, email: 'giulia@example.org', lang: 'it' });
    expect(w.status).toBe(201);
    expect(w.body.lang).toBe('it');
    expect((await hub.api.post(`/v1/waitlist/${w.body.id}/notify`, { channel: 'email' })).status).toBe(200);
    const msg = await hub.server.services.db.selectFrom('guest_messages').selectAll().where('waitlist_entry_id', '=', w.body.id).executeTakeFirstOrThrow();
    expect(msg).toMatchObject({ lang: 'it', subject: 'Il suo tavolo da Test Bistro è pronto' });
  });

  it('refuses a lang that is not a language tag, writing nothing', async () => {
    const before = await counts(hub, ['waitlist_entries', 'events', 'change_log', 'customers']);
    for (const lang of ['', 'd', 'de DE', '<script>', 'x'.repeat(40), 42]) {
      const r = await join({ lang });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatchObject({ code: 'parameter_invalid', param: 'lang' });
    }
    const walk = await hub.api.post('/v1/waitlist', { guest_name: 'X', party_size: 2, lang: 'english please' });
    expect(walk.status).toBe(400);
    expect(walk.body.error.param).toBe('lang');
    expect(await counts(hub, ['waitlist_entries', 'events', 'change_log', 'customers'])).toEqual(before);
  });
});
