import { describe, expect, it } from 'vitest';
import { dictionary as de } from '../../app/web/src/i18n/languages/de.ts';
import { dictionary as en } from '../../app/web/src/i18n/languages/en.ts';
import { dictionary as es } from '../../app/web/src/i18n/languages/es.ts';
import { dictionary as fr } from '../../app/web/src/i18n/languages/fr.ts';
import { dictionary as itDict } from '../../app/web/src/i18n/languages/it.ts';
import { formatMessage } from '../../app/web/src/lib/message.ts';

// each language's texts as the back office loads them (its chunk: screens, back office, ops, service, payments, …)
const DICTS: Record<string, Record<string, string>> = { en, de, fr, es, it: itDict };

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
