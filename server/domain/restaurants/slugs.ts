import type { Executor } from '../../db/records.ts';
import { updateRecord } from '../../db/records.ts';
import { ApiError } from '../../errors.ts';
import { LOCKS, lockKey } from '../../db/row-locks.ts';

/** What a slug may be: it is a path segment of every guest link (/r/<slug>/waitlist). */

/**
 * Former slugs a restaurant keeps (the newest): enough for a venue's real renames, not for
 * holding dozens of addresses from everyone by renaming (issue 40). The oldest beyond this is
 * freed. They do not expire by age: posters and QR sheets outlive any date we could pick.
 */
export const MAX_FORMER_SLUGS = 3;
export const SLUG_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,48}[a-z0-9])?$/;

export const formerSlugsOf = (row: { former_slugs?: string | null }): string[] => {
  try {
    const list = JSON.parse(row.former_slugs ?? '[]');
    return Array.isArray(list) ? list.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
};

/**
 * The restaurant a guest link names: by its slug now, else by a slug it had before (a poster
 * or QR sheet printed under the old name keeps working). A current slug always wins over a
 * former one, and a rename never takes a slug another venue had (see changeSlug).
 */
export async function restaurantBySlugOrFormer(db: Executor, slug: string) {
  const current = await db.selectFrom('restaurants').selectAll().where('slug', '=', slug).executeTakeFirst();
  if (current) return current;
  // the list is JSON text: match the quoted slug, then read it properly (a LIKE is only a filter)
  const pattern = `%${JSON.stringify(slug).replace(/[\\%_]/g, (m) => '\\' + m)}%`;
  const rows = await db
    .selectFrom('restaurants')
    .selectAll()
    .where((eb) => eb('former_slugs', 'like', eb.val(pattern)))
    .execute();
  return rows.find((r) => formerSlugsOf(r).includes(slug));
}

/**
 * Gives the restaurant a new slug, keeping the old one as a former slug. Refused (409) when
 * another restaurant has that slug now or had it before: its old links would then open this
 * venue's pages. Taking back one of its own former slugs is fine.
 */
export async function changeSlug(trx: Executor, restaurantId: string, slug: string, nowMs: number): Promise<void> {
  if (!SLUG_PATTERN.test(slug)) {
    throw new ApiError('parameter_invalid', 'slug must be 1–50 lowercase letters, digits or hyphens, not starting or ending with a hyphen.', 'slug');
  }
  // one rename at a time on this server: two venues must not both take the same free slug
  await lockKey(trx, LOCKS.slugs, 'slugs');
  const row = await trx.selectFrom('restaurants').select(['id', 'slug', 'former_slugs']).where('id', '=', restaurantId).executeTakeFirstOrThrow();
  if (row.slug === slug) return;
  const holder = await restaurantBySlugOrFormer(trx, slug);
  if (holder && holder.id !== restaurantId) {
    throw new ApiError('resource_conflict', `The address '${slug}' is already used by another restaurant here; choose another.`, 'slug');
  }
  const former = [...formerSlugsOf(row).filter((s) => s !== slug && s !== row.slug), row.slug].slice(-MAX_FORMER_SLUGS);
  await updateRecord(trx, 'restaurants', { id: restaurantId }, { slug, former_slugs: JSON.stringify(former), updated: Math.floor(nowMs / 1000) });
}
