import { randomBytes } from 'node:crypto';
import type { Executor } from '../db/records.ts';

/**
 * The installation's secret of this name: read from the database, or made now if there is
 * none. Two processes making it at once both insert-or-ignore, then read the one that won.
 */
export async function serviceSecret(db: Executor, name: string, nowMs: number): Promise<string> {
  const read = () => db.selectFrom('service_secrets').select('value').where('name', '=', name).executeTakeFirst();
  const found = await read();
  if (found) return found.value;
  await db
    .insertInto('service_secrets')
    .values({ name, value: randomBytes(32).toString('hex'), created: Math.floor(nowMs / 1000) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await read())!.value;
}

/** serviceSecret, read once per holder; a failed read is tried again next time. */
export function lazySecret(load: () => Promise<string>): () => Promise<string> {
  let made: Promise<string> | null = null;
  return () => {
    made ??= load().catch((err) => {
      made = null;
      throw err;
    });
    return made;
  };
}
