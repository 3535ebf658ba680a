import { SCOPES, type Scope } from './scopes.ts';

/**
 * What a signed-in staff member may do is a set of the API's own scopes, so every route's
 * scope check applies to a session exactly as to a key: the back office has no private way in.
 */
export const ACCESS_ROLES = ['owner', 'manager', 'server', 'kitchen'] as const;
export type AccessRole = (typeof ACCESS_ROLES)[number];

// a manager runs the restaurant, not the machine: no keys, and the backups stay where the owner put them
const MANAGER: Scope[] = SCOPES.filter((s) => !s.startsWith('api_keys:') && s !== 'backups:write');
// no staff:read (pay rates, shifts), no analytics, no keys, no webhooks, no settings changes, no refunds
const SERVER: Scope[] = [
  'orders:read',
  'orders:write',
  'menu:read',
  'reservations:read',
  'reservations:write',
  'tables:read',
  'waitlist:read',
  'waitlist:write',
  'customers:read',
  'feedback:read',
  'settings:read',
  'printers:read',
  // a server takes payment at the table; refunds and the day's close are a manager's
  'payments:read',
  'payments:write',
];
// the screens: orders and the menu they are cooked from
const KITCHEN: Scope[] = ['orders:read', 'orders:write', 'menu:read', 'settings:read'];

export const ROLE_SCOPES: Record<AccessRole, readonly Scope[]> = {
  owner: SCOPES,
  manager: MANAGER,
  server: SERVER,
  kitchen: KITCHEN,
};

/** The back-office role a job title signs in as; null: this person has no sign-in (`staff`, couriers). */
export function accessRoleOf(role: string): AccessRole | null {
  switch (role) {
    case 'owner':
    case 'manager':
    case 'server':
    case 'kitchen':
      return role;
    case 'cook':
      return 'kitchen';
    case 'host':
    case 'bartender':
    case 'runner':
      return 'server';
    default:
      return null;
  }
}

export function scopesOfRole(role: string): readonly Scope[] {
  const access = accessRoleOf(role);
  return access ? ROLE_SCOPES[access] : [];
}

/**
 * How a session was opened. A PIN (4–6 digits, typed where guests watch, the same an owner types
 * to approve a server's void) opens service work only, whatever the person's role: orders,
 * payment at the table, the floor and its bookings. Keys, staff, settings, backups, devices and
 * webhooks need a password sign-in.
 */
export type SessionVia = 'password' | 'pin';
export const PIN_SCOPES: readonly Scope[] = SERVER;

export function scopesOfSession(role: string, via: SessionVia): readonly Scope[] {
  const all = scopesOfRole(role);
  return via === 'pin' ? all.filter((s) => PIN_SCOPES.includes(s)) : all;
}

/** A caller may hand out (or take over, by setting a password) only what it holds itself. */
export function holdsAll(held: ReadonlySet<string>, wanted: readonly string[]): boolean {
  return wanted.every((s) => held.has(s));
}

/** Seniority of the back-office roles: who may end whose session. */
const RANK: Record<AccessRole, number> = { owner: 3, manager: 2, server: 1, kitchen: 0 };

/**
 * Whether a caller may end (sign out) a session of someone with `targetRole`. A person may
 * end their own; a role may end only sessions of roles below it, and the owner anyone's (a
 * manager cannot sign the owner out, nor another manager). A key, which has no role, may
 * end the sessions of roles whose every scope it holds, as it may manage those people.
 */
export function mayEndSessionOf(
  caller: { scopes: ReadonlySet<string>; staff?: { id: string; role: string } },
  target: { userId: string; role: string },
): boolean {
  if (!caller.staff) return holdsAll(caller.scopes, scopesOfRole(target.role));
  if (caller.staff.id === target.userId) return true;
  const mine = accessRoleOf(caller.staff.role);
  const theirs = accessRoleOf(target.role);
  if (mine === 'owner') return true;
  return mine !== null && (theirs === null || RANK[mine] > RANK[theirs]);
}
