import { computed, effect, signal } from '@preact/signals';
import type { Key } from '../i18n/keys.ts';
import { formatMessage } from './message.ts';
import { session } from './session.ts';

export type { Key };
export const LANGUAGES = ['en', 'de', 'fr', 'es', 'it'] as const;
export type Language = (typeof LANGUAGES)[number];
export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', de: 'Deutsch', fr: 'Français', es: 'Español', it: 'Italiano' };

type Dictionary = Partial<Record<Key, string>>;

/**
 * Each entry adds its own texts: the screens and guest pages all five languages of theirs
 * (`i18n/screens/index.ts`), the back office English and a loader per other language
 * (`i18n/back-office.ts`), so a tablet downloads only its reader's language.
 */
const DICTIONARIES: Record<Language, Dictionary> = { en: {}, de: {}, fr: {}, es: {}, it: {} };
/** the languages whose texts are here; read by `t`, so a page redraws when its language arrives */
const loaded = signal<ReadonlySet<Language>>(new Set());
const loaders: Partial<Record<Language, () => Promise<Dictionary>>> = {};
const loading = new Map<Language, Promise<void>>();

export function addDictionaries(more: Partial<Record<Language, Dictionary>>): void {
  for (const l of LANGUAGES) if (more[l]) Object.assign(DICTIONARIES[l], more[l]);
  loaded.value = new Set([...loaded.value, ...LANGUAGES.filter((l) => more[l])]);
}

/**
 * How to fetch the languages whose texts are not in the page (the back office's chunks). The
 * language read last on this device and the browser's are fetched at once, while the app asks
 * who is signed in: the session's answer then rarely waits for its texts.
 */
export function loadLanguagesWith(more: Partial<Record<Language, () => Promise<Dictionary>>>): void {
  Object.assign(loaders, more);
  const last = lastLanguage();
  if (isLanguage(last)) void loadLanguage(last);
  void loadLanguage(language.peek());
}

/** Fetches a language's texts once; if that fails the page shows English (the fallback) until reloaded. */
function loadLanguage(l: Language): Promise<void> {
  const load = loaders[l];
  if (loaded.peek().has(l) || !load) return Promise.resolve();
  let p = loading.get(l);
  if (!p) {
    p = load().then(
      (d) => addDictionaries({ [l]: d }),
      () => addDictionaries({ [l]: {} }),
    );
    loading.set(l, p);
  }
  return p;
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

/** Whether the reader's language is here: until then a page shows Loading rather than English. */
export const languageReady = computed(() => loaded.value.has(language.value) || !loaders[language.value]);

const LAST = 'comanda.language';
function lastLanguage(): string | null {
  try {
    return localStorage.getItem(LAST);
  } catch {
    return null;
  }
}

effect(() => {
  const l = language.value;
  document.documentElement.lang = l;
  void loadLanguage(l);
  if (session.value === undefined) return;
  try {
    localStorage.setItem(LAST, l);
  } catch {
    // storage refused (private mode): the next load fetches the language after the session
  }
});

/** The text of `key` in the current language; `{name}` placeholders filled from vars. */
export function t(key: Key, vars?: Record<string, string | number>): string {
  void loaded.value;
  const text = DICTIONARIES[language.value][key] ?? DICTIONARIES.en[key] ?? key;
  return formatMessage(text, vars, language.value);
}
