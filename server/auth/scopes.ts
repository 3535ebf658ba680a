/** Every scope a key can hold. The spec's table plus the ones this project's resources add. */
export const SCOPES = [
  'orders:read',
  'orders:write',
  'menu:read',
  'menu:write',
  'reservations:read',
  'reservations:write',
  'analytics:read',
  'events:read',
  'settings:read',
  'settings:write',
  'tables:read',
  'tables:write',
  'webhooks:read',
  'webhooks:write',
  'waitlist:read',
  'waitlist:write',
  'feedback:read',
  'customers:read',
  'customers:write',
  'staff:read',
  'staff:write',
  'inventory:read',
  'inventory:write',
  'printers:read',
  'printers:write',
  // payments (issue 25): read and take them; manage: refunds, cash counts and the day's close
  'payments:read',
  'payments:write',
  'payments:manage',
  // the keys themselves (/v1/api_keys): only an owner's session holds these by default
  'api_keys:read',
  'api_keys:write',
  // where and whether the hub writes its backups (a folder on the hub PC): the owner's decision
  'backups:write',
] as const;

export type Scope = (typeof SCOPES)[number];

/** A widget key drives the live screens of /public/orders; it reads and moves orders, nothing else. */
export const WIDGET_SCOPES: Scope[] = ['orders:read', 'orders:write'];

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}
