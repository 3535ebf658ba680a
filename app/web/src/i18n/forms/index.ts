import { addDictionaries } from '../../lib/i18n.ts';
import { formsDe } from './de.ts';
import { formsEn } from './en.ts';
import { formsEs } from './es.ts';
import { formsFr } from './fr.ts';
import { formsIt } from './it.ts';

// the back office's table and form dialog texts, imported by its app only
addDictionaries({ en: formsEn, de: formsDe, fr: formsFr, es: formsEs, it: formsIt });
