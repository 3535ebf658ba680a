import { addDictionaries } from '../../lib/i18n.ts';
import { opsDe } from './de.ts';
import { opsEn } from './en.ts';
import { opsEs } from './es.ts';
import { opsFr } from './fr.ts';
import { opsIt } from './it.ts';

// imported by the back office's app only: the guest pages and screens never load these texts
addDictionaries({ en: opsEn, de: opsDe, fr: opsFr, es: opsEs, it: opsIt });
