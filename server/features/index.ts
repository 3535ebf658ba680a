import type { Feature } from './feature.ts';
import { venueFeature } from './venue.ts';

import { ordersFeature } from './orders.ts';

import { reservationsFeature } from './reservations.ts';

import { guestFeature } from './guest.ts';

import { webhooksFeature } from './webhooks.ts';

import { analyticsFeature } from './analytics.ts';

import { realtimeFeature } from './realtime.ts';

import { printersFeature } from './printers.ts';

import { syncFeature } from '../../sync/feature.ts';
import { operatorFeature } from './operator.ts';

/** Every feature of a server, in the order their hooks run and their parts install. */
export const features: Feature[] = [
  venueFeature,
  ordersFeature,
  reservationsFeature,
  guestFeature,
  webhooksFeature,
  analyticsFeature,
  realtimeFeature,
  printersFeature,
  syncFeature,
  operatorFeature,
];
