import { signal } from '@preact/signals';
import type { ComponentType } from 'preact';
import { lazy, Suspense } from 'preact/compat';
import { useEffect } from 'preact/hooks';
import { onUnauthorized } from './lib/api.ts';
import { GET } from './lib/client.ts';
import { languageReady, t } from './lib/i18n.ts';
import { live } from './lib/live.ts';
import { firstDataIn, loadedPages } from './lib/loaded-pages.ts';
import { navigate, route } from './lib/router.ts';
import { can, loadSession, session } from './lib/session.ts';
import { LoginPage, loginFor, returnTo } from './pages/login.tsx';
import { SetupPage } from './pages/setup.tsx';
import { Loading, PageHeader } from './ui/kit.tsx';
import { homeOf, OfflineBanner, Shell } from './ui/shell.tsx';

// Each page loads with its first visit (charts and QR codes with theirs), so the first load
// carries the shell, sign-in and setup only. A tablet opening /app/service gets service.html,
// this app with that page in its first load (service-main.tsx), so it waits for no chunk after.
const page = <M,>(load: () => Promise<M>, pick: (m: M) => ComponentType<any>) => lazy(() => load().then((m) => ({ default: pick(m) })));
/** the page itself when its module is already loaded (`loadedPages`), else loaded with its first visit; chosen once, so it is never swapped (and remounted) later */
function loadedOr(name: string, Lazy: ComponentType<any>): ComponentType<any> {
  let chosen: ComponentType<any> | undefined;
  return (props) => {
    const Page = (chosen ??= loadedPages.get(name) ?? Lazy);
    return <Page {...props} />;
  };
}
const service = () => import('./pages/service.tsx');
const ServicePage = loadedOr('ServicePage', page(service, (m) => m.ServicePage));
const PinSignIn = loadedOr('PinSignIn', page(service, (m) => m.PinSignIn));
const TodayPage = page(() => import('./pages/today.tsx'), (m) => m.TodayPage);
const OrdersPage = page(() => import('./pages/orders.tsx'), (m) => m.OrdersPage);
const OrderDetailPage = page(() => import('./pages/order-detail.tsx'), (m) => m.OrderDetailPage);
const DayClosePage = page(() => import('./pages/day-close.tsx'), (m) => m.DayClosePage);
const MenuPage = page(() => import('./pages/menu.tsx'), (m) => m.MenuPage);
const FloorPage = page(() => import('./pages/floor.tsx'), (m) => m.FloorPage);
const QrSheetPage = page(() => import('./pages/floor.tsx'), (m) => m.QrSheetPage);
const ReservationsPage = page(() => import('./pages/reservations.tsx'), (m) => m.ReservationsPage);
const WaitlistPage = page(() => import('./pages/waitlist.tsx'), (m) => m.WaitlistPage);
const GuestsPage = page(() => import('./pages/guests.tsx'), (m) => m.GuestsPage);
const AnalyticsPage = page(() => import('./pages/analytics.tsx'), (m) => m.AnalyticsPage);
const StaffPage = page(() => import('./pages/staff.tsx'), (m) => m.StaffPage);
const SharePage = page(() => import('./pages/share.tsx'), (m) => m.SharePage);
const SettingsPage = page(() => import('./pages/settings.tsx'), (m) => m.SettingsPage);
const PrintersPage = page(() => import('./pages/printers.tsx'), (m) => m.PrintersPage);
const WebhooksPage = page(() => import('./pages/webhooks.tsx'), (m) => m.WebhooksPage);
const ApiKeysPage = page(() => import('./pages/api-keys.tsx'), (m) => m.ApiKeysPage);
const AccountPage = page(() => import('./pages/account.tsx'), (m) => m.AccountPage);

interface PageRoute {
  pattern: RegExp;
  scope: string | null;
  page: ComponentType<{ params: string[] }>;
}

const PAGES: PageRoute[] = [
  { pattern: /^\/app\/$/, scope: 'reservations:read', page: TodayPage },
  { pattern: /^\/app\/orders\/?$/, scope: 'orders:read', page: OrdersPage },
  // ringing in at a table needs the floor: servers, managers, owners; not the kitchen (which moves lines)
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

const SERVICE_PATH = /^\/app\/service\/?$/;

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

// Whether the hub needs its setup, and who is signed in, asked together as the app starts (not
// after its first draw): a tablet's first screen waits for one round trip, not two.
void (async () => {
  const signedIn = loadSession();
  try {
    setupRequired.value = (await GET('/v1/auth/setup')).required;
  } catch {
    setupRequired.value = false;
  }
  await signedIn;
})();

export function App() {

  // the live feed runs while someone is signed in (the API client stops it on a 401)
  const signedIn = !!session.value;
  useEffect(() => {
    if (signedIn) live.start();
  }, [signedIn]);

  const path = route.value.path;
  if (setupRequired.value === undefined || (!setupRequired.value && session.value === undefined) || !languageReady.value || (session.value && !firstDataIn.value)) return <Loading />;
  if (setupRequired.value) {
    return path === '/app/setup' ? <SetupPage onDone={() => (setupRequired.value = false)} /> : <Redirect to="/app/setup" />;
  }
  // a shared tablet at /app/service signs people in by PIN
  if (!session.value) return path === '/app/login' ? <LoginPage /> : path.startsWith('/app/service') ? (
      <Suspense fallback={<Loading />}>
        <PinSignIn />
      </Suspense>
    ) : <Redirect to={loginFor(path + route.value.search)} />;
  if (path === '/app/login' || path === '/app/setup') return <Redirect to={returnTo() ?? homeOf()} />;
  if (path === '/app/' && !can('reservations:read')) return <Redirect to={homeOf()} />;
  // service mode: the floor, the check and the bill fill the tablet, with no back-office menu
  // beside them (the service bar links there for a role that has pages there)
  if (SERVICE_PATH.test(path)) {
    return (
      <div class="service-mode">
        <a class="skip-link" href="#main">
          {t('nav.skip')}
        </a>
        <OfflineBanner />
        <main id="main" class="service-main" tabIndex={-1}>
          <Suspense fallback={<Loading />}>{can('tables:read') ? <ServicePage /> : <Forbidden />}</Suspense>
        </main>
      </div>
    );
  }
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
