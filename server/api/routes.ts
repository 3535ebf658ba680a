// Every route of the API, in the order they are matched. Order matters only where a literal
// path shares a prefix with a parameter: a literal comes first (/public/orders/active before
// /public/orders/:id). Each file exports its `routes`; a route not listed here does not exist,
// and this list is also the source of the OpenAPI document and /docs.
import type { RouteSpec } from '../http/route.ts';
import { metaRoutes } from './meta/routes.ts';
import { routes as settings } from './settings/routes.ts';
import { routes as stations } from './stations/routes.ts';
import { routes as menuCategories } from './menu-categories/routes.ts';
import { routes as menuItems } from './menu-items/routes.ts';
import { routes as modifierGroups } from './modifier-groups/routes.ts';
import { routes as events } from './events/routes.ts';
import { routes as orders } from './orders/routes.ts';
import { routes as service } from './orders/service-routes.ts';
import { routes as publicOrders } from './orders/public-routes.ts';
import { routes as qrCodes } from './orders/qr-codes.ts';
import { routes as guestQr } from './orders/guest-qr.ts';
import { routes as payments } from './payments/routes.ts';
import { routes as dayClose } from './payments/close.routes.ts';
import { routes as balance } from './payments/balance.routes.ts';
import { routes as tables } from './tables/routes.ts';
import { routes as availability } from './reservations/availability.ts';
import { routes as reservations } from './reservations/routes.ts';
import { routes as publicWaitlist } from './guest/public-waitlist.ts';
import { routes as staffWaitlist } from './guest/staff-waitlist.ts';
import { routes as feedback } from './guest/feedback.ts';
import { routes as guestPricing } from './guest/pricing.ts';
import { routes as guestContact } from './guest/contact.ts';
import { routes as webhooks } from './webhooks/routes.ts';
import { routes as analytics } from './analytics/reports.ts';
import { routes as customers } from './customers/routes.ts';
import { routes as staff } from './staff/routes.ts';
import { routes as shifts } from './shifts/routes.ts';
import { routes as inventoryItems } from './inventory-items/routes.ts';
import { routes as printers } from './printers/printers.routes.ts';
import { routes as printJobs } from './printers/jobs.routes.ts';
import { routes as receipts } from './printers/receipt.routes.ts';
import { routes as sync } from './sync/routes.ts';
import { routes as cloudSync } from './sync/cloud-routes.ts';
import { routes as auth } from './auth/routes.ts';
import { routes as pinAuth } from './auth/pin-routes.ts';
import { routes as homes } from './homes/routes.ts';
import { routes as apiKeys } from './api-keys/routes.ts';
import { routes as system } from './system/routes.ts';
import { routes as devices } from './devices/routes.ts';

export const routes: readonly RouteSpec[] = [
  ...metaRoutes(() => routes),
  ...settings,
  ...stations,
  ...menuCategories,
  ...menuItems,
  ...modifierGroups,
  ...events,
  ...orders,
  ...service,
  ...publicOrders,
  ...qrCodes,
  ...guestQr,
  ...payments,
  ...dayClose,
  ...balance,
  ...tables,
  ...availability,
  ...reservations,
  ...publicWaitlist,
  ...staffWaitlist,
  ...feedback,
  ...guestPricing,
  ...guestContact,
  ...webhooks,
  ...analytics,
  ...customers,
  ...staff,
  ...shifts,
  ...inventoryItems,
  ...printers,
  ...printJobs,
  ...receipts,
  ...sync,
  ...cloudSync,
  ...auth,
  ...pinAuth,
  ...homes,
  ...apiKeys,
  ...system,
  ...devices,
];
