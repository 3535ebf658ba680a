import './devices-settings.css';
import { useEffect, useState } from 'preact/hooks';
import { DELETE, GET, POST, getAll, patchChanged } from '../lib/client.ts';
import { when } from '../lib/format.ts';
import { t } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';
import { Button, ErrorNote, Field, SelectField, useAction, useLoad } from '../ui/kit.tsx';

interface PairingCode {
  code: string;
  name: string;
  expires_at: number;
  url: string;
}
/** How long a pairing code is good for (the server's PAIRING_TTL_SECONDS). */
const PAIRING_TTL_SECONDS = 10 * 60;

/**
 * Settings → Screens: make a pairing code for a kitchen tablet (shown with a QR that opens the
 * pairing page with it filled in), see and unpair paired screens, set each station's ticket colours.
 */
export function ScreensSettings() {
  const [devices, , reload] = useLoad(() => GET('/v1/devices').then((r) => r.data));
  const [stations, , reloadStations] = useLoad(() => getAll('/v1/stations'));
  const [tablets, , reloadTablets] = useLoad(() => GET('/v1/devices/service_tablets').then((r) => r.data));
  const [name, setName] = useState('');
  const [station, setStation] = useState('');
  const [made, setMade] = useState<PairingCode | null>(null);
  const [qr, setQr] = useState<string | null>(null);
  const [ages, setAges] = useState<Record<string, { warn: string; late: string }>>({});
  const [act, busy, error] = useAction();

  useEffect(() => {
    setAges(Object.fromEntries((stations ?? []).map((s) => [s.key, { warn: String(s.warn_after_minutes ?? 8), late: String(s.late_after_minutes ?? 15) }])));
  }, [stations]);
  // a tablet pairing or a screen unpaired elsewhere shows here at once (the devices topic of /realtime)
  useEffect(() => live.listen(['devices'], () => void reload(), () => void reload()), []);
  useEffect(() => {
    // the code shown was just used: the tablet is in the list now, the code is spent
    if (made && devices?.some((d) => d.name === made.name && d.paired_at !== null && d.paired_at >= made.expires_at - PAIRING_TTL_SECONDS)) setMade(null);
  }, [devices]);
  useEffect(() => {
    if (!made) return setQr(null);
    // the QR encoder loads only when a code is shown
    void import('qrcode').then((m) => m.default.toDataURL(made.url, { margin: 1, width: 240 })).then(setQr, () => setQr(null));
  }, [made?.code]);

  const make = (e: Event) => {
    e.preventDefault();
    void act(async () => setMade(await POST('/v1/devices/pairing_codes', { body: { name: name.trim(), station: station || null } })));
  };
  const active = (stations ?? []).filter((s) => s.is_active);
  return (
    <section class="card" id="screens" aria-labelledby="screens-settings">
      <h2 id="screens-settings">{t('devices.title')}</h2>
      <p class="hint">{t('devices.intro')}</p>
      <form onSubmit={make} class="inline-form">
        <Field label={t('devices.name')} value={name} required maxLength={100} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <SelectField
          label={t('devices.station')}
          value={station}
          options={[{ value: '', label: t('devices.chooser') }, ...active.map((s) => ({ value: s.key, label: s.name }))]}
          onChange={setStation}
        />
        <Button type="submit" variant="primary" disabled={busy || !name.trim()}>
          {t('devices.make')}
        </Button>
      </form>
      {made ? (
        <div class="pairing-code" role="status">
          <p>{t('devices.code', { name: made.name, code: made.code, time: when(made.expires_at, 'time') })}</p>
          {qr ? <img src={qr} width={240} height={240} alt={t('devices.qr')} /> : null}
          {/* the same address in full, for a tablet with no camera: typed or sent to it */}
          <Field label={t('devices.url')} readOnly value={made.url} onFocus={(e) => (e.target as HTMLInputElement).select()} />
        </div>
      ) : null}
      <ErrorNote error={error} />
      {devices?.length ? (
        <ul class="plain-list">
          {devices.map((d) => (
            <li key={d.id} class="device-row">
              <span>
                <strong>{d.name}</strong> {d.station ? `· ${d.station}` : ''}
                {d.revoked_at ? ` · ${t('devices.unpaired')}` : d.last_used_at ? ` · ${t('devices.lastUsed', { when: when(d.last_used_at) })}` : ''}
              </span>
              {!d.revoked_at ? (
                <Button variant="danger" disabled={busy} onClick={() => act(async () => (await DELETE('/v1/devices/{id}', { path: { id: d.id } }), await reload()))}>
                  {t('devices.unpair')}
                  <span class="sr-only"> {d.name}</span>
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">{t('devices.none')}</p>
      )}
      <h3>{t('devices.tablets')}</h3>
      <p class="hint">{t('devices.tabletsIntro')}</p>
      {tablets?.length ? (
        <ul class="plain-list" aria-label={t('devices.tablets')}>
          {tablets.map((d) => {
            const expired = !d.revoked_at && d.expires_at * 1000 <= Date.now();
            return (
              <li key={d.id} class="device-row">
                <span>
                  <strong>{d.name}</strong> · {t('devices.trustedSince', { when: when(d.created) })}
                  {d.revoked_at ? ` · ${t('devices.revoked')}` : expired ? ` · ${t('devices.expired')}` : d.last_used_at ? ` · ${t('devices.lastUsed', { when: when(d.last_used_at) })}` : ''}
                </span>
                {!d.revoked_at && !expired ? (
                  <Button variant="danger" disabled={busy} onClick={() => act(async () => (await DELETE('/v1/devices/service_tablets/{id}', { path: { id: d.id } }), await reloadTablets()))}>
                    {t('devices.revoke')}
                    <span class="sr-only"> {d.name}</span>
                  </Button>
                ) : null}
              </li>
            );
          })}
        </ul>
      ) : (
        <p class="muted">{t('devices.tabletsNone')}</p>
      )}
      <h3>{t('devices.ages')}</h3>
      <form
        class="ages-form"
        onSubmit={(e) => {
          e.preventDefault();
          void act(async () => {
            for (const s of active) {
              const a = ages[s.key];
              if (!a) continue;
              // only what changed: the other side may have set the other age meanwhile
              await patchChanged('/v1/stations/{key}', { path: { key: s.key } }, { warn_after_minutes: Number(a.warn), late_after_minutes: Number(a.late) }, { warn_after_minutes: s.warn_after_minutes ?? 8, late_after_minutes: s.late_after_minutes ?? 15 });
            }
            await reloadStations();
          });
        }}
      >
        {active.map((s) => (
          <div key={s.key} class="ages-row">
            <Field label={t('devices.warn', { station: s.name })} type="number" min={1} max={240} value={ages[s.key]?.warn ?? ''} onInput={(e) => setAges({ ...ages, [s.key]: { ...ages[s.key], warn: (e.target as HTMLInputElement).value } })} />
            <Field label={t('devices.late', { station: s.name })} type="number" min={2} max={240} value={ages[s.key]?.late ?? ''} onInput={(e) => setAges({ ...ages, [s.key]: { ...ages[s.key], late: (e.target as HTMLInputElement).value } })} />
          </div>
        ))}
        <Button type="submit" disabled={busy}>
          {t('devices.saveAges')}
        </Button>
      </form>
    </section>
  );
}
