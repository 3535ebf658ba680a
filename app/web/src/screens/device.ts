import { signal } from '@preact/signals';
import { setApiKey } from '../lib/api.ts';
import type { components } from '../lib/api.gen.ts';
import { GET } from '../lib/client.ts';
import { browserLanguage, type Language, LANGUAGES } from '../lib/i18n.ts';
import { live } from '../lib/live.ts';

/** What a paired tablet keeps in its browser: the widget key made for it and what it was paired as. */
export interface Device {
  key: string;
  id: string;
  name: string;
  station: string | null;
  restaurant: string;
}

export type ScreenConfig = components['schemas']['ScreenConfig'];
export type ScreenStation = ScreenConfig['stations'][number];

const STORE = 'comanda.device';

export function storedDevice(): Device | null {
  try {
    const d = JSON.parse(localStorage.getItem(STORE) ?? 'null') as Device | null;
    return d && typeof d.key === 'string' ? d : null;
  } catch {
    return null;
  }
}

export function storeDevice(d: Device | null): void {
  if (d) localStorage.setItem(STORE, JSON.stringify(d));
  else localStorage.removeItem(STORE);
}

/** Set when the hub refused the device's key: it was unpaired in Settings. */
export const unpaired = signal(false);
export const config = signal<ScreenConfig | null>(null);

/**
 * Signs the page's API calls and its live feed in with the device's key, and loads what the
 * screens show around the orders (station colours, table numbers, server names). The screen
 * speaks the restaurant's language.
 */
export async function startDevice(d: Device): Promise<ScreenConfig> {
  setApiKey(d.key);
  live.authWith({ key: d.key }, () => (unpaired.value = true));
  const c = await GET('/public/screens/config');
  if ((LANGUAGES as readonly (string | null)[]).includes(c.restaurant.language)) browserLanguage.value = c.restaurant.language as Language;
  config.value = c;
  followStations();
  return c;
}

let following: (() => void) | null = null;
const readConfig = () => void GET('/public/screens/config').then((c) => (config.value = c), () => {});
const askedFor = new Set<string>();

/**
 * A staff member's name as the screens show it. Someone added since the screen read its config
 * (a server hired today sending their first round) has the config read again, once per person.
 */
export function staffName(id: string | null): string | null {
  if (!id) return null;
  const c = config.value;
  const found = c?.staff.find((s) => s.id === id);
  if (!found && c && !askedFor.has(id)) {
    askedFor.add(id);
    readConfig();
  }
  return found?.name ?? null;
}

/**
 * A station renamed, reordered or given new ticket colours in Settings reaches the open screens
 * at once (the `stations` topic of /realtime): the screen reads its config again, which lists
 * the active stations in the kitchen's order.
 */
function followStations(): void {
  following?.();
  following = live.listen(['stations'], (m) => m.type === 'station' && readConfig(), readConfig);
}
