import { z } from 'zod';
import { serviceSecret } from '../../domain/service-secret.ts';
import { checkPin, deviceToken, PIN_PATTERN, readDeviceToken } from '../../domain/staff/pins.ts';
import { ApiError } from '../../errors.ts';
import { restaurantOfDeviceKey } from '../../http/authenticate.ts';
import { f } from '../../http/fields.ts';
import { defineRoute, type Call, type RouteSpec } from '../../http/route.ts';
import { named, unix } from '../../http/schemas.ts';
import { clientIp, overHttps, sessionOf, signInThrottle } from '../../http/session.ts';
import { SessionSchema } from '../../presenters/auth.ts';
import { signInAs } from './routes.ts';

const tag = 'Sessions';
export const PIN_DEVICE_COOKIE = 'comanda_pin_device';
/** A tablet stays trusted for PINs for 90 days, then a manager signs it in again. */
const DEVICE_DAYS = 90;

const secretOf = (c: Call<any, any, any>) => serviceSecret(c.services.db, 'pin_device', c.services.clock.now());

/** The restaurant this device may PIN into: a paired screen's key, or the cookie a manager's session left. */
async function trustedRestaurant(c: Call<any, any, any>): Promise<string> {
  const key = c.ctx.get('x-api-key');
  if (key) {
    const r = await restaurantOfDeviceKey(c.services, key);
    if (r) return r;
  }
  const r = readDeviceToken(await secretOf(c), c.ctx.cookies.get(PIN_DEVICE_COOKIE), c.services.clock.now());
  if (r) return r;
  throw new ApiError('not_signed_in', 'PIN sign-in works on a paired device or one a manager has signed in; ask a manager.');
}

const PinDeviceSchema = named('PinDevice', z.object({ object: z.literal('pin_device'), restaurant: z.string(), expires: unix() }));
const PinStaffSchema = named(
  'PinStaffList',
  z.object({ object: z.literal('list'), data: z.array(z.object({ id: z.string(), object: z.literal('staff_user'), name: z.string(), role: z.string() })) }),
);

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'post',
    path: '/v1/auth/pin_device',
    response: PinDeviceSchema,
    errors: ['not_signed_in', 'insufficient_scope', 'csrf_token_invalid'],
    summary: 'Trust this tablet for staff PIN sign-in (a manager’s or owner’s session; sets a signed cookie for 90 days)',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    handler: async (c) => {
      const s = await sessionOf(c.ctx, c.services);
      if (!s) throw new ApiError('not_signed_in', 'Sign in as a manager on this tablet first.');
      if (s.access !== 'owner' && s.access !== 'manager') throw new ApiError('insufficient_scope', 'Only a manager or owner can trust a device for PINs.');
      const expires = c.services.clock.now() + DEVICE_DAYS * 86_400_000;
      c.ctx.cookies.set(PIN_DEVICE_COOKIE, deviceToken(await secretOf(c), s.restaurantId, expires), {
        path: '/', httpOnly: true, sameSite: 'strict', secure: overHttps(c.ctx, c.services), maxAge: DEVICE_DAYS * 86_400_000, overwrite: true,
      });
      return { object: 'pin_device' as const, restaurant: s.restaurantId, expires: Math.floor(expires / 1000) };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/auth/pin_staff',
    response: PinStaffSchema,
    errors: ['not_signed_in'],
    summary: 'Who can sign in with a PIN on this trusted device (names only: the buttons of the PIN pad)',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    handler: async (c) => {
      const restaurantId = await trustedRestaurant(c);
      const rows = await c.db
        .selectFrom('users')
        .select(['id', 'name', 'role'])
        .where('restaurant_id', '=', restaurantId)
        .where('is_active', '=', 1)
        .where('pin_hash', 'is not', null)
        .orderBy('name')
        .execute();
      return { object: 'list' as const, data: rows.map((r) => ({ id: r.id, object: 'staff_user' as const, name: r.name, role: r.role })) };
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/auth/pin',
    response: SessionSchema,
    errors: ['not_signed_in', 'sign_in_failed', 'rate_limited'],
    summary: 'Quick sign-in with a staff PIN on a trusted device: opens that person’s session (they become the server of orders they ring in)',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    body: z.object({ staff: f.id(), pin: z.string().regex(PIN_PATTERN, 'must be 4 to 6 digits') }),
    handler: async (c) => {
      const restaurantId = await trustedRestaurant(c);
      const ip = clientIp(c.ctx, c.services);
      const account = `pin:${c.body.staff}`;
      const throttle = signInThrottle(c.services);
      await throttle.check(account, ip);
      const user = await checkPin(c.db, restaurantId, c.body.staff, c.body.pin);
      if (!user) {
        await throttle.fail(account, ip);
        throw new ApiError('sign_in_failed', 'That PIN is not right.', 'pin');
      }
      await throttle.succeed(account, ip);
      return signInAs(c, { userId: user.id, restaurantId });
    },
  }),
];
