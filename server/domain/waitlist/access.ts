import type { Executor } from '../../db/records.ts';
import { ApiError, notFound } from '../../errors.ts';
import { planById } from '../restaurants/plans.ts';
import { readSettings, type Settings } from '../../model/settings.ts';
import { restaurantBySlugOrFormer } from '../restaurants/slugs.ts';
import type { RestaurantRow } from '../../db/tables/restaurants.table.ts';

/**
 * The restaurant of a public page, by slug only (ids are not public handles): its slug now or
 * one it had before, so old posters and QR sheets keep working. Unknown → 404.
 */
export async function restaurantBySlug(db: Executor, slug: string): Promise<{ restaurant: RestaurantRow; settings: Settings }> {
  const restaurant = await restaurantBySlugOrFormer(db, slug);
  if (!restaurant) throw notFound('restaurant', slug, 'slug');
  return { restaurant, settings: readSettings(restaurant) };
}

/** The plan is checked before the switch: an owner cannot switch on what the plan lacks. */
export function assertWaitlistOffered(restaurant: RestaurantRow, settings: Settings): void {
  if (!planById(restaurant.plan)?.features.waitlist) {
    throw new ApiError('WAITLIST_NOT_IN_PLAN', "This restaurant's plan does not include the online waitlist.");
  }
  if (!settings.waitlist.enabled) {
    throw new ApiError('WAITLIST_DISABLED', 'This restaurant has switched its online waitlist off.');
  }
}
