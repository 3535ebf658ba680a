import type { VenueKey } from './en.ts';

export const venueFr: Record<VenueKey, string> = {
  'analytics.change': '{n} par rapport à la période précédente',
  'analytics.new': 'nouveau : rien sur la période précédente',
  'analytics.noChange': 'rien sur les deux périodes',
  'analytics.times': '{n} × la période précédente',
  'analytics.period': 'Période',
  'analytics.weekOf': 'Semaine du {date}',
  'analytics.trend.increasing': 'en hausse',
  'analytics.trend.decreasing': 'en baisse',
  'analytics.trend.stable': 'stable',
  'analytics.confidenceHint': 'La fiabilité dit à quel point les ventes des dernières semaines suivent la tendance : proche de 100 %, elles sont régulières et la prévision est un bon repère ; basse quand les ventes varient beaucoup ou que l’historique est encore court.',
  'settings.slug': 'Adresse dans les liens clients',
  'stations.moveUp': 'Monter {name}',
  'stations.moveDown': 'Descendre {name}',
  'stations.order': 'Les postes dans l’ordre de la cuisine : écrans et tickets imprimés le suivent.',
  'menu.itemStation': 'Poste',
  'menu.categoryStation': 'Comme sa catégorie ({name})',
  'settings.slugHint': 'Les pages clients sont à {example}. Les liens imprimés sous une ancienne adresse fonctionnent toujours.',
};
