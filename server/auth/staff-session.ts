import type { AccessRole, SessionVia } from './roles.ts';

/** A signed-in staff member's session, as the auth middleware and the presenters see it. */
export interface StaffSession {
  id: string;
  restaurantId: string;
  csrfToken: string;
  expiresAt: number;
  staff: { id: string; name: string; email: string | null; role: string; language: string | null };
  access: AccessRole;
  scopes: ReadonlySet<string>;
  /** a PIN session does service work only, whatever the role */
  via: SessionVia;
}
