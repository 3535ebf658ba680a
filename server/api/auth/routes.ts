import { credentialsRevoked } from '../../auth/revocations.ts';
import { sameSetupCode, setupCodeOf } from '../../auth/setup-code.ts';
import { updateRecord } from '../../db/records.ts';
import { getRestaurant, getSettings } from '../../domain/restaurants/restaurants.ts';
import { createSession, listSessions, resolveSession, revokeSession, sessionOwner } from '../../domain/staff/sessions.ts';
import type { StaffSession } from '../../auth/staff-session.ts';
import { mayEndSessionOf } from '../../auth/roles.ts';
import { completeSetup, setupNeeded } from '../../domain/staff/setup.ts';
import { checkCredentials } from '../../domain/staff/sign-in.ts';
import { ApiError, notFound, mustExist } from '../../errors.ts';
import { defineRoute, idParam, type Call, type RouteSpec } from '../../http/route.ts';
import { clientIp, isLoopback, lifetimeOf, sessionOf, setSessionCookies, signInThrottle } from '../../http/session.ts';
import { listOf } from '../../model/schemas.ts';
import { requireKnownHost } from '../../http/hosts.ts';
import { presentSession, presentSessionRow, RevokedSessionSchema, SessionSchema, SetupStateSchema, SignedOutSchema, StaffSessionSchema } from '../../presenters/auth.ts';
import { Setup, SignIn, UpdateOwnSession } from './schema.ts';

const tag = 'Sessions';
/** Password hashes computed per sign-in on the cloud, whatever the accounts an email matches. */
export const SIGN_IN_CHECKS_CLOUD = 2;

async function present(c: Call<any, any, any>, s: StaffSession) {
  const restaurant = await getRestaurant(c.db, s.restaurantId);
  return presentSession(s, restaurant, await getSettings(c.db, restaurant.id));
}

/** Opens a session for a checked person and hands the browser its cookies. */
export async function signInAs(c: Call<any, any, any>, who: { userId: string; restaurantId: string }, pin?: { serviceTabletId: string }) {
  const lifetime = lifetimeOf(c.services);
  const opened = await createSession(c.services.db, {
    ...who,
    ...(pin && { pin }),
    ip: clientIp(c.ctx, c.services),
    userAgent: c.ctx.get('user-agent') || null,
    nowMs: c.services.clock.now(),
    lifetime,
  });
  setSessionCookies(c.ctx, c.services, { token: opened.token, csrfToken: opened.csrfToken, maxAgeSeconds: lifetime.maxSeconds });
  c.ctx.set('Cache-Control', 'no-store');
  const session = await resolveSession(c.services.db, opened.token, c.services.clock.now(), lifetime);
  if (!session) throw new ApiError('sign_in_failed', 'This account cannot sign in to the back office.');
  return present(c, session);
}

async function requireSession(c: Call<any, any, any>): Promise<StaffSession> {
  const s = await sessionOf(c.ctx, c.services);
  if (!s) throw new ApiError('not_signed_in', 'You are not signed in (or your session ended). Sign in again.');
  return s;
}

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/auth/setup',
    response: SetupStateSchema,
    summary: 'Whether the hub still needs its first owner, and whether this device must give the setup code',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    handler: async (c) => ({ object: 'setup' as const, required: await setupNeeded(c.db), code_required: !isLoopback(c.ctx) }),
  }),

  defineRoute({
    method: 'post',
    path: '/v1/auth/setup',
    response: SessionSchema,
    errors: ['state_conflict', 'setup_code_required', 'rate_limited', 'sign_in_failed', 'host_not_allowed'],
    summary: 'First start: name the restaurant and create its owner, then sign in (loopback, or with the setup code)',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    body: Setup,
    status: 201,
    handler: async (c) => {
      const now = c.services.clock.now();
      requireKnownHost(c.ctx, c.services);
      if (!(await setupNeeded(c.db))) throw new ApiError('state_conflict', 'This hub already has an owner. Sign in instead.');
      if (!isLoopback(c.ctx)) {
        // guesses are limited per address, and never count against the hub itself: a device on
        // the LAN cannot lock the person at the hub out of their own setup
        const ip = clientIp(c.ctx, c.services);
        const throttle = signInThrottle(c.services);
        await throttle.check(`setup:${ip}`, ip);
        const code = c.body.setup_code;
        if (!code || !sameSetupCode(code, setupCodeOf(c.services))) {
          await throttle.fail(`setup:${ip}`, ip);
          throw new ApiError('setup_code_required', 'From another device, enter the setup code printed on the hub’s console.', 'setup_code');
        }
      }
      const { setup_code: _code, ...input } = c.body;
      const who = await completeSetup(c.services.tx, now, input);
      return signInAs(c, who);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/auth/login',
    response: SessionSchema,
    errors: ['sign_in_failed', 'rate_limited', 'host_not_allowed'],
    summary: 'Sign in with email and password: sets the session cookie and answers the session with its CSRF token',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    body: SignIn,
    handler: async (c) => {
      requireKnownHost(c.ctx, c.services);
      const ip = clientIp(c.ctx, c.services);
      const account = c.body.email.trim().toLowerCase();
      const throttle = signInThrottle(c.services);
      await throttle.check(account, ip);
      let who;
      try {
        // the cloud holds many restaurants, so one email may match several accounts: a fixed
        // number of hashes per try hides how many (a hub has one restaurant, one account per email)
        who = await checkCredentials(c.db, c.body, { checks: c.services.config.role === 'cloud' ? SIGN_IN_CHECKS_CLOUD : 1 });
      } catch (err) {
        if (err instanceof ApiError && err.code === 'sign_in_failed') await throttle.fail(account, ip);
        throw err;
      }
      await throttle.succeed(account, ip);
      return signInAs(c, who);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/auth/logout',
    response: SignedOutSchema,
    errors: ['csrf_token_invalid', 'host_not_allowed'],
    summary: 'Sign out: ends this session and clears its cookies',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    handler: async (c) => {
      const s = await sessionOf(c.ctx, c.services);
      if (s && (await revokeSession(c.services.db, s.restaurantId, s.id, c.services.clock.now()))) credentialsRevoked(c.services, s.restaurantId);
      setSessionCookies(c.ctx, c.services, null);
      return { object: 'session' as const, signed_out: true as const };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/auth/session',
    response: SessionSchema,
    errors: ['not_signed_in', 'host_not_allowed'],
    summary: 'The signed-in staff member, their role and scopes, and the restaurant’s currency, timezone and language',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    handler: async (c) => {
      c.ctx.set('Cache-Control', 'no-store');
      return present(c, await requireSession(c));
    },
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/auth/session',
    response: SessionSchema,
    errors: ['not_signed_in', 'csrf_token_invalid', 'host_not_allowed'],
    summary: 'Change your own preferences (language; null follows the restaurant’s)',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    body: UpdateOwnSession,
    handler: async (c) => {
      const s = await requireSession(c);
      if (c.body.language !== undefined) {
        await c.services.tx.run((trx) =>
          updateRecord(trx, 'users', { id: s.staff.id, restaurant_id: s.restaurantId }, { language: c.body.language, updated: Math.floor(c.now / 1000) }),
        );
        s.staff.language = c.body.language ?? null;
      }
      return present(c, s);
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/sessions',
    response: listOf(StaffSessionSchema),
    summary: 'Signed-in devices of the restaurant’s staff',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'staff:read',
    handler: async (c) => ({
      object: 'list' as const,
      data: (await listSessions(c.services.db, c.actor().restaurantId, c.now)).map(presentSessionRow),
      has_more: false,
      next_cursor: null,
      previous_cursor: null,
      url: '/v1/sessions',
    }),
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/sessions/:id',
    response: RevokedSessionSchema,
    summary: 'Sign a device out (revoke a staff session): your own, or one of a role below yours (the owner: anyone’s)',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'staff:write',
    params: idParam('ses_ id'),
    handler: async (c) => {
      const restaurantId = c.actor().restaurantId;
      const target = mustExist(await sessionOwner(c.services.db, restaurantId, c.params.id), 'session', c.params.id);
      if (!mayEndSessionOf(c.caller!, target)) throw new ApiError('insufficient_scope', 'You may end only your own sessions and those of roles below yours.');
      if (!(await revokeSession(c.services.db, restaurantId, c.params.id, c.now))) throw notFound('session', c.params.id);
      credentialsRevoked(c.services, restaurantId);
      return { id: c.params.id, object: 'staff_session' as const, revoked: true as const };
    },
  }),
];

