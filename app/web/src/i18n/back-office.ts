import { addDictionaries } from '../lib/i18n.ts';
import { de } from './de.ts';
import { en } from './en.ts';
import { es } from './es.ts';
import { fr } from './fr.ts';
import { it } from './it.ts';

// the back office's texts, added by its entry alone (the screens and guest pages stay small)
addDictionaries({ en, de, fr, es, it });
