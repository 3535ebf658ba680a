import type { StaffSession } from '../../domain/staff/sessions.ts';
import type { Settings } from '../../domain/restaurants/settings.ts';

/** What the back office learns about who is signed in: enough to draw the right menu in the right language. */
export function presentSession(s: StaffSession, restaurant: { id: string; name: string; slug: string }, settings: Settings) {
  return {
    object: 'session' as const,
    id: s.id,
    expires_at: s.expiresAt,
    csrf_token: s.csrfToken,
    role: s.access,
    scopes: [...s.scopes].sort(),
    staff: s.staff,
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

export function presentSessionRow(r: {
  id: string;
  user_id: string;
  name: string;
  email: string;
  role: string;
  ip: string | null;
  user_agent: string | null;
  created: number;
  last_seen_at: number;
  expires_at: number;
}) {
  return {
    id: r.id,
    object: 'staff_session' as const,
    staff_user: r.user_id,
    name: r.name,
    email: r.email,
    role: r.role,
    ip: r.ip,
    user_agent: r.user_agent,
    created: Number(r.created),
    last_seen_at: Number(r.last_seen_at),
    expires_at: Number(r.expires_at),
  };
}
