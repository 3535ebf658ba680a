import { stationsInOrder } from '../../domain/menu/stations.ts';
import { z } from 'zod';
import { failureLogFor } from '../../auth/failure-log.ts';
import { FailureWindow } from '../../auth/failure-window.ts';
import { codeShapeFor, invalidPairingCode, makePairingCode, pairingRestaurantOf, redeemPairingCode, revokeDevice, takePairingTry } from '../../domain/devices/pairing.ts';
import { clientKey } from '../../http/client-ip.ts';
import type { Services } from '../../services.ts';
import { readSettings } from '../../model/settings.ts';
import { defineRoute, idParam, type RouteSpec } from '../../http/route.ts';
import { guestIp, limitIp } from '../guest/guard.ts';
import {
  DeviceCredentialSchema,
  DeviceListSchema,
  DeviceSchema,
  PairingCodeSchema,
  presentDevice,
  presentPairingCode,
  presentScreenStation,
  presentServiceTablet,
  ScreenConfigSchema,
  ServiceTabletListSchema,
  ServiceTabletSchema,
} from '../../presenters/devices.ts';
import { listTablets, revokeTablet } from '../../domain/staff/service-tablets.ts';
import { credentialsRevoked } from '../../auth/revocations.ts';
import { managersRead } from '../../http/managers-read.ts';

const tag = 'Screens and devices';

/**
 * Wrong pairing codes are counted per address (IPv6 per /64) and per restaurant whose open code
 * they aim at: past this many in ten minutes that address, or that restaurant's pairing, waits
 * (429). Never for the whole server: a stranger's wrong codes must not pause every venue's
 * tablets. Each code also dies after five tries, and guessing among 10⁸ secrets (the cloud)
 * from many addresses gains a guesser nothing worth the try.
 */
const PAIRING_FAILURES_PER_WINDOW = 30;
const PAIRING_WINDOW_MS = 10 * 60 * 1000;
const pairingFailures = new WeakMap<Services, FailureWindow>();
function pairingGuard(services: Services): FailureWindow {
  let w = pairingFailures.get(services);
  if (!w) pairingFailures.set(services, (w = new FailureWindow(failureLogFor(services), 'pairing', PAIRING_FAILURES_PER_WINDOW, PAIRING_WINDOW_MS)));
  return w;
}
const PAUSED = 'Too many wrong pairing codes were tried lately; pairing is paused here for a few minutes.';

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'post',
    path: '/v1/devices/pairing_codes',
    response: PairingCodeSchema,
    errors: ['unknown_station', 'rate_limited', 'insufficient_scope'],
    summary: 'Make a code (six digits on a hub, twelve on the cloud; valid 10 minutes, five tries) that pairs one kitchen or expo tablet; shown once',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:write',
    body: z.object({ name: z.string().trim().min(1).max(100), station: z.string().min(1).max(64).nullable().optional() }),
    status: 201,
    handler: async (c) => {
      const shape = codeShapeFor(c.services.config.role);
      const made = await c.services.tx.run((trx) => makePairingCode(trx, c.actor(), c.body, { shape, grantedBy: c.caller!.scopes }));
      return presentPairingCode(made, c.services.config.publicUrl);
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/devices',
    response: DeviceListSchema,
    summary: 'Paired tablets, newest first (revoked ones too)',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:read',
    handler: async (c) => {
      managersRead(c.caller);
      const rows = await c.db
        .selectFrom('device_pairings as p')
        .innerJoin('api_keys as k', 'k.id', 'p.api_key_id')
        .selectAll('p')
        .select(['k.prefix', 'k.last_used_at', 'k.revoked_at', 'k.kind', 'k.livemode', 'k.hash', 'k.scopes', 'k.screen', 'k.created as key_created', 'k.updated as key_updated'])
        .where('p.restaurant_id', '=', c.actor().restaurantId)
        .orderBy('p.used_at', 'desc')
        .orderBy('p.id', 'desc')
        .limit(200)
        .execute();
      const data = rows.map((r) =>
        presentDevice(r, {
          id: r.api_key_id!,
          restaurant_id: r.restaurant_id,
          kind: r.kind,
          livemode: r.livemode,
          hash: r.hash,
          prefix: r.prefix,
          name: r.name,
          scopes: r.scopes,
          screen: r.screen,
          last_used_at: r.last_used_at,
          revoked_at: r.revoked_at,
          created: r.key_created,
          updated: r.key_updated,
        }),
      );
      return { object: 'list' as const, data, has_more: false };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/v1/devices/service_tablets',
    response: ServiceTabletListSchema,
    summary: 'Service tablets a manager trusted for staff PIN sign-in, newest first (revoked and expired ones too)',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:write',
    handler: async (c) => ({ object: 'list' as const, data: (await listTablets(c.services.db, c.actor().restaurantId)).map(presentServiceTablet), has_more: false }),
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/devices/service_tablets/:id',
    response: ServiceTabletSchema,
    errors: ['resource_missing'],
    summary: 'Revoke a service tablet: its PIN pad closes and every session opened on it ends',
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:write',
    params: idParam('tab_ id of the service tablet'),
    handler: async (c) => {
      const { restaurantId } = c.actor();
      const { tablet, ended } = await revokeTablet(c.services.db, restaurantId, c.params.id, c.now);
      if (ended > 0) credentialsRevoked(c.services, restaurantId);
      return presentServiceTablet(tablet);
    },
  }),

  defineRoute({
    method: 'delete',
    path: '/v1/devices/:id',
    response: DeviceSchema,
    errors: ['resource_missing'],
    summary: "Unpair a tablet: its key is revoked and the screen asks to be paired again",
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:write',
    params: idParam('key_ id of the device'),
    handler: async (c) => {
      const { pairing, key } = await c.services.tx.run((trx) => revokeDevice(trx, c.actor(), c.params.id));
      return presentDevice(pairing, key);
    },
  }),

  defineRoute({
    method: 'post',
    path: '/public/devices/pair',
    response: DeviceCredentialSchema,
    errors: ['resource_missing', 'rate_limited'],
    preflight: limitIp,
    summary: 'A tablet trades a pairing code for its own widget key (answered once; the tablet keeps it)',
    tag,
    auth: 'none',
    sandbox: 'keyless',
    body: z.object({ code: z.string().trim().regex(/^\d{6,12}$/, 'must be the digits shown in Settings') }),
    status: 201,
    handler: async (c) => {
      const guard = pairingGuard(c.services);
      const ip = guestIp(c);
      const ipKey = `ip:${clientKey(ip)}`;
      await guard.check(ipKey, PAUSED);
      const shape = codeShapeFor(c.services.config.role);
      const aimedAt = await pairingRestaurantOf(c.services.db, c.now, c.body.code, shape);
      if (aimedAt) await guard.check(`rst:${aimedAt}`, PAUSED);
      // the try is counted (and committed) before the code is checked: a code takes only so many
      const tried = await takePairingTry(c.services.db, c.now, c.body.code, shape);
      let redeemed;
      try {
        if (!tried) throw invalidPairingCode();
        redeemed = await c.services.tx.run((trx) => redeemPairingCode(trx, c.now, tried.id, c.body.code));
      } catch (err) {
        await guard.fail(ipKey);
        if (aimedAt) await guard.fail(`rst:${aimedAt}`);
        c.services.logger.warn({ ip, locator: tried?.locator ?? null, code_known: tried !== null }, 'device pairing refused');
        throw err;
      }
      const { pairing, key } = redeemed;
      c.services.logger.info({ ip, restaurant: pairing.restaurant_id, device: pairing.api_key_id, name: pairing.name }, 'device paired');
      const restaurant = await c.db.selectFrom('restaurants').select(['name']).where('id', '=', pairing.restaurant_id).executeTakeFirstOrThrow();
      return { object: 'device_credential' as const, key, device: { id: pairing.api_key_id, name: pairing.name, station: pairing.station }, restaurant: { name: restaurant.name } };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/public/screens/config',
    response: ScreenConfigSchema,
    summary: "What a screen shows around the orders: the venue, the device's name and station, each station's age colours",
    tag,
    auth: 'widget',
    screens: 'station',
    sandbox: 'read_only',
    scope: 'orders:read',
    handler: async (c) => {
      const actor = c.actor();
      const restaurant = await c.db.selectFrom('restaurants').selectAll().where('id', '=', actor.restaurantId).executeTakeFirstOrThrow();
      // in the kitchen's order: the chooser and the expo list stations as the kitchen runs them
      const stations = await stationsInOrder(c.db, actor.restaurantId).where('is_active', '=', 1).execute();
      const device = await c.db
        .selectFrom('device_pairings')
        .select(['name', 'station'])
        .where('restaurant_id', '=', actor.restaurantId)
        .where('api_key_id', '=', c.caller!.keyId)
        .executeTakeFirst();
      // live messages carry the order as /v1 shows it (ids): the screen names tables and servers from these
      const tables = await c.db.selectFrom('tables').select(['id', 'number']).where('restaurant_id', '=', actor.restaurantId).execute();
      const staff = await c.db.selectFrom('users').select(['id', 'name']).where('restaurant_id', '=', actor.restaurantId).execute();
      const settings = readSettings(restaurant);
      return {
        restaurant: { name: restaurant.name, currency: restaurant.currency, timezone: restaurant.timezone, language: settings.language },
        device: device ?? null,
        stations: stations.map(presentScreenStation),
        tables: tables.map((t) => ({ id: t.id, number: t.number })),
        staff: staff.map((u) => ({ id: u.id, name: u.name })),
      };
    },
  }),
];
