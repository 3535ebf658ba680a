import { describe, expect, it } from 'vitest';
import { screensTexts } from '../../app/web/src/i18n/screens/index.ts';
import { TAX_WORDS } from '../../server/domain/printers/documents.ts';

/**
 * Tax is said one way per language on every surface (issue 41.14): the guest's status page, the
 * tablet's check and the order page take `tax.included` / `tax.onTop`, and the printed receipt
 * (in English) the same English words.
 */
describe('tax wording', () => {
  it('is the same on the receipt as on the screens', () => {
    expect(TAX_WORDS).toEqual({ included: screensTexts.en['tax.included'], onTop: screensTexts.en['tax.onTop'] });
  });

  it('tells "included" from "on top" in every language', () => {
    for (const [lang, texts] of Object.entries(screensTexts)) {
      expect(texts['tax.included'], lang).not.toBe(texts['tax.onTop']);
      expect(texts['tax.included'].trim(), lang).not.toBe('');
    }
  });
});
