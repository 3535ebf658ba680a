import { z } from 'zod';
import { issueCloudPass, redeemCloudPass } from '../../../sync/cloud-pass.ts';
import { readLink } from '../../../sync/hub.ts';
import { rememberOrigin } from '../../../sync/origins.ts';
import { hubHeardFrom } from '../../../sync/status.ts';
import { getRestaurant, getSettings } from '../../domain/restaurants/restaurants.ts';
import { createSession, resolveSession } from '../../domain/staff/sessions.ts';
import { tabletOfToken } from '../../domain/staff/service-tablets.ts';
import { ApiError } from '../../errors.ts';
import { limitIp } from '../guest/guard.ts';
import { hostAllowed } from '../../http/hosts.ts';
import { PIN_DEVICE_COOKIE } from '../../http/pin-tablet.ts';
import { defineRoute, type Call, type RouteSpec } from '../../http/route.ts';
import { clientIp, lifetimeOf, overHttps, sessionOf } from '../../http/session.ts';
import { presentSession } from '../../presenters/auth.ts';
import { CloudPassSchema, CloudSessionSchema, HomesSchema, PublicHomesSchema, presentCloudPass, presentCloudSession, presentHomes, presentPublicHomes } from '../../presenters/homes.ts';

/** Two homes: where a staff device works when the hub PC stops (docs/contributors/two-homes.md). */
const tag = 'Sessions';

/** The origin a device reached this hub at (one of its allowed hosts), for the cloud's CORS. */
async function rememberReachedAt(c: Pick<Call<unknown, unknown, unknown>, 'ctx' | 'services'>): Promise<void> {
  const host = c.ctx.get('host');
  if (hostAllowed(c.services, host)) await rememberOrigin(c.services, `${overHttps(c.ctx, c.services) ? 'https' : 'http'}://${host.toLowerCase()}`);
}

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/homes',
    response: HomesSchema,
    summary: "Where this venue's staff devices may work: the hub, and the linked cloud they carry on against when the hub stops; whether the hub has caught up with the cloud (devices come back) or, on the cloud, whether the hub is answering",
    tag,
    auth: 'widget',
    screens: 'station',
    sandbox: 'read_only',
    handler: async (c) => {
      const restaurantId = c.actor().restaurantId;
      if (c.services.config.role === 'cloud') {
        return presentHomes({ role: 'cloud', cloudUrl: null, hubCaughtUp: null, hubAnswering: await hubHeardFrom(c.db as any, restaurantId, c.now) });
      }
      // the origin this device reached the hub at: the cloud answers CORS for it
      if (c.caller!.livemode) await rememberReachedAt(c);
      const link = await readLink(c.db as any);
      const linked = link !== undefined && link.restaurant_id === restaurantId;
      return presentHomes({ role: 'hub', cloudUrl: linked ? link.cloud_url : null, hubCaughtUp: linked ? (c.services.sync?.caughtUp ?? false) : true, hubAnswering: null });
    },
  }),

  defineRoute({
    method: 'get',
    path: '/public/homes',
    response: PublicHomesSchema,
    preflight: limitIp,
    summary: "For a guest's open page (a QR menu): the linked cloud's public origin, where the page carries on when the hub PC stops, and whether the hub has caught up with it",
    tag,
    auth: 'none',
    sandbox: 'keyless',
    handler: async (c) => {
      // the same for every guest, and asked by every open page: a shared cache may keep it a little
      c.ctx.set('Cache-Control', 'public, max-age=30');
      if (c.services.config.role === 'cloud') return presentPublicHomes({ cloudUrl: null, hubCaughtUp: null });
      // the origin the guest's phone reached the hub at: the cloud answers CORS for it
      await rememberReachedAt(c);
      const link = await readLink(c.db as any);
      return presentPublicHomes({ cloudUrl: link?.cloud_url ?? null, hubCaughtUp: link ? (c.services.sync?.caughtUp ?? false) : true });
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/auth/cloud_pass',
    response: CloudPassSchema,
    errors: ['not_signed_in', 'insufficient_scope', 'csrf_token_invalid', 'state_conflict'],
    summary: 'A PIN session on a trusted service tablet: a one-use pass (15 minutes) that opens the same person’s service session on the linked cloud, should the hub stop',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    handler: async (c) => {
      const s = await sessionOf(c.ctx, c.services);
      if (!s) throw new ApiError('not_signed_in', 'Sign in with your PIN on this tablet first.');
      const tablet = await tabletOfToken(c.services.db, c.ctx.cookies.get(PIN_DEVICE_COOKIE), c.now);
      // a PIN session on a tablet a manager trusted, and nothing else: a password session's
      // scopes are not handed to the cloud on a tablet's word
      if (s.via !== 'pin' || !tablet || tablet.restaurant_id !== s.restaurantId) {
        throw new ApiError('insufficient_scope', 'A cloud pass is for a PIN session on a trusted service tablet.');
      }
      const pass = await issueCloudPass(c.services, { restaurantId: s.restaurantId, userId: s.staff.id, tabletId: tablet.id });
      if (!pass) throw new ApiError('state_conflict', 'This hub is not linked to a cloud: there is nowhere else to work from.');
      c.ctx.set('Cache-Control', 'no-store');
      return presentCloudPass(pass);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/v1/auth/cloud_pass/redeem',
    response: CloudSessionSchema,
    errors: ['not_signed_in', 'sign_in_failed'],
    summary: 'On the cloud: trade a cloud pass from the hub (once) for the same person’s service session, its token sent back as X-Session-Token',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    body: z.object({ pass: z.string().min(1).max(2000) }),
    handler: async (c) => {
      const claims = await redeemCloudPass(c.services.db, c.body.pass, c.now);
      if (!claims) throw new ApiError('not_signed_in', 'This cloud pass is not valid (expired, already used, or from no linked hub). Sign in with your PIN again.');
      const lifetime = lifetimeOf(c.services);
      const opened = await createSession(c.services.db, {
        restaurantId: claims.r,
        userId: claims.u,
        pin: { serviceTabletId: claims.t },
        ip: clientIp(c.ctx, c.services),
        userAgent: c.ctx.get('user-agent') || null,
        nowMs: c.now,
        lifetime,
      });
      const session = await resolveSession(c.services.db, opened.token, c.now, lifetime);
      if (!session) throw new ApiError('sign_in_failed', 'This person cannot sign in here (no longer active, or their role changed).');
      c.ctx.set('Cache-Control', 'no-store');
      const restaurant = await getRestaurant(c.db, session.restaurantId);
      return presentCloudSession(opened.token, presentSession(session, restaurant, await getSettings(c.db, restaurant.id)));
    },
  }),
];
