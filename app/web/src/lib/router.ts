import { signal } from '@preact/signals';

/** The page shown: the path under /app and its query, kept in step with the address bar. */
export const route = signal({ path: location.pathname, search: location.search });

export function navigate(to: string, replace = false): void {
  if (to === location.pathname + location.search) return;
  history[replace ? 'replaceState' : 'pushState'](null, '', to);
  route.value = { path: location.pathname, search: location.search };
  document.querySelector<HTMLElement>('main h1')?.focus?.();
}

addEventListener('popstate', () => {
  route.value = { path: location.pathname, search: location.search };
});

/** Client-side links: a plain <a href> that the router takes over for an ordinary click. */
export function onLinkClick(e: MouseEvent): void {
  const a = (e.target as Element).closest('a');
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || a.target || a.hasAttribute('download')) return;
  // in-page anchors (the skip link) stay the browser's
  if (a.getAttribute('href')?.startsWith('#')) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith('/app/')) return;
  e.preventDefault();
  navigate(url.pathname + url.search);
}

export const queryParam = (name: string): string | null => new URLSearchParams(route.value.search).get(name);
