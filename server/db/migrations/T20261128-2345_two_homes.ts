import type { Kysely } from 'kysely';

/**
 * Two homes (issue 44): staff devices carry on against the cloud when the hub PC stops.
 * - `home_origins` (hub, local): the origins staff devices reached the hub at, told to the cloud
 *   so it answers CORS for them and no one else.
 * - `sync_hubs.hub_origins` (cloud): those origins, per linked hub (a JSON list).
 * - `cloud_pass_uses` (cloud, local): the nonces of cloud passes already traded for a session,
 *   kept until the pass expires, so a pass opens one session only.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('home_origins')
    .addColumn('origin', 'text', (c) => c.primaryKey())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.alterTable('sync_hubs').addColumn('hub_origins', 'text').execute();
  await db.schema
    .createTable('cloud_pass_uses')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cloud_pass_uses').execute();
  await db.schema.alterTable('sync_hubs').dropColumn('hub_origins').execute();
  await db.schema.dropTable('home_origins').execute();
}
