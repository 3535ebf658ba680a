import { ApiError } from '../../server/errors.ts';
import { formerSlugsOf, MAX_FORMER_SLUGS, restaurantBySlugOrFormer } from '../../server/domain/restaurants/slugs.ts';
import type { ChangeCheck } from '../table-behaviour.ts';

/**
 * Guest addresses are unique across the cloud (issue 40): a hub's change may not give its
 * restaurant a slug, or a former slug, that another restaurant holds now or held before: that
 * venue's printed links would open this one's pages. A linked hub asks the cloud before a
 * rename (sync/slug-claim.ts), so only a forged or stale change is refused here, whole.
 */
export const checkSlugsOnCloud: ChangeCheck = async (trx, ctx, c) => {
  if (ctx.role !== 'cloud') return;
  const stored = await trx.selectFrom('restaurants').select(['slug', 'former_slugs']).where('id', '=', ctx.restaurantId).executeTakeFirst();
  const held = new Set(stored ? [stored.slug, ...formerSlugsOf(stored)] : []);
  const formers = formerSlugsOf({ former_slugs: typeof c.data.former_slugs === 'string' ? c.data.former_slugs : null });
  if (formers.length > MAX_FORMER_SLUGS && formers.length > (stored ? formerSlugsOf(stored).length : 0)) {
    throw new ApiError('sync_batch_invalid', `A restaurant keeps at most ${MAX_FORMER_SLUGS} former guest addresses.`, 'data');
  }
  const claimed = [c.data.slug, ...formers];
  for (const slug of claimed) {
    if (typeof slug !== 'string' || held.has(slug)) continue;
    const holder = await restaurantBySlugOrFormer(trx, slug);
    if (holder && holder.id !== ctx.restaurantId) {
      throw new ApiError('sync_restaurant_mismatch', `The batch gives this restaurant the guest address '${slug}', which another restaurant on the cloud holds.`);
    }
  }
};
