import type { BenchScenario } from '../scenario.ts';
import { scenarios as foundation } from './foundation.ts';

import { scenarios as orders } from './orders.ts';

import { scenarios as reservations } from './reservations.ts';

import { scenarios as guest } from './guest.ts';

import { scenarios as webhooks } from './webhooks.ts';

import { scenarios as analytics } from './analytics.ts';

import { scenarios as realtime } from './realtime.ts';

import { scenarios as printers } from './printers.ts';

import { scenarios as sync } from './sync.ts';
import { scenarios as screens } from './screens.ts';
import { scenarios as money } from './money.ts';

export const allScenarios: BenchScenario[] = [
  ...foundation,
  ...orders,
  ...reservations,
  ...guest,
  ...webhooks,
  ...analytics,
  ...realtime,
  ...printers,
  ...sync,
  ...screens,
  ...money,
];
