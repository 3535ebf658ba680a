import { batch } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { POST } from '../lib/client.ts';
import { t, type Key } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';
import { navigate, route } from '../lib/router.ts';
import { can, session } from '../lib/session.ts';

export interface NavEntry {
  path: string;
  label: Key;
  scope: string;
}

/** The back office's sections, each shown only to roles whose scopes its API calls need. */
export const NAV: NavEntry[] = [
  // servers get a Today too (open orders, bookings, the queue, printers), without the figures
  { path: '/app/', label: 'nav.today', scope: 'reservations:read' },
  { path: '/app/orders', label: 'nav.orders', scope: 'orders:read' },
  { path: '/app/service', label: 'service.title', scope: 'tables:read' },
  { path: '/app/close', label: 'close.nav', scope: 'payments:manage' },
  { path: '/app/menu', label: 'nav.menu', scope: 'menu:read' },
  { path: '/app/floor', label: 'nav.floor', scope: 'tables:read' },
  { path: '/app/reservations', label: 'nav.reservations', scope: 'reservations:read' },
  { path: '/app/waitlist', label: 'nav.waitlist', scope: 'waitlist:read' },
  { path: '/app/guests', label: 'nav.guests', scope: 'customers:read' },
  { path: '/app/analytics', label: 'nav.analytics', scope: 'analytics:read' },
  { path: '/app/staff', label: 'nav.staff', scope: 'staff:read' },
  { path: '/app/share', label: 'nav.share', scope: 'settings:write' },
  { path: '/app/settings', label: 'nav.settings', scope: 'settings:write' },
  { path: '/app/printers', label: 'nav.printers', scope: 'printers:read' },
  { path: '/app/webhooks', label: 'nav.webhooks', scope: 'webhooks:read' },
  { path: '/app/api-keys', label: 'nav.apiKeys', scope: 'api_keys:read' },
];

const active = (path: string) => (path === '/app/' ? route.value.path === '/app/' : route.value.path.startsWith(path));

/** A role's first page: Today for managers, the orders board for the floor and the kitchen. */
export const homeOf = (): string => (can('analytics:read') ? '/app/' : NAV.slice(1).find((n) => can(n.scope))?.path ?? '/app/account');

export function OfflineBanner() {
  const status = live.status.value;
  if (status === 'online') return null;
  return (
    <div class={`live-banner live-${status}`} role="status" aria-live="polite">
      {status === 'offline' ? t('live.offline') : t('live.connecting')}
    </div>
  );
}

async function signOut() {
  // the feed first: the server ends this session's socket with "not signed in", and the feed
  // would answer that by sending the person to sign in again and come back here
  live.stop();
  try {
    await POST('/v1/auth/logout');
  } finally {
    // one render with both: signed out *and* on the sign-in page, so the next person starts at
    // their own home, not at the page the last one had open (?next=)
    batch(() => {
      navigate('/app/login');
      session.value = null;
    });
  }
}

export function Shell({ children }: { children: ComponentChildren }) {
  const s = session.value!;
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        {t('nav.skip')}
      </a>
      <header class="topbar">
        <div class="brand">
          <span class="brand-name">{s.restaurant.name}</span>
          <span class="brand-sub">comanda</span>
        </div>
        <div class="topbar-right">
          <a class="who" href="/app/account">
            {s.staff.name} · {t(`role.${s.role}` as Key)}
          </a>
          <button type="button" class="btn btn-quiet" onClick={signOut}>
            {t('nav.signOut')}
          </button>
        </div>
      </header>
      <nav class="sidenav" aria-label={t('nav.main')}>
        <ul>
          {NAV.filter((n) => can(n.scope)).map((n) => (
            <li key={n.path}>
              <a href={n.path} aria-current={active(n.path) ? 'page' : undefined}>
                {t(n.label)}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <OfflineBanner />
      <main id="main" class="content" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
