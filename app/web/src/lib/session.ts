import { computed, signal } from '@preact/signals';
import type { components } from './api.gen.ts';
import { GET } from './client.ts';

export type Session = components['schemas']['Session'];

/** undefined: not known yet; null: nobody signed in. */
export const session = signal<Session | null | undefined>(undefined);

const scopes = computed(() => new Set(session.value?.scopes ?? []));
/** What the role allows: the same scopes the API checks, so the menu never offers a refusal. */
export const can = (scope: string): boolean => scopes.value.has(scope);

/** The page-readable half of a session's cookies: set and cleared with the session cookie itself. */
export const mayBeSignedIn = () => document.cookie.split(/;\s*/).some((c) => c.startsWith('comanda_csrf=') && c.length > 'comanda_csrf='.length);

export async function loadSession(): Promise<Session | null> {
  // nobody signed in on this browser: no probe (a 401 in every sign-in page's console)
  if (!mayBeSignedIn()) return (session.value = null);
  try {
    session.value = await GET('/v1/auth/session');
  } catch {
    session.value = null;
  }
  return session.value;
}
