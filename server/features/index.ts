import type { Feature } from './feature.ts';
import { ordersFeature } from './orders.ts';

import { reservationsFeature } from './reservations.ts';

import { guestFeature } from './guest.ts';

import { webhooksFeature } from './webhooks.ts';

import { analyticsFeature } from './analytics.ts';

import { realtimeFeature } from './realtime.ts';

import { printersFeature } from './printers.ts';

import { syncFeature } from '../../sync/feature.ts';
import { operatorFeature } from './operator.ts';

export const features: Feature[] = [
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
