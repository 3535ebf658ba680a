/** The languages guest-facing texts are written in (notices, the contact mail). */
export const GUEST_LANGS = ['en', 'de', 'fr', 'es', 'it'] as const;
export type GuestLang = (typeof GUEST_LANGS)[number];

/** `de-AT`, `DE` and `de` all mean German; anything not offered falls back to English. */
export function guestLang(raw: string | undefined | null): GuestLang {
  const base = (raw ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return (GUEST_LANGS as readonly string[]).includes(base) ? (base as GuestLang) : 'en';
}
