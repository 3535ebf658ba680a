import { expandables as menuItems } from '../api/menu-items/routes.ts';
import { expandables as menuCategories } from '../api/menu-categories/routes.ts';
import { expandables as modifierGroups } from '../api/modifier-groups/routes.ts';
import { expandables as shifts } from '../api/shifts/routes.ts';
import { expandables as staff } from '../api/staff/routes.ts';
import { expandables as tables } from '../api/tables/routes.ts';
import { devicesFeed, menuFeed, stationsFeed } from '../realtime/feeds.ts';
import type { Feature } from './feature.ts';

/**
 * The venue's setup, which the other features point at: menu, floor, staff, stations and
 * paired screens. Only data: what of it expands in the API, and what the live feed shows.
 */
export const venueFeature: Feature = {
  name: 'venue',
  expandables: { ...menuItems, ...menuCategories, ...modifierGroups, ...tables, ...staff, ...shifts },
  realtimeFeeds: [stationsFeed, devicesFeed, menuFeed],
};
