import { addDictionaries, loadLanguagesWith } from '../lib/i18n.ts';
import { dictionary as en } from './languages/en.ts';

// The back office's texts, added by its entry alone (the screens and guest pages stay small).
// English is here, as the fallback of a text a language lacks; each other language is a chunk
// of its own, fetched when a reader of it signs in (five languages were most of the first load).
addDictionaries({ en });
loadLanguagesWith({
  de: () => import('./languages/de.ts').then((m) => m.dictionary),
  fr: () => import('./languages/fr.ts').then((m) => m.dictionary),
  es: () => import('./languages/es.ts').then((m) => m.dictionary),
  it: () => import('./languages/it.ts').then((m) => m.dictionary),
});
