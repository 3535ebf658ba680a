import { GET, getAll } from '../lib/client.ts';
import { loadSyncStatus, loadSystemHealth } from '../lib/health.ts';
import { t, type Key } from '../lib/i18n.ts';
import { can } from '../lib/session.ts';
import { Badge, useLoad } from '../ui/kit.tsx';

interface Step {
  key: string;
  text: Key;
  href: string;
  done: boolean;
}

/**
 * What a new venue still lacks for a first service, read from the real state each time Today
 * opens (no "dismissed" flag to go stale): each step links to the page that does it, and the
 * card is gone once every step is done. Only for those who can change settings.
 */
export async function firstDaySteps(): Promise<Step[]> {
  const [settings, items, tables, codes, printers, devices, staff, system, sync] = await Promise.all([
    GET('/v1/settings'),
    GET('/v1/menu_items', { query: { limit: 1 } }),
    getAll('/v1/tables'),
    getAll('/v1/qr_codes', { query: { is_active: true } }),
    GET('/v1/printers', { query: { limit: 1 } }),
    GET('/v1/devices'),
    GET('/v1/staff', { query: { limit: 2 } }),
    loadSystemHealth(),
    loadSyncStatus(),
  ]);
  const coded = new Set(codes.map((c) => c.table));
  const active = tables.filter((x) => x.is_active);
  return [
    { key: 'hours', text: 'first.hours', href: '/app/settings#hours', done: Object.values(settings.opening_hours ?? {}).some((d) => d.length > 0) },
    { key: 'menu', text: 'first.menu', href: '/app/menu', done: items.data.length > 0 },
    { key: 'tables', text: 'first.tables', href: '/app/floor', done: active.length > 0 },
    { key: 'qr', text: 'first.qr', href: active.length ? '/app/floor/qr-sheet' : '/app/floor', done: active.length > 0 && active.every((x) => coded.has(x.id)) },
    { key: 'printers', text: 'first.printers', href: '/app/printers', done: printers.data.length > 0 },
    { key: 'screen', text: 'first.screen', href: '/app/settings#screens', done: devices.data.some((d) => d.paired_at !== null && d.revoked_at === null) },
    // the owner who set the hub up is the first person: someone else makes a team
    { key: 'staff', text: 'first.staff', href: '/app/staff', done: staff.data.length > 1 },
    { key: 'waitlist', text: 'first.waitlist', href: '/app/settings#waitlist', done: settings.waitlist.enabled },
    { key: 'backups', text: 'first.backups', href: '/app/settings?tab=backups', done: !!system.backups?.enabled },
    { key: 'cloud', text: 'first.cloud', href: '/app/settings?tab=sync', done: sync.linked },
  ];
}

export function FirstDayChecklist() {
  const [steps] = useLoad(async () => (can('settings:write') ? firstDaySteps() : []));
  if (!steps?.length || steps.every((s) => s.done)) return null;
  const done = steps.filter((s) => s.done).length;
  return (
    <section class="card first-day" aria-labelledby="first-day-title">
      <h2 id="first-day-title">{t('first.title')}</h2>
      <p class="muted">{t('first.progress', { done, total: steps.length })}</p>
      <ol class="plain-list checklist">
        {steps.map((s) => (
          <li key={s.key} data-step={s.key} class={s.done ? 'done' : undefined}>
            {s.done ? <Badge tone="good">{t('first.done')}</Badge> : <Badge tone="warn">{t('first.todo')}</Badge>} <a href={s.href}>{t(s.text)}</a>
          </li>
        ))}
      </ol>
    </section>
  );
}
