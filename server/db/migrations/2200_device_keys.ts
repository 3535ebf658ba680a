import { sql, type Kysely } from 'kysely';

/**
 * A paired screen's key says what it was paired for (`api_keys.screen`): a station's key, or
 * `*` for an expo screen that sees every station; null for every other key. It travels with
 * the key (a credential: set when the key is made, never changed), so the cloud holds a
 * screen's key to the same bounds as the hub that paired it. Keys paired before this are
 * bound from their pairing where this node has it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').addColumn('screen', 'text').execute();
  await sql`
    update api_keys set screen = (
      select coalesce(p.station, '*') from device_pairings p where p.api_key_id = api_keys.id
    )
    where id in (select api_key_id from device_pairings where api_key_id is not null)
  `.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('api_keys').dropColumn('screen').execute();
}
