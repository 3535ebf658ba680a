import type { VenueKey } from './en.ts';

export const venueDe: Record<VenueKey, string> = {
  'analytics.change': '{n} ggü. Vorzeitraum',
  'analytics.new': 'neu: nichts im Vorzeitraum',
  'analytics.noChange': 'in beiden Zeiträumen nichts',
  'analytics.times': '{n}-mal so viel wie im Vorzeitraum',
  'analytics.period': 'Zeitraum',
  'analytics.weekOf': 'Woche ab {date}',
  'analytics.trend.increasing': 'steigend',
  'analytics.trend.decreasing': 'fallend',
  'analytics.trend.stable': 'gleichbleibend',
  'analytics.confidenceHint': 'Die Sicherheit sagt, wie genau der Umsatz der letzten Wochen der Trendlinie folgt: nahe 100 % ist er regelmäßig und die Prognose ein guter Anhalt; niedrig, wenn der Umsatz stark schwankt oder es noch wenig Verlauf gibt.',
  'settings.slug': 'Adresse in Gäste-Links',
  'stations.moveUp': '{name} nach oben',
  'stations.moveDown': '{name} nach unten',
  'stations.order': 'Stationen in der Reihenfolge der Küche: Bildschirme und gedruckte Bons folgen ihr.',
  'menu.itemStation': 'Station',
  'menu.categoryStation': 'Wie die Kategorie ({name})',
  'settings.slugHint': 'Die Gästeseiten liegen unter {example}. Unter einer alten Adresse gedruckte Links funktionieren weiter.',
};
