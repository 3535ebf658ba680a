/** The venue's own settings (its address in guest links, station routing), in English (the reference). */
export const venueEn = {
  'settings.slug': 'Address in guest links',
  'settings.slugHint': 'Guest pages live at {example}. Links printed under an old address keep working.',
};

export type VenueKey = keyof typeof venueEn;
