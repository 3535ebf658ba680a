import { useState } from 'preact/hooks';
import { ApiFailure } from '../lib/api.ts';
import { POST } from '../lib/client.ts';
import { t } from '../lib/i18n.ts';
import { storeDevice } from './device.ts';

/**
 * A tablet is never signed in by typing a key: a manager makes a code in Settings (six digits
 * on a hub, twelve on the cloud; or shows it as a QR that opens this page with it filled in),
 * the tablet trades it for its own key and keeps that in the browser.
 */
export function PairScreen() {
  const [code, setCode] = useState(new URLSearchParams(location.search).get('code') ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await POST('/public/devices/pair', { body: { code: code.trim() } });
      storeDevice({ key: r.key, id: r.device.id, name: r.device.name, station: r.device.station, restaurant: r.restaurant.name });
      location.assign(r.device.station ? `/screens/kitchen/${encodeURIComponent(r.device.station)}` : '/screens');
    } catch (err) {
      setError(err instanceof ApiFailure ? (err.status === 404 ? t('pair.invalid') : err.message) : String(err));
      setBusy(false);
    }
  };
  return (
    <main class="kpair">
      <h1>{t('pair.title')}</h1>
      <p>{t('pair.intro')}</p>
      <form onSubmit={submit}>
        <label for="pair-code">{t('pair.code')}</label>
        <input
          id="pair-code"
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="[0-9]{6,12}"
          maxLength={12}
          required
          value={code}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? 'pair-error' : undefined}
          onInput={(e) => setCode((e.target as HTMLInputElement).value.replace(/\D/g, ''))}
        />
        {error ? (
          <p id="pair-error" class="kds-error" role="alert">
            {error}
          </p>
        ) : null}
        <button type="submit" class="kbtn kbtn-primary" disabled={busy || code.length < 6}>
          {t('pair.submit')}
        </button>
      </form>
    </main>
  );
}
