import { addDictionaries } from '../../lib/i18n.ts';
import { venueEn, type VenueKey } from './en.ts';

// the other languages of the venue texts
const de: Record<VenueKey, string> = {
  'settings.slug': 'Adresse in Gäste-Links',
  'settings.slugHint': 'Die Gästeseiten liegen unter {example}. Unter einer alten Adresse gedruckte Links funktionieren weiter.',
};
const fr: Record<VenueKey, string> = {
  'settings.slug': 'Adresse dans les liens clients',
  'settings.slugHint': 'Les pages clients sont à {example}. Les liens imprimés sous une ancienne adresse fonctionnent toujours.',
};
const es: Record<VenueKey, string> = {
  'settings.slug': 'Dirección en los enlaces para clientes',
  'settings.slugHint': 'Las páginas para clientes están en {example}. Los enlaces impresos con una dirección antigua siguen funcionando.',
};
const it: Record<VenueKey, string> = {
  'settings.slug': 'Indirizzo nei link per gli ospiti',
  'settings.slugHint': 'Le pagine per gli ospiti sono su {example}. I link stampati con un vecchio indirizzo continuano a funzionare.',
};

// back office only, like the ops texts
addDictionaries({ en: venueEn, de, fr, es, it });
