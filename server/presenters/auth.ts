import { z } from 'zod';
import { ACCESS_ROLES } from '../auth/roles.ts';
import { LANGUAGES, type Settings } from '../model/settings.ts';
import type { StaffSession } from '../auth/staff-session.ts';
import { named, unix } from '../model/schemas.ts';

/** What the back office learns about who is signed in: enough to draw the right menu in the right language. */
export const SessionSchema = named(
  'Session',
  z.object({
    object: z.literal('session'),
    id: z.string(),
    expires_at: unix(),
    /** send it back as X-CSRF-Token on every write made with the session cookie */
    csrf_token: z.string(),
    role: z.enum(ACCESS_ROLES),
    scopes: z.array(z.string()),
    via: z.enum(['password', 'pin']).describe('pin: opened with a staff PIN on a service tablet, service work only whatever the role'),
    staff: z.object({ id: z.string(), name: z.string(), email: z.string().nullable().describe('null for a person who signs in by PIN only'), role: z.string(), language: z.string().nullable() }),
    restaurant: z.object({
      id: z.string(),
      name: z.string(),
      slug: z.string(),
      currency: z.string(),
      timezone: z.string(),
      language: z.enum(LANGUAGES),
    }),
  }),
);
export type Session = z.output<typeof SessionSchema>;

export function presentSession(s: StaffSession, restaurant: { id: string; name: string; slug: string }, settings: Settings): Session {
  return {
    object: 'session',
    id: s.id,
    expires_at: s.expiresAt,
    csrf_token: s.csrfToken,
    role: s.access,
    scopes: [...s.scopes].sort(),
    via: s.via,
    staff: { id: s.staff.id, name: s.staff.name, email: s.staff.email, role: s.staff.role, language: s.staff.language },
    restaurant: {
      id: restaurant.id,
      name: restaurant.name,
      slug: restaurant.slug,
      currency: settings.currency,
      timezone: settings.timezone,
      language: settings.language,
    },
  };
}

export const SetupStateSchema = named(
  'SetupState',
  z.object({
    object: z.literal('setup'),
    /** the hub has no owner yet */
    required: z.boolean(),
    /** this device is not the hub itself, so setup asks for the code printed on its console */
    code_required: z.boolean(),
  }),
);

export const SignedOutSchema = named('SignedOut', z.object({ object: z.literal('session'), signed_out: z.literal(true) }));

/** A signed-in device, as the owner sees it to sign it out. */
export const StaffSessionSchema = named(
  'StaffSession',
  z.object({
    id: z.string(),
    object: z.literal('staff_session'),
    staff_user: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    role: z.string(),
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    via: z.enum(['password', 'pin']),
    created: unix(),
    last_seen_at: unix(),
    expires_at: unix(),
  }),
);
export type StaffSessionRow = z.output<typeof StaffSessionSchema>;

export const RevokedSessionSchema = named(
  'RevokedStaffSession',
  z.object({ id: z.string(), object: z.literal('staff_session'), revoked: z.literal(true) }),
);

export function presentSessionRow(r: {
  id: string;
  user_id: string;
  name: string;
  email: string | null;
  role: string;
  ip: string | null;
  user_agent: string | null;
  via: 'password' | 'pin';
  created: number;
  last_seen_at: number;
  expires_at: number;
}): StaffSessionRow {
  return {
    id: r.id,
    object: 'staff_session',
    staff_user: r.user_id,
    name: r.name,
    email: r.email,
    role: r.role,
    ip: r.ip,
    user_agent: r.user_agent,
    via: r.via,
    created: Number(r.created),
    last_seen_at: Number(r.last_seen_at),
    expires_at: Number(r.expires_at),
  };
}
