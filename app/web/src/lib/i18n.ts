import { computed, effect, signal } from '@preact/signals';
import { de } from '../i18n/de.ts';
import { en, type Key as BackOfficeKey } from '../i18n/en.ts';
import { es } from '../i18n/es.ts';
import { fr } from '../i18n/fr.ts';
import { it } from '../i18n/it.ts';
import type { OpsKey } from '../i18n/ops/en.ts';
import { screensDe } from '../i18n/screens/de.ts';
import { screensEn, type ScreensKey } from '../i18n/screens/en.ts';
import { screensEs } from '../i18n/screens/es.ts';
import { screensFr } from '../i18n/screens/fr.ts';
import { screensIt } from '../i18n/screens/it.ts';
import { session } from './session.ts';

/** The back office's keys, those of the kitchen screens and guest pages (i18n/screens/*) and of sync, backups, mail and printers (i18n/ops/*). */
export type Key = BackOfficeKey | ScreensKey | OpsKey;
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', it: 'Italiano' };

// the ops texts (i18n/ops/*) join through addTexts when the back office loads
const DICTIONARIES: Record<Language, Record<string, string>> = {
  en: { ...en, ...screensEn },
  de: { ...de, ...screensDe },
  fr: { ...fr, ...screensFr },
  es: { ...es, ...screensEs },
  it: { ...it, ...screensIt },
};

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

/**
 * Texts only the back office uses, added by its entry (i18n/ops/index.ts) so the guest pages
 * and screens, which share this module, do not carry them.
 */
export function addTexts(more: Record<Language, Record<string, string>>): void {
  for (const l of LANGUAGES) Object.assign(DICTIONARIES[l], more[l]);
}

/** The text of `key` in the current language; `{name}` placeholders filled from vars. */
export function t(key: Key, vars?: Record<string, string | number>): string {
  const text = (DICTIONARIES[language.value][key] ?? DICTIONARIES.en[key]) as string;
  return vars ? text.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? `{${k}}`)) : text;
}
