import './i18n/ops/index.ts';
import './i18n/service/index.ts';
import './i18n/payments/index.ts';
import './i18n/first-day/index.ts';
import './i18n/venue/index.ts';
import './i18n/forms/index.ts';
import { signal } from '@preact/signals';
import type { ComponentType } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import { useEffect } from 'preact/hooks';
import { get, onUnauthorized } from './lib/api.ts';
import { t } from './lib/i18n.ts';
import { live } from './lib/live.ts';
import { navigate, route } from './lib/router.ts';
import { can, loadSession, session } from './lib/session.ts';
import { AccountPage } from './pages/account.tsx';
import { ApiKeysPage } from './pages/api-keys.tsx';
import { GuestsPage } from './pages/guests.tsx';
import { LoginPage, loginFor, returnTo } from './pages/login.tsx';
import { MenuPage } from './pages/menu.tsx';
import { OrderDetailPage } from './pages/order-detail.tsx';
import { DayClosePage } from './pages/day-close.tsx';
import { OrdersPage } from './pages/orders.tsx';
import { PrintersPage } from './pages/printers.tsx';
import { ReservationsPage } from './pages/reservations.tsx';
import { SettingsPage } from './pages/settings.tsx';
import { SetupPage } from './pages/setup.tsx';
import { StaffPage } from './pages/staff.tsx';
import { TodayPage } from './pages/today.tsx';
import { WaitlistPage } from './pages/waitlist.tsx';
import { WebhooksPage } from './pages/webhooks.tsx';
import { PinSignIn, ServicePage } from './pages/service.tsx';
import { Loading, PageHeader } from './ui/kit.tsx';
import { homeOf, Shell } from './ui/shell.tsx';

// charts and QR codes load with their pages, keeping the first load small
const AnalyticsPage = lazy(() => import('./pages/analytics.tsx').then((m) => ({ default: m.AnalyticsPage })));
const FloorPage = lazy(() => import('./pages/floor.tsx').then((m) => ({ default: m.FloorPage })));
const SharePage = lazy(() => import('./pages/share.tsx').then((m) => ({ default: m.SharePage })));
const QrSheetPage = lazy(() => import('./pages/floor.tsx').then((m) => ({ default: m.QrSheetPage })));

interface PageRoute {
  pattern: RegExp;
  scope: string | null;
  page: ComponentType<{ params: string[] }>;
}

const PAGES: PageRoute[] = [
  { pattern: /^\/app\/$/, scope: 'reservations:read', page: TodayPage },
  { pattern: /^\/app\/orders\/?$/, scope: 'orders:read', page: OrdersPage },
  // ringing in at a table needs the floor: servers, managers, owners; not the kitchen (which moves lines)
  { pattern: /^\/app\/service\/?$/, scope: 'tables:read', page: ServicePage },
  { pattern: /^\/app\/orders\/(ord_[A-Za-z0-9]+)$/, scope: 'orders:read', page: OrderDetailPage },
  { pattern: /^\/app\/close\/?$/, scope: 'payments:manage', page: DayClosePage },
  { pattern: /^\/app\/menu\/?$/, scope: 'menu:read', page: MenuPage },
  { pattern: /^\/app\/floor\/?$/, scope: 'tables:read', page: FloorPage },
  { pattern: /^\/app\/floor\/qr-sheet$/, scope: 'tables:read', page: QrSheetPage },
  { pattern: /^\/app\/reservations\/?$/, scope: 'reservations:read', page: ReservationsPage },
  { pattern: /^\/app\/waitlist\/?$/, scope: 'waitlist:read', page: WaitlistPage },
  { pattern: /^\/app\/guests\/?$/, scope: 'customers:read', page: GuestsPage },
  { pattern: /^\/app\/analytics\/?$/, scope: 'analytics:read', page: AnalyticsPage },
  { pattern: /^\/app\/staff\/?$/, scope: 'staff:read', page: StaffPage },
  { pattern: /^\/app\/share\/?$/, scope: 'settings:write', page: SharePage },
  { pattern: /^\/app\/settings\/?$/, scope: 'settings:write', page: SettingsPage },
  { pattern: /^\/app\/printers\/?$/, scope: 'printers:read', page: PrintersPage },
  { pattern: /^\/app\/webhooks\/?$/, scope: 'webhooks:read', page: WebhooksPage },
  { pattern: /^\/app\/api-keys\/?$/, scope: 'api_keys:read', page: ApiKeysPage },
  { pattern: /^\/app\/account\/?$/, scope: null, page: AccountPage },
];

const setupRequired = signal<boolean | undefined>(undefined);

onUnauthorized(() => {
  live.stop();
  session.value = null;
  // a shared tablet at /app/service stays on its PIN pad
  if (!route.value.path.startsWith('/app/service')) navigate('/app/login', true);
});

function Forbidden() {
  return (
    <>
      <PageHeader title={t('forbidden.title')} />
      <p>{t('forbidden.body')}</p>
      <p>
        <a href={homeOf()}>{t('forbidden.back')}</a>
      </p>
    </>
  );
}

/** Moves to another page after this render (never from inside one). */
function Redirect({ to }: { to: string }) {
  // the screens are a page of their own (another bundle): a real load, not a history step
  useEffect(() => (to.startsWith('/screens/') ? location.replace(to) : navigate(to, true)), [to]);
  return <Loading />;
}

function NotFound() {
  return (
    <>
      <PageHeader title={t('notFound.title')} />
      <p>
        <a href={homeOf()}>{t('forbidden.back')}</a>
      </p>
    </>
  );
}

export function App() {
  useEffect(() => {
    void (async () => {
      try {
        setupRequired.value = (await get<{ required: boolean }>('/v1/auth/setup')).required;
      } catch {
        setupRequired.value = false;
      }
      if (!setupRequired.value) await loadSession();
    })();
  }, []);

  // the live feed runs while someone is signed in (the API client stops it on a 401)
  const signedIn = !!session.value;
  useEffect(() => {
    if (signedIn) live.start();
  }, [signedIn]);

  const path = route.value.path;
  if (setupRequired.value === undefined || (!setupRequired.value && session.value === undefined)) return <Loading />;
  if (setupRequired.value) {
    return path === '/app/setup' ? <SetupPage onDone={() => (setupRequired.value = false)} /> : <Redirect to="/app/setup" />;
  }
  // a shared tablet at /app/service signs people in by PIN
  if (!session.value) return path === '/app/login' ? <LoginPage /> : path.startsWith('/app/service') ? <PinSignIn /> : <Redirect to={loginFor(path + route.value.search)} />;
  if (path === '/app/login' || path === '/app/setup') return <Redirect to={returnTo() ?? homeOf()} />;
  if (path === '/app/' && !can('reservations:read')) return <Redirect to={homeOf()} />;
  for (const r of PAGES) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    const Page = r.page;
    return (
      <Shell>
        <Suspense fallback={<Loading />}>{r.scope && !can(r.scope) ? <Forbidden /> : <Page params={m.slice(1)} />}</Suspense>
      </Shell>
    );
  }
  return (
    <Shell>
      <NotFound />
    </Shell>
  );
}
