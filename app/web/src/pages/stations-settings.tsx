import { useState } from 'preact/hooks';
import { PATCH, POST, getAll } from '../lib/client.ts';
import { t } from '../lib/i18n.ts';
import { Button, ErrorNote, Field, Toggle, useAction, useLoad } from '../ui/kit.tsx';

/** A station's key from the name a person types: "Grill 2" → "grill-2" (what the API accepts). */
export function stationKeyOf(name: string): string {
  const k = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^[^a-z]+|-+$/g, '')
    .slice(0, 32);
  return k || 'station';
}

/**
 * Settings → Stations: add one by name ("Grill", "Fryer", "Pass"), rename, switch on and off,
 * and put them in the kitchen's order (screens and printed tickets follow it).
 */
export function StationsSettings({ onChanged }: { onChanged?: () => void }) {
  const [stations, , load] = useLoad(() => getAll('/v1/stations'));
  // the screens' pairing form below offers the stations too: it reads them again
  const reload = async () => (await load(), onChanged?.());
  const [name, setName] = useState('');
  const [names, setNames] = useState<Record<string, string>>({});
  const [act, busy, error] = useAction();
  // moves one station up or down; every station whose place changed is saved with its new position
  const move = (from: number, to: number) =>
    act(async () => {
      const list = [...(stations ?? [])];
      const [s] = list.splice(from, 1);
      list.splice(to, 0, s!);
      for (const [i, x] of list.entries()) if (x.position !== i) await PATCH('/v1/stations/{key}', { path: { key: x.key }, body: { position: i } });
      await reload();
    });
  const add = (e: Event) => {
    e.preventDefault();
    if (!name.trim()) return;
    void act(async () => {
      await POST('/v1/stations', { body: { key: stationKeyOf(name), name: name.trim() } });
      setName('');
      await reload();
    });
  };
  return (
    <section class="card" id="stations" aria-labelledby="stations-title">
      <h2 id="stations-title">{t('settings.stations')}</h2>
      <p class="hint">{t('stations.order')}</p>
      <ul class="plain-list">
        {(stations ?? []).map((s, i, all) => (
          <li key={s.id} class="station-row">
            <div class="row station-order">
              <Button variant="quiet" disabled={busy || i === 0} onClick={() => move(i, i - 1)} aria-label={t('stations.moveUp', { name: s.name })}>
                ↑
              </Button>
              <Button variant="quiet" disabled={busy || i === all.length - 1} onClick={() => move(i, i + 1)} aria-label={t('stations.moveDown', { name: s.name })}>
                ↓
              </Button>
            </div>
            <Toggle label={`${s.name} (${s.key})`} checked={s.is_active} disabled={busy} onChange={(on) => act(async () => (await PATCH('/v1/stations/{key}', { path: { key: s.key }, body: { is_active: on } }), await reload()))} />
            <form
              class="row"
              onSubmit={(e) => {
                e.preventDefault();
                const next = names[s.key]?.trim();
                if (next) void act(async () => (await PATCH('/v1/stations/{key}', { path: { key: s.key }, body: { name: next } }), await reload()));
              }}
            >
              <Field label={t('stations.renameLabel', { name: s.name })} value={names[s.key] ?? s.name} onInput={(e) => setNames({ ...names, [s.key]: (e.target as HTMLInputElement).value })} />
              <Button type="submit" disabled={busy}>
                {t('stations.rename')}
              </Button>
            </form>
          </li>
        ))}
      </ul>
      <form class="row" onSubmit={add}>
        <Field label={t('stations.newName')} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
        <Button type="submit" variant="primary" disabled={busy || !name.trim()}>
          {t('stations.add')}
        </Button>
      </form>
      <ErrorNote error={error} />
    </section>
  );
}
