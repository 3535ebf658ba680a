import type { Kysely } from 'kysely';
import { ulid } from 'ulid';
import type { DB } from '../server/db/schema.ts';
import { lockAllScopes } from '../server/db/log-positions.ts';

/**
 * Gives this database a new log identity (epoch). Called when its history stopped being the
 * one the cloud holds: a restore from a backup, or sync finding that the cloud knows
 * positions this log does not. The positions of the old identity may already mean other
 * changes in the cloud, so nothing of it is reused: this node's entries take the new
 * identity (their op ids, which the cloud dedupes on, stay), and the link starts a full
 * re-sync: everything is offered again both ways and only what the other side lacks is kept.
 */
export async function rotateEpoch(db: Kysely<DB>): Promise<string> {
  const origin = `node_${ulid().toLowerCase()}`;
  await db.transaction().execute(async (trx) => {
    // no unit of work writes its log meanwhile: each reads the identity under its scope's lock
    await lockAllScopes(trx);
    const { origin: old } = await trx.selectFrom('node_state').select('origin').where('id', '=', 1).executeTakeFirstOrThrow();
    await trx.updateTable('node_state').set({ origin }).where('id', '=', 1).execute();
    await trx.updateTable('change_log').set({ origin }).where('origin', '=', old).execute();
    await trx.updateTable('sync_link').set({ resync: 1, push_cursor: 0, pull_cursor: 0 }).execute();
  });
  return origin;
}

/** This database's current log identity. */
export async function currentEpoch(db: Kysely<DB>): Promise<string> {
  return (await db.selectFrom('node_state').select('origin').where('id', '=', 1).executeTakeFirstOrThrow()).origin;
}
