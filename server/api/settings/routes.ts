import { z } from 'zod';
import { updateRecord } from '../../db/records.ts';
import { rebuildRollups } from '../../domain/analytics/rebuild.ts';
import { getRestaurant, getSettings, updateSettings } from '../../domain/restaurants/restaurants.ts';
import { settingsShape } from '../../model/settings.ts';
import { changeSlug } from '../../domain/restaurants/slugs.ts';
import { claimSlugOnCloud } from '../../../sync/slug-claim.ts';
import { defineRoute, type RouteSpec } from '../../http/route.ts';
import { named } from '../../model/schemas.ts';
import type { Settings } from '../../model/settings.ts';

const tag = 'Settings';

function present(restaurant: { id: string; name: string; slug: string; plan: string }, s: Settings): z.output<typeof SettingsSchema> {
  return {
    object: 'settings' as const,
    restaurant: restaurant.id,
    name: restaurant.name,
    slug: restaurant.slug,
    plan: restaurant.plan,
    ...s,
  };
}

const SettingsSchema = named(
  'Settings',
  z.object({ object: z.literal('settings'), restaurant: z.string(), name: z.string(), slug: z.string(), plan: z.string(), ...settingsShape }),
);

const UpdateSettings = z
  .object({
    ...settingsShape,
    name: z.string().trim().min(1).max(200),
    /** the venue's address in guest links; the old one keeps working (refused if another venue has or had it) */
    slug: z.string().trim().toLowerCase().min(1).max(50),
    waitlist: settingsShape.waitlist.partial(),
  })
  .partial();

export const routes: RouteSpec[] = [
  defineRoute({
    method: 'get',
    path: '/v1/settings',
    response: SettingsSchema,
    summary: "The restaurant's settings: timezone, currency, tax, opening hours, reservations and waitlist",
    tag,
    auth: 'secret',
    sandbox: 'read_only',
    scope: 'settings:read',
    handler: async (c) => {
      const r = await getRestaurant(c.db, c.actor().restaurantId);
      return present(r, await getSettings(c.db, r.id));
    },
  }),

  defineRoute({
    method: 'patch',
    path: '/v1/settings',
    response: SettingsSchema,
    summary: 'Update settings; only the fields sent change. A new slug keeps the old one working for guest links; one another restaurant has or had is refused (409). The currency is fixed once a live order or payment exists (409 currency_locked).',
    errors: ['resource_conflict', 'currency_locked', 'service_unavailable'],
    tag,
    auth: 'secret',
    sandbox: 'live_only',
    scope: 'settings:write',
    body: UpdateSettings,
    handler: async (c) => {
      const actor = c.actor();
      const { name, slug, ...patch } = c.body;
      // a linked hub's new guest address is the cloud's to grant first (unique across the cloud)
      if (slug !== undefined && c.services.config.role === 'hub' && slug !== (await getRestaurant(c.db, actor.restaurantId)).slug) await claimSlugOnCloud(c.services, slug);
      const saved = await c.services.tx.run(async (trx) => {
        if (slug !== undefined) await changeSlug(trx, actor.restaurantId, slug, actor.now);
        if (name !== undefined) {
          await updateRecord(trx, 'restaurants', { id: actor.restaurantId }, { name, updated: Math.floor(actor.now / 1000) });
        }
        const before = await getSettings(trx, actor.restaurantId);
        const saved = await updateSettings(trx, actor, patch);
        // Reports keep local dates per order; a new timezone moves sales to other days.
        if (saved.timezone !== before.timezone) await rebuildRollups(trx, actor.restaurantId);
        return saved;
      });
      return present(await getRestaurant(c.db, actor.restaurantId), saved);
    },
  }),
];
