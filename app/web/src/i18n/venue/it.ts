import type { VenueKey } from './en.ts';

export const venueIt: Record<VenueKey, string> = {
  'analytics.change': '{n} rispetto al periodo precedente',
  'analytics.new': 'nuovo: niente nel periodo precedente',
  'analytics.noChange': 'niente in entrambi i periodi',
  'analytics.times': '{n} × il periodo precedente',
  'analytics.period': 'Periodo',
  'analytics.weekOf': 'Settimana del {date}',
  'analytics.trend.increasing': 'in crescita',
  'analytics.trend.decreasing': 'in calo',
  'analytics.trend.stable': 'stabile',
  'analytics.confidenceHint': 'L’affidabilità dice quanto le vendite delle ultime settimane seguono la linea di tendenza: vicino al 100 % sono regolari e la previsione è una buona guida; bassa quando le vendite variano molto o lo storico è ancora breve.',
  'settings.slug': 'Indirizzo nei link per gli ospiti',
  'stations.moveUp': 'Sposta {name} in su',
  'stations.moveDown': 'Sposta {name} in giù',
  'stations.order': 'Le postazioni nell’ordine della cucina: schermi e comande stampate lo seguono.',
  'menu.itemStation': 'Postazione',
  'menu.categoryStation': 'Come la sua categoria ({name})',
  'settings.slugHint': 'Le pagine per gli ospiti sono su {example}. I link stampati con un vecchio indirizzo continuano a funzionare.',
};
