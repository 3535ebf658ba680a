import { useEffect, useState } from 'preact/hooks';
import { GET, POST } from '../lib/client.ts';
import { browserLanguage, LANGUAGE_NAMES, LANGUAGES, t, type Language } from '../lib/i18n.ts';
import { navigate } from '../lib/router.ts';
import { session } from '../lib/session.ts';
import { Button, ErrorNote, Field, SelectField, Toggle } from '../ui/kit.tsx';
import { pricesIncludeTaxFor, slugFrom, venueDefaults } from '../lib/venue-defaults.ts';
import { homeOf } from '../ui/shell.tsx';

const CURRENCIES = ['EUR', 'CHF', 'GBP', 'USD', 'SEK', 'DKK', 'NOK', 'PLN', 'CZK', 'HUF', 'JPY', 'CAD', 'AUD'];

function timezones(): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const zones = intl.supportedValuesOf?.('timeZone') ?? ['Europe/Berlin', 'Europe/Paris', 'Europe/Madrid', 'Europe/Rome', 'Europe/London'];
  // browsers list only the regional zones; a hub run on UTC should still be able to say so
  return zones.includes('UTC') ? zones : [...zones, 'UTC'];
}

/** First start: the person at the hub names the restaurant and becomes its owner. */
export function SetupPage({ onDone }: { onDone: () => void }) {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'Europe/Berlin';
  const [form, setForm] = useState({
    restaurant_name: '',
    // made from the name, the time zone's country and the currency until the person changes them
    slug: '',
    timezone: zone,
    currency: venueDefaults(zone).currency ?? 'EUR',
    tax_percent: String(Math.round(venueDefaults(zone).tax * 10000) / 100),
    prices_include_tax: pricesIncludeTaxFor(venueDefaults(zone).currency ?? 'EUR'),
    owner_name: '',
    owner_email: '',
    owner_password: '',
    setup_code: '',
  });
  const [codeRequired, setCodeRequired] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value });
  const [slugTouched, setSlugTouched] = useState(false);
  const [priceRuleTouched, setPriceRuleTouched] = useState(false);
  const slug = slugTouched ? form.slug : slugFrom(form.restaurant_name);
  const withCurrency = (f: typeof form, currency: string) => ({ ...f, currency, prices_include_tax: priceRuleTouched ? f.prices_include_tax : pricesIncludeTaxFor(currency) });
  const onZone = (timezone: string) => {
    const d = venueDefaults(timezone);
    setForm({ ...withCurrency(form, d.currency ?? form.currency), timezone, tax_percent: String(Math.round(d.tax * 10000) / 100) });
  };

  useEffect(() => {
    GET('/v1/auth/setup').then((s) => setCodeRequired(s.code_required), () => {});
  }, []);

  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const { setup_code, tax_percent, slug: _typed, ...rest } = form;
      const rate = Number(tax_percent.replace(',', '.')) / 100;
      session.value = await POST('/v1/auth/setup', { body: {
        ...rest,
        ...(slug ? { slug } : {}),
        ...(tax_percent.trim() && Number.isFinite(rate) ? { default_tax_rate: rate } : {}),
        language: browserLanguage.value,
        ...(codeRequired ? { setup_code } : {}),
      } });
      onDone();
      navigate(homeOf(), true);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <main class="auth-page" id="main">
      <form class="auth-card wide-card" onSubmit={submit}>
        <h1>{t('setup.title')}</h1>
        <p class="muted">{t('setup.intro')}</p>
        <SelectField
          label={t('settings.language')}
          value={browserLanguage.value}
          options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
          onChange={(v) => (browserLanguage.value = v as Language)}
        />
        <Field label={t('setup.restaurantName')} name="restaurant_name" required value={form.restaurant_name} onInput={set('restaurant_name')} />
        <div class="row">
          <SelectField label={t('settings.timezone')} value={form.timezone} options={timezones().map((z) => ({ value: z, label: z }))} onChange={onZone} />
          <SelectField label={t('settings.currency')} value={form.currency} options={CURRENCIES.map((c) => ({ value: c, label: c }))} onChange={(v) => setForm(withCurrency(form, v))} />
        </div>
        <Field
          label={t('settings.slug')}
          name="slug"
          pattern="[a-z0-9][a-z0-9\-]*"
          autoCapitalize="off"
          spellcheck={false}
          value={slug}
          hint={t('settings.slugHint', { example: `${location.origin}/r/${slug || '…'}/waitlist` })}
          onInput={(e) => (setSlugTouched(true), setForm({ ...form, slug: (e.target as HTMLInputElement).value }))}
        />
        <div class="row">
          <Field label={t('settings.tax')} name="default_tax_rate" inputMode="decimal" value={form.tax_percent} onInput={set('tax_percent')} />
          <Toggle
            label={t('settings.pricesIncludeTax')}
            checked={form.prices_include_tax}
            onChange={(v) => (setPriceRuleTouched(true), setForm({ ...form, prices_include_tax: v }))}
          />
        </div>
        <h2>{t('setup.owner')}</h2>
        <Field label={t('staff.name')} name="owner_name" autoComplete="name" required value={form.owner_name} onInput={set('owner_name')} />
        <Field label={t('login.email')} type="email" name="owner_email" autoComplete="username" required value={form.owner_email} onInput={set('owner_email')} />
        <Field
          label={t('login.password')}
          type="password"
          name="owner_password"
          autoComplete="new-password"
          minLength={10}
          required
          hint={t('setup.passwordHint')}
          value={form.owner_password}
          onInput={set('owner_password')}
        />
        {codeRequired ? (
          <Field label={t('setup.code')} name="setup_code" required hint={t('setup.codeHint')} value={form.setup_code} onInput={set('setup_code')} autoComplete="off" />
        ) : null}
        <ErrorNote error={error} />
        <Button type="submit" variant="primary" disabled={busy} class="wide">
          {t('setup.submit')}
        </Button>
      </form>
    </main>
  );
}
