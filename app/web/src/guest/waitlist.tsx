import { useEffect, useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import type { components } from '../lib/api.gen.ts';
import { GET, POST } from '../lib/client.ts';
import { language, t } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';
import { withBotCheck } from './bot-check.ts';
import { guestLanguage } from './language.ts';
import { showCurrentSlug } from './slug.ts';

interface JoinPage {
  restaurant: { name: string; slug: string };
  isOpen: boolean;
  maxPartySize: number;
  message: string | null;
  waitingParties: number;
  estimatedWaitMinutes: number;
}
interface Status {
  token?: string;
  status: components['schemas']['WaitlistStatus']['status'];
  guestName: string;
  partySize: number;
  position: number | null;
  partiesAhead: number | null;
  estimatedWaitMinutes: number | null;
  restaurant: { name: string } | string | null;
}

/** /r/<slug>/waitlist: join the queue from the phone. */
export function WaitlistJoin({ slug }: { slug: string }) {
  const [page, setPage] = useState<JoinPage | null>(null);
  const [missing, setMissing] = useState<'unknown' | 'off' | false>(false);
  const [form, setForm] = useState({ guestName: '', partySize: '2', phone: '', email: '', consent: false });
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    guestLanguage(undefined);
    GET('/public/restaurants/{slug}/waitlist', { path: { slug } }).then((p) => {
      setPage(p);
      showCurrentSlug(slug, p.restaurant.slug);
    }, (err) =>
      // switched off by the venue is "closed", not "no such page"
      setMissing(err instanceof ApiFailure && ['WAITLIST_DISABLED', 'WAITLIST_NOT_IN_PLAN'].includes(err.code) ? 'off' : 'unknown'),
    );
  }, [slug]);
  if (missing === 'off') return <main class="guest"><h1>{t('wl.title')}</h1><p class="guest-banner">{t('wl.switchedOff')}</p></main>;
  if (missing) return <main class="guest"><h1>{t('wl.unavailable')}</h1></main>;
  if (!page) return <main class="guest"><p>{t('kds.loading')}</p></main>;
  const set = (k: keyof typeof form, v: string | boolean) => setForm({ ...form, [k]: v });
  const join = async (e: Event) => {
    e.preventDefault();
    if (!form.phone.trim() && !form.email.trim()) return setError(t('wl.contactHint'));
    setBusy(true);
    setError(null);
    try {
      const r = await withBotCheck((captchaToken) =>
        POST('/public/restaurants/{slug}/waitlist/join', { path: { slug }, body: {
          guestName: form.guestName.trim(),
          partySize: Number(form.partySize),
          ...(form.phone.trim() ? { phone: form.phone.trim() } : {}),
          ...(form.email.trim() ? { email: form.email.trim() } : {}),
          consent: form.consent,
          lang: language.value,
          ...(captchaToken ? { captchaToken } : {}),
        } }),
      );
      location.assign(`/waitlist/${r.token}`);
    } catch (err) {
      setError(err instanceof ApiFailure ? err.message : String(err));
      setBusy(false);
    }
  };
  return (
    <main class="guest">
      <header class="guest-head">
        <h1>{page.restaurant.name}</h1>
        <p>{t('wl.title')}</p>
      </header>
      {page.message ? <p class="guest-card">{page.message}</p> : null}
      {!page.isOpen ? (
        <p class="guest-banner">{t('wl.closed')}</p>
      ) : (
        <p class="wl-now">{t('wl.now', { n: page.waitingParties, min: page.estimatedWaitMinutes })}</p>
      )}
      <form onSubmit={join} class="guest-form">
        <div class="field">
          <label for="wl-name">{t('wl.name')}</label>
          <input id="wl-name" required maxLength={200} autoComplete="name" value={form.guestName} onInput={(e) => set('guestName', (e.target as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label for="wl-party">{t('wl.party', { max: page.maxPartySize })}</label>
          <input id="wl-party" type="number" inputMode="numeric" min={1} max={page.maxPartySize} required value={form.partySize} onInput={(e) => set('partySize', (e.target as HTMLInputElement).value)} />
        </div>
        <p class="hint">{t('wl.contactHint')}</p>
        <div class="field">
          <label for="wl-phone">{t('wl.phone')}</label>
          <input id="wl-phone" type="tel" autoComplete="tel" value={form.phone} onInput={(e) => set('phone', (e.target as HTMLInputElement).value)} />
        </div>
        <div class="field">
          <label for="wl-email">{t('wl.email')}</label>
          <input id="wl-email" type="email" autoComplete="email" value={form.email} onInput={(e) => set('email', (e.target as HTMLInputElement).value)} />
        </div>
        <label class="mod-option consent">
          <input type="checkbox" required checked={form.consent} onChange={(e) => set('consent', (e.target as HTMLInputElement).checked)} />
          <span>{t('wl.consent')}</span>
        </label>
        {error ? <p class="error-text" role="alert">{error}</p> : null}
        <button type="submit" class="btn btn-primary wide big" disabled={busy || !page.isOpen}>
          {t('wl.join')}
        </button>
      </form>
    </main>
  );
}

/**
 * /waitlist/<token>: the party's place, live. Its own entry's changes (notified, seated) come
 * over /realtime with the waitlist token; a party ahead being seated changes only the position,
 * which is re-read every few seconds.
 */
export function WaitlistStatus({ token }: { token: string }) {
  const [status, setStatus] = useState<Status | null>(null);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    guestLanguage(undefined);
    const load = () => void GET('/public/waitlist/{token}', { path: { token } }).then(setStatus, (e) => e instanceof ApiFailure && e.status === 404 && setMissing(true));
    live.authWith({ kind: 'waitlist', token }, () => {});
    const stop = live.listen([`waitlist_entry:${token.split('.')[0]}`], load, load);
    load();
    const timer = setInterval(load, 5000);
    return () => {
      stop();
      clearInterval(timer);
    };
  }, [token]);
  if (missing) return <main class="guest"><h1>{t('wl.unavailable')}</h1></main>;
  if (!status) return <main class="guest"><p>{t('kds.loading')}</p></main>;
  const name = typeof status.restaurant === 'string' ? null : status.restaurant?.name;
  const leave = async () => {
    setBusy(true);
    try {
      setStatus(await POST('/public/waitlist/{token}/leave', { path: { token } }));
    } finally {
      setBusy(false);
    }
  };
  const active = status.status === 'waiting' || status.status === 'notified';
  return (
    <main class="guest">
      <header class="guest-head">
        <h1>{name ?? t('wl.title')}</h1>
        <p>
          {status.guestName} · {status.partySize}
        </p>
      </header>
      {live.status.value === 'offline' ? <p class="guest-banner" role="status">{t('qr.offline')}</p> : null}
      <section class="guest-card wl-card" aria-live="polite">
        {status.status === 'notified' ? (
          <>
            <h2 class="wl-ready">{t('wl.ready')}</h2>
            <p>{t('wl.readyHint')}</p>
          </>
        ) : status.status === 'waiting' ? (
          <>
            <h2>{t('wl.position', { n: status.position ?? 0 })}</h2>
            <p>{t('wl.ahead', { n: status.partiesAhead ?? 0 })}</p>
            <p class="wl-wait">{t('wl.wait', { min: status.estimatedWaitMinutes ?? 0 })}</p>
          </>
        ) : (
          <h2>{status.status === 'seated' ? t('wl.seated') : status.status === 'expired' ? t('wl.expired') : t('wl.left')}</h2>
        )}
      </section>
      {active ? (
        <button type="button" class="btn btn-danger wide big" disabled={busy} onClick={() => void leave()}>
          {t('wl.leave')}
        </button>
      ) : null}
    </main>
  );
}
