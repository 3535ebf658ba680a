import { z } from 'zod';
import { keyOf } from '../../http/api-key-header.ts';
import { failureLogFor } from '../../auth/failure-log.ts';
import { FailureWindow } from '../../auth/failure-window.ts';
import { checkPin, PIN_PATTERN } from '../../domain/staff/pins.ts';
import { SERVICE_TABLET_DAYS, tabletOfToken, trustTablet } from '../../domain/staff/service-tablets.ts';
import { ApiError } from '../../errors.ts';
import { restaurantOfDeviceKey } from '../../http/authenticate.ts';
import { f } from '../../model/fields.ts';
import { defineRoute, type Call, type RouteSpec } from '../../http/route.ts';
import { named, unix } from '../../model/schemas.ts';
import { clientIp, overHttps, sessionOf, signInThrottle } from '../../http/session.ts';
import { SessionSchema } from '../../presenters/auth.ts';
import type { Services } from '../../services.ts';
import { signInAs } from './routes.ts';
import { PIN_DEVICE_COOKIE, setPinTabletHint } from '../../http/pin-tablet.ts';

const tag = 'Sessions';

/**
 * Wrong PINs for one person from every address together: past this many in the window, that
 * person's PIN is paused (429) until the oldest leaves it; their password still signs them in.
 * A PIN has 10⁴ values: the per-address count alone would let a guesser change addresses.
 */
const PIN_FAILURES_PER_PERSON = 10;
const PIN_PERSON_WINDOW_MS = 15 * 60 * 1000;
const personGuards = new WeakMap<Services, FailureWindow>();
function personGuard(services: Services): FailureWindow {
  let w = personGuards.get(services);
  if (!w) personGuards.set(services, (w = new FailureWindow(failureLogFor(services), 'pin-person', PIN_FAILURES_PER_PERSON, PIN_PERSON_WINDOW_MS)));
  return w;
}

/**
 * The service tablet this request comes from: the cookie a manager's password session left on
 * it. A kitchen or expo screen's key is no service tablet: a tablet on the kitchen wall never
 * lists the staff nor signs anyone in.
 */
async function serviceTablet(c: Call<any, any, any>) {
  const tablet = await tabletOfToken(c.services.db, c.ctx.cookies.get(PIN_DEVICE_COOKIE), c.services.clock.now());
  if (tablet) return tablet;
  const key = keyOf(c.ctx);
  if (key && (await restaurantOfDeviceKey(c.services, key))) {
    throw new ApiError('insufficient_scope', 'A kitchen or expo screen does not sign staff in: a manager trusts a service tablet for PINs at /app/service.');
  }
  throw new ApiError('not_signed_in', 'PIN sign-in works on a service tablet a manager has trusted; ask a manager.');
}

const PinDeviceSchema = named(
  'PinDevice',
  z.object({ object: z.literal('pin_device'), id: z.string().describe('the service tablet, listed in Settings → Screens'), restaurant: z.string(), expires: unix() }),
);
const PinStaffSchema = named(
  'PinStaffList',
  z.object({
    object: z.literal('list'),
    data: z.array(z.object({ id: z.string(), object: z.literal('staff_user'), name: z.string(), role: z.string() })),
    // the venue's name, at the top of the PIN pad
    restaurant: z.object({ name: z.string() }),
  }),
);

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'post',
    path: '/v1/auth/pin_device',
    response: PinDeviceSchema,
    errors: ['not_signed_in', 'insufficient_scope', 'csrf_token_invalid'],
    summary: 'Trust this tablet as a service tablet for staff PIN sign-in (a manager’s or owner’s password session; a cookie for 90 days, listed and revocable in Settings → Screens)',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    body: z.object({ name: z.string().trim().min(1).max(100).optional() }),
    handler: async (c) => {
      const s = await sessionOf(c.ctx, c.services);
      if (!s) throw new ApiError('not_signed_in', 'Sign in as a manager on this tablet first.');
      // settings:write: a manager's or the owner's password session (a PIN session holds service scopes only)
      if (!s.scopes.has('settings:write')) throw new ApiError('insufficient_scope', 'Only a manager or owner signed in with their password can trust a tablet for PINs.');
      const now = c.services.clock.now();
      const { token, row } = await trustTablet(c.services.db, {
        restaurantId: s.restaurantId,
        trustedBy: s.staff.id,
        name: c.body.name ?? `Service tablet (${s.staff.name})`,
        ip: clientIp(c.ctx, c.services),
        userAgent: c.ctx.get('user-agent') || null,
        nowMs: now,
      });
      c.ctx.cookies.set(PIN_DEVICE_COOKIE, token, {
        path: '/', httpOnly: true, sameSite: 'strict', secure: overHttps(c.ctx, c.services), maxAge: SERVICE_TABLET_DAYS * 86_400_000, overwrite: true,
      });
      setPinTabletHint(c.ctx, true, { secure: overHttps(c.ctx, c.services), maxAge: SERVICE_TABLET_DAYS * 86_400_000 });
      return { object: 'pin_device' as const, id: row.id, restaurant: s.restaurantId, expires: row.expires_at };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/auth/pin_staff',
    response: PinStaffSchema,
    errors: ['not_signed_in', 'insufficient_scope'],
    summary: 'Who can sign in with a PIN on this service tablet (names only: the buttons of the PIN pad)',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    handler: async (c) => {
      const { restaurant_id: restaurantId } = await serviceTablet(c);
      const rows = await c.db
        .selectFrom('users')
        .select(['id', 'name', 'role'])
        .where('restaurant_id', '=', restaurantId)
        .where('is_active', '=', 1)
        .where('pin_hash', 'is not', null)
        .orderBy('name')
        .execute();
      const venue = await c.db.selectFrom('restaurants').select('name').where('id', '=', restaurantId).executeTakeFirst();
      return { object: 'list' as const, data: rows.map((r) => ({ id: r.id, object: 'staff_user' as const, name: r.name, role: r.role })), restaurant: { name: venue?.name ?? '' } };
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/auth/pin',
    response: SessionSchema,
    errors: ['not_signed_in', 'insufficient_scope', 'sign_in_failed', 'rate_limited'],
    summary: 'Quick sign-in with a staff PIN on a service tablet: opens that person’s session for service work only (orders, payment at the table, the floor), whatever their role',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    body: z.object({ staff: f.id(), pin: z.string().regex(PIN_PATTERN, 'must be 4 to 6 digits') }),
    handler: async (c) => {
      const tablet = await serviceTablet(c);
      const ip = clientIp(c.ctx, c.services);
      const account = `pin:${c.body.staff}`;
      const throttle = signInThrottle(c.services);
      const person = personGuard(c.services);
      await throttle.check(account, ip);
      await person.check(c.body.staff, 'Too many wrong PINs for this person lately; wait a little, or sign in with the password.');
      const user = await checkPin(c.db, tablet.restaurant_id, c.body.staff, c.body.pin);
      if (!user) {
        await throttle.fail(account, ip);
        await person.fail(c.body.staff);
        throw new ApiError('sign_in_failed', 'That PIN is not right.', 'pin');
      }
      await throttle.succeed(account, ip);
      return signInAs(c, { userId: user.id, restaurantId: tablet.restaurant_id }, { serviceTabletId: tablet.id });
    },
  }),
];
