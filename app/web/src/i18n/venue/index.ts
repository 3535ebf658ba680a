import { addDictionaries } from '../../lib/i18n.ts';
import { venueEn, type VenueKey } from './en.ts';

// the other languages of the venue texts
const de: Record<VenueKey, string> = {
  'settings.slug': 'Adresse in Gäste-Links',
  'stations.moveUp': '{name} nach oben',
  'stations.moveDown': '{name} nach unten',
  'stations.order': 'Stationen in der Reihenfolge der Küche: Bildschirme und gedruckte Bons folgen ihr.',
  'menu.itemStation': 'Station',
  'menu.categoryStation': 'Wie die Kategorie ({name})',
  'settings.slugHint': 'Die Gästeseiten liegen unter {example}. Unter einer alten Adresse gedruckte Links funktionieren weiter.',
};
const fr: Record<VenueKey, string> = {
  'settings.slug': 'Adresse dans les liens clients',
  'stations.moveUp': 'Monter {name}',
  'stations.moveDown': 'Descendre {name}',
  'stations.order': 'Les postes dans l’ordre de la cuisine : écrans et tickets imprimés le suivent.',
  'menu.itemStation': 'Poste',
  'menu.categoryStation': 'Comme sa catégorie ({name})',
  'settings.slugHint': 'Les pages clients sont à {example}. Les liens imprimés sous une ancienne adresse fonctionnent toujours.',
};
const es: Record<VenueKey, string> = {
  'settings.slug': 'Dirección en los enlaces para clientes',
  'stations.moveUp': 'Subir {name}',
  'stations.moveDown': 'Bajar {name}',
  'stations.order': 'Las estaciones en el orden de la cocina: pantallas y comandas impresas lo siguen.',
  'menu.itemStation': 'Estación',
  'menu.categoryStation': 'Como su categoría ({name})',
  'settings.slugHint': 'Las páginas para clientes están en {example}. Los enlaces impresos con una dirección antigua siguen funcionando.',
};
const it: Record<VenueKey, string> = {
  'settings.slug': 'Indirizzo nei link per gli ospiti',
  'stations.moveUp': 'Sposta {name} in su',
  'stations.moveDown': 'Sposta {name} in giù',
  'stations.order': 'Le postazioni nell’ordine della cucina: schermi e comande stampate lo seguono.',
  'menu.itemStation': 'Postazione',
  'menu.categoryStation': 'Come la sua categoria ({name})',
  'settings.slugHint': 'Le pagine per gli ospiti sono su {example}. I link stampati con un vecchio indirizzo continuano a funzionare.',
};

// back office only, like the ops texts
addDictionaries({ en: venueEn, de, fr, es, it });
