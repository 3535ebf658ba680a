import { describe, expect, it } from 'vitest';
import { de as deBackOffice } from '../../app/web/src/i18n/de.ts';
import { en } from '../../app/web/src/i18n/en.ts';
import { es } from '../../app/web/src/i18n/es.ts';
import { fr } from '../../app/web/src/i18n/fr.ts';
import { it as itDict } from '../../app/web/src/i18n/it.ts';
import { opsDe } from '../../app/web/src/i18n/ops/de.ts';
import { opsEn } from '../../app/web/src/i18n/ops/en.ts';
import { opsEs } from '../../app/web/src/i18n/ops/es.ts';
import { opsFr } from '../../app/web/src/i18n/ops/fr.ts';
import { opsIt } from '../../app/web/src/i18n/ops/it.ts';
import { screensDe } from '../../app/web/src/i18n/screens/de.ts';
import { screensEn } from '../../app/web/src/i18n/screens/en.ts';
import { screensEs } from '../../app/web/src/i18n/screens/es.ts';
import { screensFr } from '../../app/web/src/i18n/screens/fr.ts';
import { screensIt } from '../../app/web/src/i18n/screens/it.ts';
import { formsDe } from '../../app/web/src/i18n/forms/de.ts';
import { formsEn } from '../../app/web/src/i18n/forms/en.ts';
import { formsEs } from '../../app/web/src/i18n/forms/es.ts';
import { formsFr } from '../../app/web/src/i18n/forms/fr.ts';
import { formsIt } from '../../app/web/src/i18n/forms/it.ts';
import { formatMessage } from '../../app/web/src/lib/message.ts';

const DICTS: Record<string, Record<string, string>> = {
  en: { ...en, ...screensEn, ...opsEn, ...formsEn },
  de: { ...deBackOffice, ...screensDe, ...opsDe, ...formsDe },
  fr: { ...fr, ...screensFr, ...opsFr, ...formsFr },
  es: { ...es, ...screensEs, ...opsEs, ...formsEs },
  it: { ...itDict, ...screensIt, ...opsIt, ...formsIt },
};

describe('texts with numbers', () => {
  it('pick the singular or plural by the language’s rules', () => {
    const text = DICTS.en!['reservations.count']!;
    expect(formatMessage(text, { n: 1, guests: 2 }, 'en')).toBe('1 booking, 2 guests');
    expect(formatMessage(text, { n: 3, guests: 1 }, 'en')).toBe('3 bookings, 1 guest');
    expect(formatMessage(DICTS.de!['reservations.count']!, { n: 1, guests: 1 }, 'de')).toBe('1 Buchung, 1 Gast');
    // French counts 0 as singular
    expect(formatMessage(DICTS.fr!['analytics.shifts']!, { n: 0 }, 'fr')).toBe('0 service');
    expect(formatMessage('{n, plural, =0 {none} one {# left} other {# left}}', { n: 0 }, 'en')).toBe('none');
    expect(formatMessage('Table {n}', { n: 12 }, 'en')).toBe('Table 12');
  });

  it('a refused field is told in each language’s words and plurals', () => {
    expect(formatMessage(DICTS.en!['form.tooLong']!, { max: 1 }, 'en')).toBe('At most 1 character');
    expect(formatMessage(DICTS.en!['form.tooLong']!, { max: 200 }, 'en')).toBe('At most 200 characters');
    expect(formatMessage(DICTS.es!['form.tooShort']!, { min: 1 }, 'es')).toBe('Al menos 1 carácter');
    expect(formatMessage(DICTS.de!['form.atLeast']!, { min: 2 }, 'de')).toBe('Muss mindestens 2 sein');
  });

  it('every text of every language fills in whole: no placeholder or plural syntax left on a page', () => {
    for (const [lang, dict] of Object.entries(DICTS)) {
      for (const [key, text] of Object.entries(dict)) {
        const names = [...new Set([...text.matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]!))];
        for (const n of [0, 1, 2, 5]) {
          const out = formatMessage(text, Object.fromEntries(names.map((x) => [x, n])), lang);
          expect(out, `${lang} ${key}`).not.toMatch(/[{}]|\bplural\b/);
        }
        // the same placeholders as the English text: a translation cannot drop the number
        const enNames = [...new Set([...(DICTS.en![key] ?? '').matchAll(/\{(\w+)[,}]/g)].map((m) => m[1]!))];
        if (DICTS.en![key] !== undefined) expect(names.sort(), `${lang} ${key}`).toEqual(enNames.sort());
      }
    }
  });

  it('no text asks the reader to work out a plural with brackets', () => {
    for (const [lang, dict] of Object.entries(DICTS)) for (const [key, text] of Object.entries(dict)) expect(text, `${lang} ${key}`).not.toMatch(/\w\((s|e|en|es|ies|i)\)|\w\/-|\/e\b/);
  });
});
