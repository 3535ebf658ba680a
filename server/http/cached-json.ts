import { perDatabase } from '../db/versioned-cache.ts';
import { versionsOf } from '../db/versions.ts';
import type { RecordTable } from '../db/schema.ts';
import type { Call } from './route.ts';

const pages = perDatabase<Buffer>(512);

/**
 * Answers a read from its serialised JSON while nothing of the caller's restaurant has been
 * written since it was made (db/versioned-cache.ts). For reads of replicated records only,
 * that depend on nothing but those records and the request (not on the clock). Kept as
 * bytes: a big page is then written to the socket as it is, not encoded again each time.
 */
export async function cachedJson(c: Call<any, any, any>, key: string, compute: () => Promise<unknown>, tables?: readonly RecordTable[]): Promise<Buffer> {
  const { restaurantId, livemode } = c.actor();
  const json = await pages(versionsOf(c.services.db)).through(c.services.db, restaurantId, `${restaurantId}|${livemode}|${key}`, async () => Buffer.from(JSON.stringify(await compute())), tables);
  c.ctx.type = 'application/json';
  return json;
}
