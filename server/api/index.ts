// Registers every route. Order matters only where a literal path shares a prefix with a
// parameter (e.g. /public/orders/active before /public/orders/:id).
import './meta/routes.ts';
import './settings/routes.ts';
import './stations/routes.ts';
import './menu-categories/routes.ts';
import './menu-items/routes.ts';
import './modifier-groups/routes.ts';
import './events/routes.ts';
