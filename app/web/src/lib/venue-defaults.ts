/**
 * What a new venue most likely needs, guessed from its time zone's country: its currency and
 * the tax rate a restaurant's food bears there (a default for the menu; a dish or drink at
 * another rate is set on it). Shown at setup and editable there. Zones not listed keep 19 %.
 */
const BY_ZONE: Record<string, { currency: string; tax: number }> = {
  'Europe/Berlin': { currency: 'EUR', tax: 0.19 },
  'Europe/Vienna': { currency: 'EUR', tax: 0.1 },
  'Europe/Zurich': { currency: 'CHF', tax: 0.081 },
  'Europe/Paris': { currency: 'EUR', tax: 0.1 },
  'Europe/Madrid': { currency: 'EUR', tax: 0.1 },
  'Atlantic/Canary': { currency: 'EUR', tax: 0.07 },
  'Europe/Rome': { currency: 'EUR', tax: 0.1 },
  'Europe/Lisbon': { currency: 'EUR', tax: 0.13 },
  'Europe/Amsterdam': { currency: 'EUR', tax: 0.09 },
  'Europe/Brussels': { currency: 'EUR', tax: 0.12 },
  'Europe/Luxembourg': { currency: 'EUR', tax: 0.17 },
  'Europe/Dublin': { currency: 'EUR', tax: 0.135 },
  'Europe/London': { currency: 'GBP', tax: 0.2 },
  'Europe/Stockholm': { currency: 'SEK', tax: 0.12 },
  'Europe/Copenhagen': { currency: 'DKK', tax: 0.25 },
  'Europe/Oslo': { currency: 'NOK', tax: 0.25 },
  'Europe/Warsaw': { currency: 'PLN', tax: 0.08 },
  'Europe/Prague': { currency: 'CZK', tax: 0.12 },
  'Europe/Budapest': { currency: 'HUF', tax: 0.05 },
  'Asia/Tokyo': { currency: 'JPY', tax: 0.1 },
  'Australia/Sydney': { currency: 'AUD', tax: 0.1 },
  'Australia/Melbourne': { currency: 'AUD', tax: 0.1 },
  'America/Toronto': { currency: 'CAD', tax: 0.13 },
  'America/Vancouver': { currency: 'CAD', tax: 0.05 },
  'America/New_York': { currency: 'USD', tax: 0.08875 },
  'America/Chicago': { currency: 'USD', tax: 0.1025 },
  'America/Los_Angeles': { currency: 'USD', tax: 0.095 },
};

export function venueDefaults(zone: string): { currency: string | null; tax: number } {
  return BY_ZONE[zone] ?? { currency: null, tax: 0.19 };
}

/** Menu prices include the tax unless the currency is one whose guests expect it on top (the server's rule). */
export const pricesIncludeTaxFor = (currency: string) => !['USD', 'CAD'].includes(currency.toUpperCase());

/** A web address part made from a name: "Osteria Nuova" → osteria-nuova (as the hub makes one). */
export const slugFrom = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 50)
    .replace(/-+$/, '');
