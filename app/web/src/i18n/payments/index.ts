import { addDictionaries } from '../../lib/i18n.ts';
import { payDe } from './de.ts';
import { payEn } from './en.ts';
import { payEs } from './es.ts';
import { payFr } from './fr.ts';
import { payIt } from './it.ts';

// imported by the back office's app only (and the order entry that reuses the payment dialog)
addDictionaries({ en: payEn, de: payDe, fr: payFr, es: payEs, it: payIt });
