import { useEffect, useState } from 'preact/hooks';
import type { ORDER_TYPES } from '../lib/api.gen.ts';
import { GET, POST } from '../lib/client.ts';
import { minutesSince, money, number, todayAtRestaurant, when } from '../lib/format.ts';
import { t, type Key } from '../lib/i18n.ts';
import { statusTone } from './orders.tsx';
import { live } from '../lib/live.ts';
import { can } from '../lib/session.ts';
import { describeConflicts, loadSyncStatus, loadSystemHealth, type ConflictView, type SystemHealth } from '../lib/health.ts';
import { Badge, Button, Empty, ErrorNote, PageHeader, useLoad } from '../ui/kit.tsx';
import { FirstDayChecklist } from './first-day.tsx';
import { BackupSummary, ConflictText, SettleConflict, SyncSummary } from './health-parts.tsx';

interface ActiveOrder {
  id: string;
  orderNumber: string;
  type: (typeof ORDER_TYPES)[number];
  status: string;
  tableNumber: number | null;
  total: number;
  placedAt: number | null;
  createdAt: number;
}

function Stat({ label, value, href }: { label: string; value: string; href?: string }) {
  const body = (
    <>
      <span class="stat-value">{value}</span>
      <span class="stat-label">{label}</span>
    </>
  );
  return href ? (
    <a class="stat" href={href}>
      {body}
    </a>
  ) : (
    <div class="stat">{body}</div>
  );
}

type Attention = { key: string; text: string; href: string; tone?: 'warn'; badge?: string; conflict?: ConflictView; acknowledge?: () => Promise<unknown> };

/** What the sync and backup state asks of someone: conflicts to look at, a backup overdue or failing. */
function healthItems(h: { sync: { last_error: string | null; linked: boolean; role: string; connected: boolean; repair: { state: string; unconverged: unknown[] } }; system: { backups: { warning: string | null; last_error: string | null } | null; reachability?: { url: string; reachable: boolean } | null; addresses?: SystemHealth['addresses'] }; conflicts: ConflictView[] } | null): Attention[] {
  if (!h) return [];
  const out: Attention[] = [];
  const b = h.system.backups;
  // the hub's own LAN address did not reach it: tablets cannot either (server/operator/reachability.ts)
  if (h.system.reachability && !h.system.reachability.reachable) out.push({ key: 'unreachable', text: t('ops.unreachable', { url: h.system.reachability.url }), href: '/app/share', tone: 'warn' });
  // the PC's address moved: the QR codes that embed the old one no longer open (server/operator/stable-address.ts)
  const moved = h.system.addresses?.change;
  if (moved && moved.reprint.length > 0)
    out.push({
      key: 'address-moved',
      text: t('ops.addressMoved', { from: moved.from, to: moved.to, codes: moved.reprint.map((c) => c.label).join(', ') }),
      href: '/app/floor/qr-sheet',
      tone: 'warn',
      acknowledge: () => POST('/v1/system/address-change/acknowledge'),
    });
  if (b?.warning) out.push({ key: 'backup-late', text: t('ops.backup.warning'), href: '/app/settings?tab=backups' });
  else if (b?.last_error) out.push({ key: 'backup-failed', text: t('ops.backup.failed'), href: '/app/settings?tab=backups' });
  // on the cloud: the venue's hub went quiet, and its devices carry on here (docs/operators/when-the-hub-stops.md)
  if (h.sync.role === 'cloud' && h.sync.linked && !h.sync.connected) out.push({ key: 'hub-silent', text: t('ops.sync.hubSilent'), href: '/app/settings?tab=sync', tone: 'warn' });
  if (h.sync.repair.state === 'diverged') out.push({ key: 'sync-diverged', text: t('ops.sync.diverged', { n: h.sync.repair.unconverged.length }), href: '/app/settings?tab=sync', tone: 'warn' });
  for (const c of h.conflicts) out.push({ key: c.id, text: c.text, href: c.href ?? '/app/settings?tab=sync', tone: 'warn', badge: t('ops.conflicts.badge'), conflict: c });
  return out;
}

/** Today's figures, open orders, waiting guests, bookings and what needs someone; live on orders and the waitlist. */
function useTodayData() {
  // a server's Today has no money figures (analytics is the managers'): only what it may read
  const numbers = can('analytics:read');
  const [dash, dashError, reloadDash] = useLoad(async () => (numbers ? GET('/v1/analytics/dashboard') : null));
  // sync, backups and printers at a glance: for those who can act on them
  const [health, , reloadHealth, setHealth] = useLoad(async () => {
    if (!can('settings:write')) return null;
    const [sync, system] = await Promise.all([loadSyncStatus(), loadSystemHealth()]);
    return { sync, system, conflicts: await describeConflicts(sync.conflicts) };
  });
  // the link and the backups change with no live message of their own: a look each minute
  useEffect(() => {
    const timer = window.setInterval(() => void reloadHealth(), 60_000);
    return () => clearInterval(timer);
  }, []);
  const [open, setOpen] = useState<number | null>(null);
  const [oldest, setOldest] = useState<ActiveOrder[]>([]);
  const [waiting, setWaiting] = useState<number | null>(null);
  const [next] = useLoad(async () =>
    can('reservations:read')
      ? (await GET('/v1/reservations', { query: { date: todayAtRestaurant(), limit: 100 } })).data
          .filter((r) => ['pending', 'confirmed'].includes(r.status) && r.ends_at * 1000 > Date.now())
          .sort((a, b) => a.starts_at - b.starts_at)
          .slice(0, 6)
      : [],
  );
  const [attention] = useLoad(async () => {
    const out: Attention[] = [];
    if (can('printers:read')) {
      const [failed, printers] = await Promise.all([
        GET('/v1/print_jobs', { query: { state: 'failed', limit: 100 } }),
        GET('/v1/printers', { query: { limit: 100 } }),
      ]);
      if (failed.data.length) out.push({ key: 'failed-prints', text: t('today.failedPrints', { n: failed.data.length }), href: '/app/printers' });
      for (const p of printers.data) {
        if (!p.is_active || ['online', 'unknown'].includes(p.status.state)) continue;
        const text = p.status.state === 'paper_out' ? t('ops.printerPaperOut', { name: p.name }) : t('today.printerDown', { name: p.name });
        out.push({ key: `printer-${p.name}`, text, href: '/app/printers' });
      }
    }
    if (can('webhooks:read')) {
      const eps = await GET('/v1/webhook_endpoints', { query: { limit: 100 } });
      for (const e of eps.data) if (e.status === 'disabled') out.push({ key: `webhook-${e.id}`, text: t('today.webhookDisabled', { url: e.url }), href: '/app/webhooks' });
    }
    if (can('events:read')) {
      // the latest events' deliveries that gave up
      const events = await GET('/v1/events', { query: { limit: 100 } });
      const failed = events.data.filter((e) => e.deliveries.some((d) => d.status === 'failed')).length;
      if (failed) out.push({ key: 'failed-webhooks', text: t('today.failedWebhooks', { n: failed }), href: '/app/webhooks' });
    }
    return out;
  });

  const countOpen = async () => {
    // the operational view: open orders, oldest first
    const active = await GET('/public/orders/active', { query: { fields: 'id,orderNumber,type,status,tableNumber,total,placedAt,createdAt' } });
    setOpen(active.data.length);
    // the fields asked for above are the ones an ActiveOrder has
    setOldest(active.data.slice(0, 6) as ActiveOrder[]);
  };
  const countWaiting = async () => {
    if (!can('waitlist:read')) return;
    const w = await GET('/v1/waitlist', { query: { status: 'waiting', limit: 100 } });
    setWaiting(w.data.length);
  };
  useEffect(() => {
    void countOpen();
    void countWaiting();
    // numbers follow the service live: any order or waitlist change recounts
    let timer: number | undefined;
    const refresh = () => {
      clearTimeout(timer);
      timer = window.setTimeout(() => {
        void countOpen();
        void countWaiting();
        void reloadDash();
      }, 300);
    };
    const topics = ['orders', ...(can('waitlist:read') ? ['waitlist'] : [])];
    return live.listen(topics, refresh, refresh);
  }, []);
  return { numbers, dash, dashError, health, reloadHealth, setHealth, open, oldest, waiting, next, attention };
}

type TodayData = ReturnType<typeof useTodayData>;

/** The morning look: today's numbers, what is open, who is coming, and what needs someone. */
export function TodayPage() {
  const data = useTodayData();
  const { numbers, dash, dashError, open, oldest, waiting, next, health } = data;
  return (
    <>
      <PageHeader title={t('today.title')}>
        <span class="muted">{when(Date.now() / 1000, 'weekday')}</span>
      </PageHeader>
      <ErrorNote error={dashError} />
      <FirstDayChecklist />
      <section class="stats" aria-label={t('today.numbers')}>
        {numbers ? <Stat label={t('today.revenue')} value={dash ? money(dash.total_revenue) : '…'} href="/app/analytics" /> : null}
        {numbers ? <Stat label={t('today.orders')} value={dash ? number(dash.total_orders) : '…'} href="/app/orders?view=history" /> : null}
        <Stat label={t('today.openOrders')} value={open === null ? '…' : number(open)} href="/app/orders" />
        {numbers ? <Stat label={t('today.reservations')} value={dash ? number(dash.active_reservations) : '…'} href="/app/reservations" /> : null}
        <Stat label={t('today.waiting')} value={waiting === null ? '—' : number(waiting)} href="/app/waitlist" />
        {numbers ? <Stat label={t('today.newGuests')} value={dash ? number(dash.new_customers) : '…'} href="/app/guests" /> : null}
      </section>
      <div class="columns">
        <OldestOpen oldest={oldest} />
        <AttentionCard data={data} />
        {health ? <HealthCard health={health} /> : null}
        <NextReservations next={next} />
      </div>
    </>
  );
}

function OldestOpen({ oldest }: { oldest: ActiveOrder[] }) {
  return (
    <section class="card">
      <h2>{t('today.oldestOpen')}</h2>
      {oldest.length === 0 ? (
        <Empty>{t('orders.noneOpen')}</Empty>
      ) : (
        <ul class="plain-list">
          {oldest.map((o) => (
            <li key={o.id} class="res-line">
              <a href={`/app/orders/${o.id}`}>#{o.orderNumber}</a> {t(`orderType.${o.type}` as Key)}
              {o.tableNumber !== null ? ` · ${t('orders.tableN', { n: o.tableNumber })}` : ''} · {money(o.total)}{' '}
              <Badge tone={statusTone(o.status)}>{t(`orderStatus.${o.status}` as Key)}</Badge>
              <span class="muted">{t('orders.minutes', { n: minutesSince(o.placedAt ?? o.createdAt) ?? 0 })}</span>
            </li>
          ))}
        </ul>
      )}
      <a href="/app/orders">{t('today.allOrders')}</a>
    </section>
  );
}

function AttentionCard({ data: { attention, health, reloadHealth, setHealth } }: { data: TodayData }) {
  const items = [...(attention ?? []), ...healthItems(health ?? null)];
  return (
    <section class="card">
      <h2>{t('today.attention')}</h2>
      {attention === undefined || health === undefined ? null : items.length === 0 ? (
        <p class="all-good">
          <Badge tone="good">{t('today.allGood')}</Badge>
        </p>
      ) : (
        <ul class="plain-list attention">
          {items.map((a) => (
            <li key={a.key} class={a.conflict ? 'conflict' : undefined}>
              {a.conflict && health ? (
                <>
                  <div>
                    <Badge tone={a.tone ?? 'bad'}>{a.badge ?? '!'}</Badge> <ConflictText conflict={{ ...a.conflict, href: a.href }} />
                  </div>
                  <SettleConflict conflict={a.conflict} onSettled={(id) => setHealth({ ...health, conflicts: health.conflicts.filter((c) => c.id !== id) })} />
                </>
              ) : (
                <>
                  <Badge tone={a.tone ?? 'bad'}>{a.badge ?? '!'}</Badge> <a href={a.href}>{a.text}</a>
                  {a.acknowledge ? (
                    <Button onClick={() => void a.acknowledge!().then(reloadHealth)}>{t('ops.addressMoved.done')}</Button>
                  ) : null}
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function HealthCard({ health }: { health: NonNullable<TodayData['health']> }) {
  return (
    <section class="card health" aria-labelledby="health-title">
      <h2 id="health-title">{t('ops.health')}</h2>
      <h3>
        <a href="/app/printers">{t('nav.printers')}</a>
      </h3>
      <p>
        {health.system.printers.total === 0
          ? health.system.printers.switched_off > 0
            ? t('ops.printers.allOff', { count: health.system.printers.switched_off })
            : t('ops.printers.none')
          : t('ops.printers.counts', { online: health.system.printers.online, total: health.system.printers.total })}
      </p>
      <h3>
        <a href="/app/settings?tab=sync">{t('ops.sync.title')}</a>
      </h3>
      <SyncSummary status={health.sync} />
      <h3>
        <a href="/app/settings?tab=backups">{t('ops.backup.title')}</a>
      </h3>
      {health.system.backups ? <BackupSummary backups={health.system.backups} /> : <p class="muted">{t('ops.backup.none')}</p>}
    </section>
  );
}

function NextReservations({ next }: { next: TodayData['next'] }) {
  return (
    <section class="card">
      <h2>{t('today.nextReservations')}</h2>
      {!next?.length ? (
        <Empty>{t('today.noReservations')}</Empty>
      ) : (
        <ul class="plain-list">
          {next.map((r) => (
            <li key={r.id} class="res-line">
              <strong>{r.time}</strong> {r.guest.name} · {t('reservations.party', { n: r.party_size })}
              {r.no_show_risk !== null && r.no_show_risk >= 50 ? <Badge tone="warn">{t('reservations.risk')}</Badge> : null}
            </li>
          ))}
        </ul>
      )}
      <a href="/app/reservations">{t('today.allReservations')}</a>
    </section>
  );
}
