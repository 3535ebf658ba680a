import type { VenueKey } from './en.ts';

export const venueEs: Record<VenueKey, string> = {
  'analytics.change': '{n} respecto al periodo anterior',
  'analytics.new': 'nuevo: nada en el periodo anterior',
  'analytics.noChange': 'nada en ninguno de los dos periodos',
  'analytics.times': '{n} × el periodo anterior',
  'analytics.period': 'Periodo',
  'analytics.weekOf': 'Semana del {date}',
  'analytics.trend.increasing': 'al alza',
  'analytics.trend.decreasing': 'a la baja',
  'analytics.trend.stable': 'estable',
  'analytics.confidenceHint': 'La fiabilidad indica cuánto siguen las ventas de las últimas semanas la línea de tendencia: cerca del 100 % son regulares y la previsión es una buena guía; baja cuando las ventas varían mucho o aún hay poco historial.',
  'settings.slug': 'Dirección en los enlaces para clientes',
  'stations.moveUp': 'Subir {name}',
  'stations.moveDown': 'Bajar {name}',
  'stations.order': 'Las estaciones en el orden de la cocina: pantallas y comandas impresas lo siguen.',
  'menu.itemStation': 'Estación',
  'menu.categoryStation': 'Como su categoría ({name})',
  'settings.slugHint': 'Las páginas para clientes están en {example}. Los enlaces impresos con una dirección antigua siguen funcionando.',
};
