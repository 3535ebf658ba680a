/** The venue's own settings (its address in guest links, station routing), in English (the reference). */
export const venueEn = {
  'settings.slug': 'Address in guest links',
  'stations.moveUp': 'Move {name} up',
  'stations.moveDown': 'Move {name} down',
  'stations.order': 'Stations in the order the kitchen runs them: screens and printed tickets follow it.',
  'menu.itemStation': 'Station',
  'menu.categoryStation': 'As its category ({name})',
  'settings.slugHint': 'Guest pages live at {example}. Links printed under an old address keep working.',
};

export type VenueKey = keyof typeof venueEn;
