// Registers every route. Order matters only where a literal path shares a prefix with a
// parameter (e.g. /public/orders/active before /public/orders/:id).
import './meta/routes.ts';
import './settings/routes.ts';
import './stations/routes.ts';
import './menu-categories/routes.ts';
import './menu-items/routes.ts';
import './modifier-groups/routes.ts';
import './events/routes.ts';

import './orders/index.ts';
import './payments/index.ts';

import './reservations/index.ts';

import './guest/index.ts';

import './webhooks/index.ts';

import './analytics/index.ts';

import './printers/index.ts';
import './sync/routes.ts';

import './auth/routes.ts';
import './auth/pin-routes.ts';
import './api-keys/routes.ts';

import './system/routes.ts';
import './devices/routes.ts';
