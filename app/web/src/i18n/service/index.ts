import { addDictionaries } from '../../lib/i18n.ts';
import { serviceDe } from './de.ts';
import { serviceEn } from './en.ts';
import { serviceEs } from './es.ts';
import { serviceFr } from './fr.ts';
import { serviceIt } from './it.ts';

// order entry's texts, added by the back office's app (the guest pages and screens never load them)
addDictionaries({ en: serviceEn, de: serviceDe, fr: serviceFr, es: serviceEs, it: serviceIt });
