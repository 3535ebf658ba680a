import { computed, effect, signal } from '@preact/signals';
import type { Key as BackOfficeKey } from '../i18n/en.ts';
import type { OpsKey } from '../i18n/ops/en.ts';
import type { PayKey } from '../i18n/payments/en.ts';
import type { ServiceKey } from '../i18n/service/en.ts';
import type { FirstDayKey } from '../i18n/first-day/en.ts';
import type { VenueKey } from '../i18n/venue/en.ts';
import type { FormsKey } from '../i18n/forms/en.ts';
import { screensDe } from '../i18n/screens/de.ts';
import { screensEn, type ScreensKey } from '../i18n/screens/en.ts';
import { screensEs } from '../i18n/screens/es.ts';
import { screensFr } from '../i18n/screens/fr.ts';
import { screensIt } from '../i18n/screens/it.ts';
import { formatMessage } from './message.ts';
import { session } from './session.ts';

/** The back office's keys (with its sync, backups, mail and printers texts, i18n/ops/*) and those of the kitchen screens and guest pages (i18n/screens/*). */
export type Key = BackOfficeKey | ScreensKey | OpsKey | ServiceKey | PayKey | FirstDayKey | VenueKey | FormsKey;
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', it: 'Italiano' };

/**
 * The screens' and guest pages' texts are always here; the back office adds its own
 * (`i18n/back-office.ts`, imported by its entry alone), so a guest's phone never downloads them.
 */
const DICTIONARIES: Record<Language, Partial<Record<Key, string>>> = {
  en: { ...screensEn },
  de: { ...screensDe },
  fr: { ...screensFr },
  es: { ...screensEs },
  it: { ...screensIt },
};

export function addDictionaries(more: Record<Language, Partial<Record<Key, string>>>): void {
  for (const l of LANGUAGES) Object.assign(DICTIONARIES[l], more[l]);
}

const isLanguage = (l: string | null | undefined): l is Language => !!l && (LANGUAGES as readonly string[]).includes(l);

/** Before sign-in (login, setup): the browser's language, else English. */
export const browserLanguage = signal<Language>(
  (navigator.languages ?? [navigator.language]).map((l) => l.slice(0, 2)).find(isLanguage) ?? 'en',
);

/** The staff member's own choice, else the restaurant's setting. */
export const language = computed<Language>(() => {
  const s = session.value;
  if (s && isLanguage(s.staff.language)) return s.staff.language;
  if (s && isLanguage(s.restaurant.language)) return s.restaurant.language;
  return browserLanguage.value;
});

effect(() => {
  document.documentElement.lang = language.value;
});

/** The text of `key` in the current language; `{name}` placeholders filled from vars. */
export function t(key: Key, vars?: Record<string, string | number>): string {
  const text = DICTIONARIES[language.value][key] ?? DICTIONARIES.en[key] ?? key;
  return formatMessage(text, vars, language.value);
}
