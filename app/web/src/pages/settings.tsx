import { useEffect, useState } from 'preact/hooks';
import { WEEKDAYS } from '../lib/api.gen.ts';
import { GET, patchChanged } from '../lib/client.ts';
import { LANGUAGE_NAMES, LANGUAGES, t, type Key, type Language } from '../lib/i18n.ts';
import { navigate, queryParam } from '../lib/router.ts';
import { loadSession } from '../lib/session.ts';
import { ScreensSettings } from '../screens/devices-settings.tsx';
import { Button, ErrorNote, Field, Loading, PageHeader, SelectField, Tabs, Toggle, useAction, useLoad } from '../ui/kit.tsx';
import { SaveBar } from '../ui/save-bar.tsx';
import { BackupSettings } from './settings-backups.tsx';
import { MailSettings } from './settings-mail.tsx';
import { SyncSettings } from './settings-sync.tsx';
import { StationsSettings } from './stations-settings.tsx';

const DAYS = WEEKDAYS;
type Interval = { open: string; close: string };

interface Settings {
  name: string;
  slug: string;
  language: string;
  timezone: string;
  currency: string;
  default_tax_rate: number;
  prices_include_tax: boolean;
  opening_hours: Partial<Record<(typeof DAYS)[number], Interval[]>>;
  slot_duration_minutes: number;
  last_seating_before_close_minutes: number | null;
  guest_bot_check: 'when_busy' | 'always';
  waitlist: { enabled: boolean; max_party_size: number; notify_expiry_minutes: number; default_wait_minutes_per_party: number };
}

const TABS = ['general', 'sync', 'mail', 'backups'] as const;

/** Settings in four parts: the restaurant itself, the cloud link, mail and SMS, backups. */
export function SettingsPage() {
  const asked = queryParam('tab');
  const tab = TABS.find((x) => x === asked) ?? 'general';
  return (
    <>
      <PageHeader title={t('settings.title')} />
      <Tabs
        label={t('settings.title')}
        current={tab}
        onChange={(id) => navigate(`/app/settings?tab=${id}`, true)}
        tabs={[
          { id: 'general', label: t('ops.tab.general') },
          { id: 'sync', label: t('ops.sync.title') },
          { id: 'mail', label: t('ops.mail.tab') },
          { id: 'backups', label: t('ops.backup.title') },
        ]}
      />
      {tab === 'sync' ? <SyncSettings /> : tab === 'mail' ? <MailSettings /> : tab === 'backups' ? <BackupSettings /> : <GeneralSettings />}
    </>
  );
}

function GeneralSettings() {
  const [settings, error] = useLoad(() => GET('/v1/settings'));
  const [form, setForm] = useState<Settings | null>(null);
  const [stationsSeen, setStationsSeen] = useState(0);
  const [saved, setSaved] = useState(false);
  const [act, busy, actError] = useAction();
  // what the form showed when it opened (or was last saved): a save sends only what changed since
  const [opened, setOpened] = useState<Settings | null>(null);
  useEffect(() => {
    setForm(settings ?? null);
    setOpened(settings ?? null);
  }, [settings]);
  if (!form || !opened) return error ? <ErrorNote error={error} /> : <Loading />;

  const set = <K extends keyof Settings>(k: K, v: Settings[K]) => {
    setSaved(false);
    setForm({ ...form, [k]: v });
  };
  const save = async (e: Event) => {
    e.preventDefault();
    const bodyOf = (f: Settings) => {
      const hours: Settings['opening_hours'] = {};
      for (const d of DAYS) hours[d] = (f.opening_hours[d] ?? []).filter((x) => x.open && x.close);
      return {
        name: f.name,
        slug: f.slug.trim().toLowerCase(),
        language: f.language as Language,
        timezone: f.timezone,
        currency: f.currency.toLowerCase(),
        default_tax_rate: f.default_tax_rate,
        prices_include_tax: f.prices_include_tax,
        opening_hours: hours,
        last_seating_before_close_minutes: f.last_seating_before_close_minutes,
        waitlist: f.waitlist,
        guest_bot_check: f.guest_bot_check,
      };
    };
    const sent = form;
    const ok = await act(() => patchChanged('/v1/settings', {}, bodyOf(sent), bodyOf(opened)));
    if (ok) {
      setOpened(sent);
      setSaved(true);
      await loadSession();
    }
  };

  return (
    <>
      <form onSubmit={save} class="settings-form">
        <section class="card">
          <h2>{t('settings.restaurant')}</h2>
          <Field label={t('setup.restaurantName')} required value={form.name} onInput={(e) => set('name', (e.target as HTMLInputElement).value)} />
          <Field
            label={t('settings.slug')}
            name="slug"
            required
            pattern="[a-z0-9][a-z0-9\-]*"
            autoCapitalize="off"
            spellcheck={false}
            value={form.slug}
            hint={t('settings.slugHint', { example: `${location.origin}/r/${form.slug || '…'}/waitlist` })}
            onInput={(e) => set('slug', (e.target as HTMLInputElement).value)}
          />
          <div class="row">
            <SelectField label={t('settings.language')} value={form.language} onChange={(v) => set('language', v)} options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))} />
            <Field label={t('settings.timezone')} value={form.timezone} onInput={(e) => set('timezone', (e.target as HTMLInputElement).value)} />
            <Field label={t('settings.currency')} value={form.currency.toUpperCase()} maxLength={3} onInput={(e) => set('currency', (e.target as HTMLInputElement).value)} />
            <Field
              label={t('settings.tax')}
              inputMode="decimal"
              value={String(Math.round(form.default_tax_rate * 10000) / 100)}
              onInput={(e) => set('default_tax_rate', Number((e.target as HTMLInputElement).value.replace(',', '.')) / 100)}
            />
          </div>
          <Toggle label={t('settings.pricesIncludeTax')} checked={form.prices_include_tax} onChange={(v) => set('prices_include_tax', v)} />
          <p class="hint">{t('settings.pricesIncludeTaxHint')}</p>
        </section>
        <HoursCard form={form} set={set} />
        <section class="card" id="waitlist">
          <h2>{t('nav.waitlist')}</h2>
          <Toggle label={t('settings.waitlistOn')} checked={form.waitlist.enabled} onChange={(v) => set('waitlist', { ...form.waitlist, enabled: v })} />
          <div class="row">
            <Field label={t('settings.maxParty')} type="number" min={1} max={100} value={form.waitlist.max_party_size} onInput={(e) => set('waitlist', { ...form.waitlist, max_party_size: Number((e.target as HTMLInputElement).value) })} />
            <Field
              label={t('settings.waitPerParty')}
              type="number"
              min={1}
              max={120}
              value={form.waitlist.default_wait_minutes_per_party}
              onInput={(e) => set('waitlist', { ...form.waitlist, default_wait_minutes_per_party: Number((e.target as HTMLInputElement).value) })}
            />
            <Field
              label={t('settings.notifyExpiry')}
              type="number"
              min={1}
              max={240}
              value={form.waitlist.notify_expiry_minutes}
              onInput={(e) => set('waitlist', { ...form.waitlist, notify_expiry_minutes: Number((e.target as HTMLInputElement).value) })}
            />
          </div>
          <Toggle label={t('settings.botCheckAlways')} checked={form.guest_bot_check === 'always'} onChange={(v) => set('guest_bot_check', v ? 'always' : 'when_busy')} />
          <p class="hint">{t('settings.botCheckHint')}</p>
        </section>
        <ErrorNote error={actError} />
        <SaveBar disabled={busy} saved={saved} />
      </form>
      <StationsSettings onChanged={() => setStationsSeen((n) => n + 1)} />
      <ScreensSettings key={stationsSeen} />
    </>
  );
}

type SetSetting = <K extends keyof Settings>(k: K, v: Settings[K]) => void;

/** Opening hours, day by day, and how late the last booking may start. */
function HoursCard({ form, set }: { form: Settings; set: SetSetting }) {
  const setDay = (day: (typeof DAYS)[number], i: number, part: keyof Interval, v: string) => {
    const list = [...(form.opening_hours[day] ?? [])];
    list[i] = { ...(list[i] ?? { open: '', close: '' }), [part]: v };
    set('opening_hours', { ...form.opening_hours, [day]: list });
  };
  // most venues keep the same hours all week: one day filled in, copied to the other six (then edit the exceptions)
  const copyToEveryDay = (day: (typeof DAYS)[number]) => {
    const filled = (form.opening_hours[day] ?? []).filter((x) => x.open && x.close);
    set('opening_hours', Object.fromEntries(DAYS.map((d) => [d, filled.map((x) => ({ ...x }))])) as Settings['opening_hours']);
  };
  return (
    <section class="card" id="hours">
      <h2>{t('settings.hours')}</h2>
      <p class="hint">{t('settings.hoursHint')}</p>
      <div class="hours">
        {DAYS.map((d) => {
          const list = form.opening_hours[d]?.length ? form.opening_hours[d]! : [{ open: '', close: '' }];
          return (
            <fieldset key={d} class="hours-day">
              <legend>{t(`day.${d}` as Key)}</legend>
              {list.map((iv, i) => (
                <div class="row" key={i}>
                  <Field label={t('settings.opens')} type="time" value={iv.open} onInput={(e) => setDay(d, i, 'open', (e.target as HTMLInputElement).value)} />
                  <Field label={t('settings.closes')} type="time" value={iv.close} onInput={(e) => setDay(d, i, 'close', (e.target as HTMLInputElement).value)} />
                </div>
              ))}
              <div class="chips">
                <Button variant="quiet" onClick={() => set('opening_hours', { ...form.opening_hours, [d]: [...list, { open: '', close: '' }] })}>
                  {t('settings.addInterval')}
                </Button>
                {list.some((iv) => iv.open && iv.close) ? (
                  <Button variant="quiet" onClick={() => copyToEveryDay(d)}>
                    {t('settings.copyToAll')}
                  </Button>
                ) : null}
              </div>
            </fieldset>
          );
        })}
      </div>
      <SelectField
        label={t('settings.lastSeating')}
        value={form.last_seating_before_close_minutes === null ? '' : String(form.last_seating_before_close_minutes)}
        onChange={(v) => set('last_seating_before_close_minutes', v === '' ? null : Number(v))}
        options={[
          { value: '', label: t('settings.lastSeating.sitting') },
          { value: '0', label: t('settings.lastSeating.open') },
          ...[...new Set([30, 60, 90, 120, form.last_seating_before_close_minutes ?? 30])]
            .filter((n) => n > 0)
            .sort((a, b) => a - b)
            .map((n) => ({ value: String(n), label: t('settings.lastSeating.before', { n }) })),
        ]}
      />
      <p class="hint">{t('settings.lastSeatingHint')}</p>
    </section>
  );
}
