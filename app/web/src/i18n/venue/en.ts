/** The venue's own settings (its address in guest links, station routing), in English (the reference). */
export const venueEn = {
  'analytics.change': '{n} vs. previous',
  'analytics.new': 'new: none in the previous period',
  'analytics.noChange': 'none in either period',
  'analytics.times': '{n} × the previous period',
  'analytics.period': 'Period',
  'analytics.weekOf': 'Week of {date}',
  'analytics.trend.increasing': 'rising',
  'analytics.trend.decreasing': 'falling',
  'analytics.trend.stable': 'steady',
  'analytics.confidenceHint': 'Confidence says how closely the past weeks’ sales follow the trend line: near 100 % they are regular and the forecast is a good guide; low when sales jump about or there is little history yet.',
  'settings.slug': 'Address in guest links',
  'stations.moveUp': 'Move {name} up',
  'stations.moveDown': 'Move {name} down',
  'stations.order': 'Stations in the order the kitchen runs them: screens and printed tickets follow it.',
  'menu.itemStation': 'Station',
  'menu.categoryStation': 'As its category ({name})',
  'settings.slugHint': 'Guest pages live at {example}. Links printed under an old address keep working.',
  "settings.lastSeating": "Last booking",
  "settings.lastSeating.sitting": "Ends by closing (a 90-minute sitting starts 90 minutes before)",
  "settings.lastSeating.open": "Any time up to closing",
  "settings.lastSeating.before": "{n} min before closing",
  "settings.lastSeatingHint": "The times the day book and booking widgets offer. Staff can still book a later time by hand.",
};

export type VenueKey = keyof typeof venueEn;
