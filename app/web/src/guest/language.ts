import { browserLanguage, LANGUAGES, type Language } from '../lib/i18n.ts';

/** The guest's language: the phone's first one the venue's pages speak, else the venue's own. */
export function guestLanguage(venue: string | undefined): void {
  const phone = (navigator.languages ?? [navigator.language]).map((l) => l.slice(0, 2).toLowerCase()).find((l) => (LANGUAGES as readonly string[]).includes(l));
  if (phone) browserLanguage.value = phone as Language;
  else if (venue && (LANGUAGES as readonly string[]).includes(venue)) browserLanguage.value = venue as Language;
}

/** A fresh Idempotency-Key: one per cart, so a resend on bad Wi-Fi never makes a second order. */
export const newKey = (): string =>
  (globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`);
